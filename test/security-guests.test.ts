// Guests limited by can_access_all_users_group (the "restricted guest" column of the permission matrix): they
// neither act on nor learn about the users they may not access — not by sending, typing, reacting, looking up,
// nor through presence, status, message senders and reactions, in register data, events or fetches.
// Here polonius (guest) shares channels with cordelia only; hamlet, unsubscribed, is someone he may not access.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { allRoutes } from '../src/routes/index.js';
import { fullPath } from '../src/http/route.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { assertError, assertSuccess } from './helpers/assertions.js';
import type { Reply } from './helpers/client.js';
import { eventually, Listeners } from './helpers/events.js';
import { channelName, createChannel, sendToChannel } from './helpers/messages.js';
import { setRealmSettings } from './helpers/direct-db.js';

let server: TestServer;
let open: number; // a public channel of polonius and cordelia
let openName: string;
let cordeliaMessage: number;
let hamletMessage: number;
let membersGroup: number;
const STATUS = 'Away on a secret errand';

before(async () => {
  server = await startTestServer();
  await createChannel(server, 'iago', ['polonius', 'cordelia'], { invite_only: true });
  open = await createChannel(server, 'iago', ['polonius', 'cordelia']);
  openName = await channelName(server, open);
  cordeliaMessage = await sendToChannel(server, 'cordelia', open, 'greetings', 'Hello all');
  await setRealmSettings(server, { can_access_all_users_group: 'role:members' });
  const groups = assertSuccess(await server.as('desdemona').get('/user_groups')).user_groups as { id: number; name: string }[];
  membersGroup = groups.find((g) => g.name === 'role:members')!.id;
});
after(() => server?.close());

const DENIED = 'You do not have permission to access some of the recipients.';
const unknownEmail = (id: number) => `user${id}@parlance.invalid`;

// What would tell polonius who hamlet is: his name, his address, his status.
// Every event `who` received until one of `type` arrived (Listeners.waitFor passes the others over).
async function takeThrough(l: Listeners, who: 'polonius' | 'cordelia', type: string): Promise<Record<string, any>[]> {
  const got: Record<string, any>[] = [];
  await eventually(async () => {
    got.push(...(await l.take(who)));
    return got.some((e) => e.type === type) ? true : undefined;
  });
  return got;
}

function leaks(text: string): string | null {
  for (const marker of [server.users.hamlet.fullName, server.users.hamlet.email, STATUS]) if (text.includes(marker)) return marker;
  return null;
}

test('a restricted guest cannot send, schedule or type to a user they may not access, with the reference error', async () => {
  const { hamlet, cordelia } = server.users;
  const guest = server.as('polonius');
  for (const to of [[hamlet.id], [hamlet.email], [cordelia.id, hamlet.id]]) {
    assertError(await guest.post('/messages', { type: 'direct', to, content: 'psst' }), 400, 'BAD_REQUEST', DENIED);
  }
  const later = Math.floor(Date.now() / 1000) + 3600;
  assertError(await guest.post('/scheduled_messages', { type: 'direct', to: [hamlet.id], content: 'later', scheduled_delivery_timestamp: later }), 400, 'BAD_REQUEST', DENIED);
  assertError(await guest.post('/typing', { op: 'start', to: [hamlet.id] }), 400, 'BAD_REQUEST', DENIED);
  assertError(await guest.post('/typing', { op: 'start', to: [cordelia.id, hamlet.id] }), 400, 'BAD_REQUEST', DENIED);
  // Those they share a channel with, and members anywhere, are not limited.
  assertSuccess(await guest.post('/typing', { op: 'start', to: [cordelia.id] }));
  assertSuccess(await guest.post('/messages', { type: 'direct', to: [cordelia.id], content: 'hello' }));
  assertSuccess(await server.as('cordelia').post('/typing', { op: 'start', to: [hamlet.id] }));
});

test('a restricted guest looks up no user they may not access', async () => {
  const { hamlet, cordelia } = server.users;
  const guest = server.as('polonius');
  for (const key of [String(hamlet.id), encodeURIComponent(hamlet.email)]) {
    assertError(await guest.get(`/users/${key}`), 400, 'BAD_REQUEST', 'Insufficient permission');
    assertError(await guest.get(`/users/${key}/presence`), 400, 'BAD_REQUEST', 'Insufficient permission');
  }
  assertError(await guest.get(`/user_groups/${membersGroup}/members/${hamlet.id}`), 400, 'BAD_REQUEST', 'Insufficient permission');
  assert.equal(assertSuccess(await guest.get(`/user_groups/${membersGroup}/members/${cordelia.id}`)).is_user_group_member, true);
});

