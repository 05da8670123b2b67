// Bulk requests (issue 23): every endpoint that takes a list is held to a stated bound — a request at the bound
// succeeds, one beyond it is a 400 naming the bound (never a 500) — and while a maximal request runs the server
// keeps answering others. Probes (GET /users/me from another user, and GET /server_settings, which needs no
// database) are sent one after another for as long as the bulk request runs: all must be answered, and for the
// heavy requests one must be answered before the bulk request finishes, which only happens if its work hands the
// event loop back as it goes. Waits are logged, never asserted.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { Client, type Reply } from './helpers/client.js';
import { assertError, assertSuccess } from './helpers/assertions.js';
import { bulkMessages, bulkUsers, withServerApp } from '../bench/seed.js';
import { streamRecipient } from '../src/store/messages.js';

const ENV = { PARLANCE_RATE_LIMIT: '1000000', PARLANCE_RATE_LIMIT_IP: '1000000', PARLANCE_CHANNEL_CREATION_LIMIT: '150' };
const MANY_USERS = 1000;

let server: TestServer;
let users: { id: number; email: string; apiKey: string }[];
before(async () => {
  server = await startTestServer({ env: ENV });
  users = await withServerApp(server, (app, realm) => bulkUsers(app, realm, MANY_USERS, 'bulk'));
});
after(() => server?.close());

const range = (n: number) => Array.from({ length: n }, (_, i) => i);
const names = (prefix: string, n: number) => range(n).map((i) => `${prefix} ${i}`);

// Runs `bulk` while two probes are sent again and again until it finishes: GET /users/me as another user (which
// reads the database) and GET /server_settings (which does not, so it is answered whenever the event loop is free,
// even while a SQLite transaction runs). Every probe must succeed; how many were answered before the bulk request
// finished, and their longest wait, are logged.
async function underProbes(label: string, target: TestServer, bulk: () => Promise<Reply>): Promise<{ reply: Reply }> {
  const me = () => target.as('cordelia').get('/users/me');
  const settings = () => target.anon().get('/server_settings');
  assertSuccess(await me()); // the paths the probes take are warm before the bulk request starts
  assertSuccess(await settings());
  let finished = 0;
  const started = performance.now();
  const running = bulk().then((reply) => {
    finished = performance.now();
    return reply;
  });
  const probe = async (send: () => Promise<Reply>) => {
    const stats = { answered: 0, before: 0, longest: 0 };
    do {
      const sent = performance.now();
      assertSuccess(await send());
      stats.longest = Math.max(stats.longest, performance.now() - sent);
      stats.answered++;
      if (!finished) stats.before++;
    } while (!finished);
    return stats;
  };
  const [user, loop] = await Promise.all([probe(me), probe(settings)]);
  const reply = await running;
  console.log(`${label}: ${reply.status} in ${(finished - started).toFixed(0)} ms; GET /users/me answered ${user.answered} times (${user.before} before it, ` +
    `longest wait ${user.longest.toFixed(0)} ms), GET /server_settings ${loop.answered} times (${loop.before} before it, longest wait ${loop.longest.toFixed(0)} ms)`);
  // Whether a probe was answered before the bulk request ended depends on the machine's load: logged, not asserted
  // (no timed assertions in tests; B11 and the event-loop monitor measure it).
  return { reply };
}