test('an unsubscribed sender, typist and reacting user appear to the guest as "Unknown user"', async () => {
  const { hamlet } = server.users;
  const l = await Listeners.open(server, ['polonius', 'cordelia'], { event_types: ['message', 'reaction', 'typing'], client_capabilities: { stream_typing_notifications: true } });
  hamletMessage = await sendToChannel(server, 'hamlet', open, 'greetings', 'A word from outside');
  assertSuccess(await server.as('hamlet').post(`/messages/${cordeliaMessage}/reactions`, { emoji_name: 'smile' }));
  assertSuccess(await server.as('hamlet').post('/typing', { op: 'start', type: 'stream', stream_id: open, topic: 'greetings' }));
  const toCordelia = await takeThrough(l, 'cordelia', 'typing');
  assert.equal(toCordelia.find((e) => e.type === 'typing')!.sender.email, hamlet.email);

  const events = await l.take('polonius');
  const message = events.find((e) => e.type === 'message')!.message;
  assert.deepEqual([message.sender_id, message.sender_full_name, message.sender_email, message.avatar_url], [hamlet.id, 'Unknown user', unknownEmail(hamlet.id), '/static/images/unknown-user-avatar.png']);
  const reaction = events.find((e) => e.type === 'reaction')!;
  assert.deepEqual(reaction.user, { user_id: hamlet.id, email: unknownEmail(hamlet.id), full_name: 'Unknown user' });
  assert.equal(events.filter((e) => e.type === 'typing').length, 0, 'no typing notice from hamlet');
  assert.equal(leaks(JSON.stringify(events)), null);
  assert.equal(toCordelia.find((e) => e.type === 'message')!.message.sender_full_name, hamlet.fullName);
  assert.equal(toCordelia.find((e) => e.type === 'reaction')!.user.full_name, hamlet.fullName);

  const fetched = assertSuccess(await server.as('polonius').get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: [['channel', openName]] }));
  const mine = fetched.messages.find((m: { id: number }) => m.id === hamletMessage);
  assert.equal(mine.sender_full_name, 'Unknown user');
  assert.equal(mine.sender_email, unknownEmail(hamlet.id));
  const reacted = fetched.messages.find((m: { id: number }) => m.id === cordeliaMessage);
  assert.deepEqual(reacted.reactions[0].user, { id: hamlet.id, email: unknownEmail(hamlet.id), full_name: 'Unknown user', is_mirror_dummy: false });
  assert.equal(leaks(JSON.stringify(fetched)), null);
  assert.equal(assertSuccess(await server.as('polonius').get(`/messages/${hamletMessage}`)).message.sender_full_name, 'Unknown user');
  assert.equal(assertSuccess(await server.as('cordelia').get(`/messages/${hamletMessage}`)).message.sender_full_name, hamlet.fullName);
});

test('presence and status of users a guest may not access reach them neither in register data nor as events', async () => {
  const { hamlet, cordelia } = server.users;
  const l = await Listeners.open(server, ['polonius'], { event_types: ['presence', 'user_status'] });
  assertSuccess(await server.as('hamlet').post('/users/me/status', { status_text: STATUS }));
  assertSuccess(await server.as('cordelia').post('/users/me/status', { status_text: 'Reading' }));
  assertSuccess(await server.as('hamlet').post('/users/me/presence', { status: 'active' }));
  assertSuccess(await server.as('cordelia').post('/users/me/presence', { status: 'active' }));
  const all = await takeThrough(l, 'polonius', 'presence');
  assert.deepEqual(all.filter((e) => e.type === 'presence').map((e) => e.user_id), [cordelia.id]);
  assert.deepEqual(all.filter((e) => e.type === 'user_status').map((e) => e.user_id), [cordelia.id]);
  assert.equal(leaks(JSON.stringify(all)), null);

  const reg = assertSuccess(await server.as('polonius').post('/register', { fetch_event_types: ['presence', 'user_status'], slim_presence: true }));
  assert.ok(cordelia.id in reg.presences && !(hamlet.id in reg.presences), JSON.stringify(reg.presences));
  assert.deepEqual(Object.keys(reg.user_status), [String(cordelia.id)]);
  const legacy = assertSuccess(await server.as('polonius').get('/realm/presence'));
  assert.ok(cordelia.email in legacy.presences && !(hamlet.email in legacy.presences));
  const ping = assertSuccess(await server.as('polonius').post('/users/me/presence', { status: 'active', slim_presence: true }));
  assert.ok(!(hamlet.id in ping.presences));
  // Members see everyone.
  const member = assertSuccess(await server.as('cordelia').post('/register', { fetch_event_types: ['user_status'] }));
  assert.equal(member.user_status[hamlet.id].status_text, STATUS);
});