test('channels: at most 100 created by one request, 1000 named, 1000 principals, 10,000 subscriptions; 400 beyond', async () => {
  const iago = server.as('iago');
  const heavy = await underProbes('create 100 channels', server, () => iago.post('/users/me/subscriptions', { subscriptions: names('Made', 100).map((name) => ({ name })) }));
  assert.equal(heavy.reply.status, 200, heavy.reply.text);
  assert.equal(heavy.reply.body.subscribed[server.users.iago.id].length, 100);
  assertError(await iago.post('/users/me/subscriptions', { subscriptions: names('Too', 101).map((name) => ({ name })) }), 400, 'BAD_REQUEST',
    'Too many new channels in one request: 101 (limit: 100)');
  // Existing channels do not count as created.
  assertSuccess(await iago.post('/users/me/subscriptions', { subscriptions: [...names('Made', 100), 'Made 100'].map((name) => ({ name })) }));
  assertError(await iago.post('/users/me/subscriptions', { subscriptions: names('Named', 1001).map((name) => ({ name })) }), 400, 'BAD_REQUEST',
    'subscriptions has too many items (limit: 1000)');
  const principals = users.map((u) => u.id);
  const subscribed = await underProbes('subscribe 1000 users to 10 channels', server, () =>
    iago.post('/users/me/subscriptions', { subscriptions: names('Made', 10).map((name) => ({ name })), principals }));
  assert.equal(subscribed.reply.status, 200, subscribed.reply.text);
  assert.equal(Object.keys(subscribed.reply.body.subscribed).length, MANY_USERS);
  assertError(await iago.post('/users/me/subscriptions', { subscriptions: names('Made', 11).map((name) => ({ name })), principals }), 400, 'BAD_REQUEST',
    'Too many subscriptions in one request: 1000 users × 11 channels (limit: 10000)');
  assertError(await iago.post('/users/me/subscriptions', { subscriptions: [{ name: 'Made 0' }], principals: [...principals, server.users.hamlet.id] }), 400, 'BAD_REQUEST',
    'principals has too many items (limit: 1000)');
  assertError(await iago.patch('/users/me/subscriptions', { add: [{ name: 'Made 0' }], delete: names('Made', 11), principals }), 400, 'BAD_REQUEST',
    'Too many subscriptions in one request: 1000 users × 11 channels (limit: 10000)');
  const left = await underProbes('unsubscribe 1000 users from 10 channels', server, () => iago.delete('/users/me/subscriptions', { subscriptions: names('Made', 10), principals }));
  assert.equal(left.reply.status, 200, left.reply.text);
  assert.deepEqual(left.reply.body.removed, names('Made', 10));
  assertError(await iago.delete('/users/me/subscriptions', { subscriptions: names('Made', 11), principals }), 400, 'BAD_REQUEST',
    'Too many subscriptions in one request: 1000 users × 11 channels (limit: 10000)');
});

test('channel creation is rate-limited per user (PARLANCE_CHANNEL_CREATION_LIMIT an hour); a refused or failed request takes nothing', async () => {
  const shiva = server.as('shiva');
  assertSuccess(await server.as('iago').post('/users/me/subscriptions', { subscriptions: [{ name: 'Secret' }], invite_only: true }));
  assertSuccess(await shiva.post('/users/me/subscriptions', { subscriptions: names('Shiva A', 100).map((name) => ({ name })) }));
  const refused = await shiva.post('/users/me/subscriptions', { subscriptions: names('Shiva B', 51).map((name) => ({ name })) });
  assertError(refused, 429, 'RATE_LIMIT_HIT', /^Too many channels created: at most 150 an hour \(50 more now\); try again in \d+ seconds\.$/);
  assert.ok(refused.body['retry-after'] > 3000 && refused.body['retry-after'] <= 3600, refused.text);
  assert.match(String(refused.headers['retry-after']), /^\d+$/);
  assertError(await shiva.get('/get_stream_id', { stream: 'Shiva B 0' }), 400, 'BAD_REQUEST', "Invalid channel name 'Shiva B 0'");
  // A request that fails after counting its channels (here on a private channel it may not join) gives them back.
  assertError(await shiva.post('/users/me/subscriptions', { subscriptions: [...names('Shiva C', 50), 'Secret'].map((name) => ({ name })) }), 400, 'BAD_REQUEST',
    'Unable to access channel (Secret).');
  assertError(await shiva.get('/get_stream_id', { stream: 'Shiva C 0' }), 400, 'BAD_REQUEST', "Invalid channel name 'Shiva C 0'");
  assertSuccess(await shiva.post('/users/me/subscriptions', { subscriptions: names('Shiva E', 50).map((name) => ({ name })) }));
  assertError(await shiva.post('/users/me/subscriptions', { subscriptions: [{ name: 'Shiva F' }] }), 429, 'RATE_LIMIT_HIT', /^Too many channels created/);
  // Others have their own allowance, and subscribing to existing channels is not creating.
  assertSuccess(await server.as('hamlet').post('/users/me/subscriptions', { subscriptions: [{ name: 'Hamlet G' }, { name: 'Shiva A 0' }] }));
  assertSuccess(await shiva.post('/users/me/subscriptions', { subscriptions: [{ name: 'Hamlet G' }] }));
});