test('the user_status events of the same changes reach only those who may access the user', async () => {
  const { cordelia } = server.users;
  const l = await Listeners.open(server, ['polonius', 'cordelia'], { event_types: ['user_status'] });
  assertSuccess(await server.as('hamlet').post('/users/me/status', { status_text: `${STATUS}!` }));
  assertSuccess(await server.as('cordelia').post('/users/me/status', { status_text: 'Writing' }));
  await l.waitFor('cordelia', 'user_status');
  const got = await l.take('polonius', 'user_status');
  assert.deepEqual(got.map((e) => e.user_id), [cordelia.id]);
});

// Every user-naming or user-returning endpoint of the route list, as the restricted guest, aimed at hamlet.
type Probe = (guest: ReturnType<TestServer['as']>) => Promise<Reply>;
const USER_PARAMS = new Set(['user_id', 'user_id_or_email', 'to', 'principals', 'members', 'add', 'delete', 'bot_owner_id', 'target_users']);
const USER_DATA = new Set([
  'GET /api/v1/users', 'GET /api/v1/users/me', 'POST /api/v1/register', 'GET /api/v1/events', 'GET /api/v1/messages',
  'GET /api/v1/messages/{message_id}', 'GET /api/v1/messages/{message_id}/history', 'GET /api/v1/realm/presence',
  'POST /api/v1/users/me/presence', 'GET /api/v1/streams/{stream_id}/members', 'GET /api/v1/user_groups',
  'GET /api/v1/user_groups/{user_group_id}/members', 'GET /api/v1/users/me/subscriptions', 'POST /api/v1/messages/{message_id}/reactions',
]);
// [probe, the reference's error where the guest acts on hamlet (null: answered, but nothing of hamlet shown)]
function probes(): Record<string, [Probe, string | null]> {
  const { hamlet, bot } = server.users;
  const later = Math.floor(Date.now() / 1000) + 3600;
  return {
    'GET /api/v1/users': [(g) => g.get('/users'), null],
    'GET /api/v1/users/me': [(g) => g.get('/users/me'), null],
    'GET /api/v1/users/{user_id}': [(g) => g.get(`/users/${hamlet.id}`), 'Insufficient permission'],
    'POST /api/v1/register': [(g) => g.post('/register', {}), null],
    'GET /api/v1/events': [async (g) => g.get('/events', { queue_id: assertSuccess(await g.post('/register', { fetch_event_types: [] })).queue_id, last_event_id: -1, dont_block: true }), null],
    'GET /api/v1/messages': [(g) => g.get('/messages', { anchor: 'newest', num_before: 50, num_after: 0 }), null],
    'GET /api/v1/messages/{message_id}': [(g) => g.get(`/messages/${hamletMessage}`), null],
    'GET /api/v1/messages/{message_id}/history': [(g) => g.get(`/messages/${hamletMessage}/history`), null],
    'GET /api/v1/realm/presence': [(g) => g.get('/realm/presence'), null],
    'POST /api/v1/users/me/presence': [(g) => g.post('/users/me/presence', { status: 'active' }), null],
    'GET /api/v1/users/{user_id}/presence': [(g) => g.get(`/users/${hamlet.id}/presence`), 'Insufficient permission'],
    'GET /api/v1/streams/{stream_id}/members': [(g) => g.get(`/streams/${open}/members`), null],
    'GET /api/v1/user_groups': [(g) => g.get('/user_groups'), null],
    'GET /api/v1/user_groups/{user_group_id}/members': [(g) => g.get(`/user_groups/${membersGroup}/members`), null],
    'GET /api/v1/user_groups/{user_group_id}/members/{user_id}': [(g) => g.get(`/user_groups/${membersGroup}/members/${hamlet.id}`), 'Insufficient permission'],
    'GET /api/v1/users/me/subscriptions': [(g) => g.get('/users/me/subscriptions', { include_subscribers: true }), null],
    'POST /api/v1/messages/{message_id}/reactions': [(g) => g.post(`/messages/${hamletMessage}/reactions`, { emoji_name: 'tada' }), null],
    'POST /api/v1/messages': [(g) => g.post('/messages', { type: 'direct', to: [hamlet.id], content: 'x' }), DENIED],
    'POST /api/v1/scheduled_messages': [(g) => g.post('/scheduled_messages', { type: 'direct', to: [hamlet.id], content: 'x', scheduled_delivery_timestamp: later }), DENIED],
    'PATCH /api/v1/scheduled_messages/{scheduled_message_id}': [async (g) => {
      const id = assertSuccess(await g.post('/scheduled_messages', { type: 'direct', to: [server.users.cordelia.id], content: 'x', scheduled_delivery_timestamp: later })).scheduled_message_id;
      return g.patch(`/scheduled_messages/${id}`, { type: 'direct', to: [hamlet.id] });
    }, DENIED],
    'POST /api/v1/typing': [(g) => g.post('/typing', { op: 'start', to: [hamlet.id] }), DENIED],
    'GET /api/v1/avatar/{user_id_or_email}': [(g) => g.get(`/avatar/${hamlet.id}`), null],
    'GET /api/v1/avatar/{user_id_or_email}/medium': [(g) => g.get(`/avatar/${hamlet.id}/medium`), null],
    'GET /avatar/{user_id_or_email}': [(g) => g.get(`/avatar/${hamlet.id}`, {}, { root: true }), null],
    'GET /avatar/{user_id_or_email}/medium': [(g) => g.get(`/avatar/${hamlet.id}/medium`, {}, { root: true }), null],
    // Refused to guests whoever the user: they still learn nothing.
    'POST /api/v1/users/me/subscriptions': [(g) => g.post('/users/me/subscriptions', { subscriptions: [{ name: openName }], principals: [hamlet.id] }), null],
    'DELETE /api/v1/users/me/subscriptions': [(g) => g.delete('/users/me/subscriptions', { subscriptions: [openName], principals: [hamlet.id] }), null],
    'PATCH /api/v1/users/me/subscriptions': [(g) => g.patch('/users/me/subscriptions', { add: [{ name: openName }], principals: [hamlet.id] }), null],
    'POST /api/v1/user_groups/create': [(g) => g.post('/user_groups/create', { name: 'g', description: 'd', members: [hamlet.id] }), null],
    'POST /api/v1/user_groups/{user_group_id}/members': [(g) => g.post(`/user_groups/${membersGroup}/members`, { add: [hamlet.id] }), null],
    'POST /api/v1/user_groups/{user_group_id}/subgroups': [(g) => g.post(`/user_groups/${membersGroup}/subgroups`, { add: [membersGroup] }), null],
    'PATCH /api/v1/users/{user_id}': [(g) => g.patch(`/users/${hamlet.id}`, { full_name: 'x' }), null],
    'DELETE /api/v1/users/{user_id}': [(g) => g.delete(`/users/${hamlet.id}`), null],
    'POST /api/v1/users/{user_id}/reactivate': [(g) => g.post(`/users/${hamlet.id}/reactivate`), null],
    'PATCH /api/v1/bots/{bot_id}': [(g) => g.patch(`/bots/${bot.id}`, { bot_owner_id: hamlet.id }), null],
    'PATCH /api/v1/settings': [(g) => g.patch('/settings', { target_users: [hamlet.id], timezone: 'UTC' }), null],
    'PATCH /api/v1/settings/display': [(g) => g.patch('/settings/display', { target_users: [hamlet.id], timezone: 'UTC' }), null],
    'PATCH /api/v1/settings/notifications': [(g) => g.patch('/settings/notifications', { target_users: [hamlet.id], timezone: 'UTC' }), null],
  };
}