test('PATCH /settings for target users: up to 10,000, changed in slices while the server keeps answering', async () => {
  const iago = server.as('iago');
  // 10,000 ids naming 1001 users (a user named twice is changed once).
  const targets = range(10_000).map((i) => (i < MANY_USERS ? users[i].id : i % 2 ? server.users.hamlet.id : users[i % MANY_USERS].id));
  const changed = await underProbes('settings of 1001 users', server, () => iago.patch('/settings', { target_users: { user_ids: targets }, enter_sends: true }));
  assert.equal(changed.reply.status, 200, changed.reply.text);
  const hamlet = assertSuccess(await server.as('hamlet').post('/register', { fetch_event_types: ['user_settings'] }));
  assert.equal(hamlet.user_settings.enter_sends, true);
  const last = new Client(server.url, { email: users.at(-1)!.email, apiKey: users.at(-1)!.apiKey });
  assert.equal(assertSuccess(await last.post('/register', { fetch_event_types: ['user_settings'] })).user_settings.enter_sends, true);
  assertError(await iago.patch('/settings', { target_users: { user_ids: range(10_001) }, enter_sends: true }), 400, 'BAD_REQUEST', 'target_users has too many items (limit: 10000)');
  assertError(await iago.patch('/settings', { target_users: { group_ids: range(1001) }, enter_sends: true }), 400, 'BAD_REQUEST', /^target_users\.group_ids is invalid/);
});

test('user groups: 10,000 members and 1000 subgroups a request; 400 beyond', async () => {
  const iago = server.as('iago');
  const members = users.map((u) => u.id);
  // 10,000 ids naming 1000 users.
  const created = await underProbes('group of 1000 members', server, () => iago.post('/user_groups/create', { name: 'Big group', description: '', members: range(10).flatMap(() => members) }));
  const group = assertSuccess(created.reply).group_id;
  const sub = assertSuccess(await iago.post('/user_groups/create', { name: 'Small group', description: '', members: [server.users.hamlet.id] })).group_id;
  assertError(await iago.post('/user_groups/create', { name: 'Too big', description: '', members: range(10_001) }), 400, 'BAD_REQUEST', 'members has too many items (limit: 10000)');
  assertSuccess(await iago.post(`/user_groups/${group}/subgroups`, { add: range(1000).map(() => sub) }));
  assertError(await iago.post(`/user_groups/${group}/subgroups`, { delete: range(1001).map(() => sub) }), 400, 'BAD_REQUEST', 'delete has too many items (limit: 1000)');
  assertError(await iago.post('/user_groups/create', { name: 'Too many', description: '', members: [], subgroups: range(1001).map(() => sub) }), 400, 'BAD_REQUEST',
    'subgroups has too many items (limit: 1000)');
  assertSuccess((await underProbes('remove 1000 members', server, () => iago.post(`/user_groups/${group}/members`, { delete: members }))).reply);
  assertError(await iago.post(`/user_groups/${group}/members`, { add: range(10_001) }), 400, 'BAD_REQUEST', 'add has too many items (limit: 10000)');
});

test('flags on 10,000 messages at once; more is refused', async () => {
  assertSuccess(await server.as('iago').post('/users/me/subscriptions', { subscriptions: [{ name: 'Flags' }], principals: [server.users.hamlet.id] }));
  const streamId = assertSuccess(await server.as('iago').get('/get_stream_id', { stream: 'Flags' })).stream_id;
  await withServerApp(server, async (app, realm) => {
    const recipientId = await app.db.transaction().execute((tx) => streamRecipient(tx, realm.id, streamId));
    await bulkMessages(app, realm, { id: streamId, recipientId }, [server.users.hamlet.id], range(10_000).map((i) => ({ senderId: server.users.iago.id, topic: 'flags', content: `m${i}` })));
  });
  const ids = (assertSuccess(await server.as('hamlet').get('/messages', { anchor: 'newest', num_before: 5000, num_after: 0, narrow: [['channel', streamId]] })).messages as { id: number }[]).map((m) => m.id);
  const older = (assertSuccess(await server.as('hamlet').get('/messages', { anchor: ids[0], num_before: 5000, num_after: 0, include_anchor: false, narrow: [['channel', streamId]] })).messages as { id: number }[]).map((m) => m.id);
  const all = [...older, ...ids];
  assert.equal(all.length, 10_000);
  const starred = await underProbes('star 10,000 messages', server, () => server.as('hamlet').post('/messages/flags', { messages: all, op: 'add', flag: 'starred' }));
  assert.equal(assertSuccess(starred.reply).messages.length, 10_000);
  assertError(await server.as('hamlet').post('/messages/flags', { messages: [...all, 1], op: 'remove', flag: 'starred' }), 400, 'BAD_REQUEST', 'messages has too many items (limit: 10000)');
});

test('drafts, invitation links, subscription properties and profile fields: bounded per request', async () => {
  const hamlet = server.as('hamlet');
  const iago = server.as('iago');
  const draft = { type: '', to: [], topic: '', content: 'draft' };
  assert.equal(assertSuccess((await underProbes('100 drafts', server, () => hamlet.post('/drafts', { drafts: range(100).map(() => draft) }))).reply).ids.length, 100);
  assertError(await hamlet.post('/drafts', { drafts: range(101).map(() => draft) }), 400, 'BAD_REQUEST', 'drafts has too many items (limit: 100)');

  const channel = assertSuccess(await iago.get('/get_stream_id', { stream: 'Made 0' })).stream_id;
  const group = assertSuccess(await iago.post('/user_groups/create', { name: 'Invited', description: '', members: [] })).group_id;
  assertSuccess(await iago.post('/invites/multiuse', { stream_ids: range(1000).map(() => channel), group_ids: range(1000).map(() => group) }));
  assertError(await iago.post('/invites/multiuse', { stream_ids: range(1001).map(() => channel) }), 400, 'BAD_REQUEST', 'stream_ids has too many items (limit: 1000)');
  assertError(await iago.post('/invites/multiuse', { group_ids: range(1001).map(() => group) }), 400, 'BAD_REQUEST', 'group_ids has too many items (limit: 1000)');

  const property = { stream_id: channel, property: 'pin_to_top', value: true };
  assertSuccess(await iago.post('/users/me/subscriptions/properties', { subscription_data: range(1000).map(() => property) }));
  assertError(await iago.post('/users/me/subscriptions/properties', { subscription_data: range(1001).map(() => property) }), 400, 'BAD_REQUEST',
    'subscription_data has too many items (limit: 1000)');

  const choices = (n: number) => Object.fromEntries(range(n).map((i) => [String(i), { text: `choice ${i}`, order: String(i) }]));
  const field = assertSuccess(await iago.post('/realm/profile_fields', { name: 'Choice', field_type: 3, field_data: choices(1000) })).id;
  assertError(await iago.post('/realm/profile_fields', { name: 'Too many', field_type: 3, field_data: choices(1001) }), 400, 'BAD_REQUEST', 'Too many choices: 1001 (limit: 1000)');
  assertError(await iago.patch(`/realm/profile_fields/${field}`, { field_data: choices(1001) }), 400, 'BAD_REQUEST', 'Too many choices: 1001 (limit: 1000)');
  assertSuccess(await hamlet.patch('/users/me/profile_data', { data: range(1000).map((i) => ({ id: field, value: String(i) })) }));
  assertError(await hamlet.patch('/users/me/profile_data', { data: range(1001).map(() => ({ id: field, value: '1' })) }), 400, 'BAD_REQUEST', 'data has too many items (limit: 1000)');
  assertError(await hamlet.delete('/users/me/profile_data', { data: range(1001).map(() => field) }), 400, 'BAD_REQUEST', 'data has too many items (limit: 1000)');
  assertError(await iago.patch('/realm/profile_fields', { order: range(1001).map(() => field) }), 400, 'BAD_REQUEST', 'order has too many items (limit: 1000)');
  assertError(await iago.patch(`/users/${server.users.hamlet.id}`, { profile_data: range(1001).map(() => ({ id: field, value: '1' })) }), 400, 'BAD_REQUEST',
    'profile_data has too many items (limit: 1000)');
});