test('restricted-guest column: every endpoint that names or returns users, from the route list', async () => {
  const table = probes();
  const relevant = allRoutes()
    .map((r) => ({ key: `${r.method} ${fullPath(r)}`, params: Object.keys((r as { params?: object }).params ?? {}) }))
    .filter((r) => USER_DATA.has(r.key) || r.params.some((p) => USER_PARAMS.has(p)))
    .map((r) => r.key);
  assert.deepEqual([...new Set(relevant)].filter((k) => !(k in table)), [], 'add a probe for these endpoints');
  const failures: string[] = [];
  for (const [key, [probe, error]] of Object.entries(table)) {
    const reply = await probe(server.as('polonius'));
    const leaked = leaks(reply.text + JSON.stringify(reply.headers.location ?? ''));
    if (leaked) failures.push(`${key}: shows ${leaked}`);
    if (error && (reply.status !== 400 || reply.body?.msg !== error)) failures.push(`${key}: expected "${error}", got ${reply.status} ${reply.text.slice(0, 200)}`);
    if (!error && reply.status >= 500) failures.push(`${key}: ${reply.status}`);
  }
  assert.deepEqual(failures, []);
});

test('every event and register block a restricted guest gets leaves out users they may not access', async () => {
  const l = await Listeners.open(server, ['polonius'], { client_capabilities: { stream_typing_notifications: true } });
  const hamlet = server.as('hamlet');
  // Everything hamlet does that others hear of.
  await sendToChannel(server, 'hamlet', open, 'greetings', 'Another word');
  assertSuccess(await hamlet.patch(`/messages/${hamletMessage}`, { content: 'An edited word' }));
  assertSuccess(await hamlet.post(`/messages/${cordeliaMessage}/reactions`, { emoji_name: 'heart' }));
  assertSuccess(await hamlet.delete(`/messages/${cordeliaMessage}/reactions`, { emoji_name: 'heart' }));
  assertSuccess(await hamlet.post('/typing', { op: 'start', type: 'stream', stream_id: open, topic: 'greetings' }));
  assertSuccess(await hamlet.post('/users/me/status', { status_text: STATUS, emoji_name: 'car' }));
  assertSuccess(await hamlet.patch('/settings', { timezone: 'Asia/Tokyo', presence_enabled: false }));
  assertSuccess(await hamlet.patch('/settings', { presence_enabled: true }));
  assertSuccess(await hamlet.post('/users/me/presence', { status: 'idle' }));
  assertSuccess(await server.as('iago').patch(`/users/${server.users.hamlet.id}`, { full_name: 'King Hamlet the Elder' }));
  assertSuccess(await server.as('iago').patch(`/users/${server.users.hamlet.id}`, { full_name: server.users.hamlet.fullName }));
  await sendToChannel(server, 'cordelia', open, 'greetings', 'Still here');
  const events = await takeThrough(l, 'polonius', 'message');
  assert.ok(events.length >= 2);
  assert.equal(leaks(JSON.stringify(events)), null, JSON.stringify(events));

  const reg = assertSuccess(await server.as('polonius').post('/register', { client_capabilities: { user_list_incomplete: false } }));
  assert.equal(leaks(JSON.stringify(reg)), null);
});

test('spectators of a web-public organization get no role-group membership', async () => {
  await setRealmSettings(server, { enable_spectator_access: true });
  const reg = assertSuccess(await server.anon().post('/register', { fetch_event_types: ['realm_user_groups', 'realm_user'] }));
  assert.deepEqual(reg.realm_users, []);
  for (const g of reg.realm_user_groups as { members: number[]; name: string }[]) assert.deepEqual(g.members, [], g.name);
  await setRealmSettings(server, { enable_spectator_access: undefined });
});

// Last: the guest's own text names hamlet, which the leak checks above would take for a leak.
test('a restricted guest cannot mention a user they may not access: the mention stays text', async () => {
  const { hamlet, cordelia } = server.users;
  const id = await sendToChannel(server, 'polonius', open, 'mentions', `@**${hamlet.fullName}** @**|${hamlet.id}** @**${cordelia.fullName}**`);
  const html = assertSuccess(await server.as('cordelia').get(`/messages/${id}`)).message.content as string;
  assert.ok(!html.includes(`data-user-id="${hamlet.id}"`), html);
  assert.ok(html.includes(`data-user-id="${cordelia.id}"`), html);
  const byMember = await sendToChannel(server, 'cordelia', open, 'mentions', `@**${hamlet.fullName}**`);
  assert.ok((assertSuccess(await server.as('cordelia').get(`/messages/${byMember}`)).message.content as string).includes(`data-user-id="${hamlet.id}"`));
});
