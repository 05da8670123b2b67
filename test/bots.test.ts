// Bots: POST/GET /bots, PATCH and DELETE /bots/{bot_id}, API key regeneration, realm_bot events to the bot's
// owner and administrators, realm_user events to everyone, and the realm_bot register blocks.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type SeedName, type TestServer } from './helpers/server.js';
import { assertError, assertSuccess } from './helpers/assertions.js';
import { validateRegisterResponse } from './helpers/openapi-register.js';
import { Listeners } from './helpers/events.js';
import { createChannel, channelName, takeUntil } from './helpers/messages.js';
import { setRealmSettings } from './helpers/direct-db.js';
import { Client, type ParamValue } from './helpers/client.js';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server?.close());

const ADMINS: SeedName[] = ['iago', 'desdemona'];
const OTHERS: SeedName[] = ['cordelia', 'shiva', 'polonius'];
const realmBots = async (who: SeedName) => {
  const reg = assertSuccess(await server.as(who).post('/register', { fetch_event_types: ['realm_bot', 'realm_embedded_bots', 'realm_incoming_webhook_bots'] }));
  // The relaxed schema cannot tell the two service forms apart (oneOf without additionalProperties), so services
  // are checked by the tests themselves.
  assert.deepEqual(validateRegisterResponse({ ...reg, realm_bots: reg.realm_bots.map((b: object) => ({ ...b, services: [] })) }), []);
  return reg;
};
// Everything a queue received, by type (Listeners.take acknowledges all events, whatever it returns).
const byType = async (l: Listeners, who: SeedName) => {
  const out: Record<string, Record<string, any>[]> = {};
  for (const e of await l.take(who)) (out[e.type] ??= []).push(e);
  return out;
};
const botClient = (email: string, apiKey: string) => new Client(server.url, { email, apiKey });

let generic: { id: number; email: string; apiKey: string };

test('a member creates a generic bot: realm_user to everyone, realm_bot to its owner and the administrators', async () => {
  const l = await Listeners.open(server, ['hamlet', ...ADMINS, ...OTHERS, 'lear'], { event_types: ['realm_bot', 'realm_user'] });
  const channel = await channelName(server, await createChannel(server, 'hamlet', ['hamlet']));
  const res = assertSuccess(await server.as('hamlet').post('/bots', { full_name: 'Hamlet Helper', short_name: 'helper', default_sending_stream: channel, default_all_public_streams: true }));
  assert.deepEqual(Object.keys(res).sort(), ['api_key', 'avatar_url', 'default_all_public_streams', 'default_events_register_stream', 'default_sending_stream', 'msg', 'result', 'user_id']);
  assert.deepEqual([res.default_sending_stream, res.default_events_register_stream, res.default_all_public_streams], [channel, null, true]);
  const email = 'helper-bot@127.0.0.1';
  generic = { id: res.user_id, email, apiKey: res.api_key };

  const hamletEvents = await takeUntil(l, 'hamlet', '', (e) => e.type === 'realm_bot');
  const [added] = hamletEvents.filter((e) => e.type === 'realm_bot' && e.op === 'add');
  assert.deepEqual(added.bot, {
    email, user_id: res.user_id, full_name: 'Hamlet Helper', bot_type: 1, is_active: true, api_key: res.api_key, default_sending_stream: channel,
    default_events_register_stream: null, default_all_public_streams: true, owner_id: server.users.hamlet.id, avatar_url: res.avatar_url, services: [],
  });
  const received = new Map<SeedName, Record<string, Record<string, any>[]>>([['hamlet', { realm_user: hamletEvents.filter((e) => e.type === 'realm_user') }]]);
  for (const name of [...ADMINS, ...OTHERS]) received.set(name, await byType(l, name));
  for (const name of ADMINS) assert.deepEqual(received.get(name)!.realm_bot.map((e) => e.bot.user_id), [res.user_id], name);
  for (const name of OTHERS) assert.equal(received.get(name)!.realm_bot, undefined, name);
  for (const name of ['hamlet', ...ADMINS, ...OTHERS] as SeedName[]) {
    const people = received.get(name)!.realm_user.filter((e) => e.op === 'add').map((e) => e.person);
    assert.equal(people.length, 1, name);
    assert.deepEqual([people[0].user_id, people[0].is_bot, people[0].bot_type, people[0].bot_owner_id, people[0].email], [res.user_id, true, 1, server.users.hamlet.id, email]);
    assert.ok(!('api_key' in people[0]));
  }
  assert.deepEqual(await l.take('lear'), []);

  // The bot works with its key.
  const me = assertSuccess(await botClient(email, res.api_key).get('/users/me'));
  assert.deepEqual([me.user_id, me.is_bot, me.full_name], [res.user_id, true, 'Hamlet Helper']);
});

test('GET /bots lists the caller\'s active bots; the register blocks agree with the events', async () => {
  const hamlet = assertSuccess(await server.as('hamlet').get('/bots'));
  assert.deepEqual(hamlet.bots.map((b: { username: string }) => b.username), [generic.email]);
  assert.deepEqual(Object.keys(hamlet.bots[0]).sort(), ['api_key', 'avatar_url', 'default_all_public_streams', 'default_events_register_stream', 'default_sending_stream', 'full_name', 'username']);
  // As in the reference server, an administrator's GET /bots lists their own bots only.
  assert.deepEqual(assertSuccess(await server.as('iago').get('/bots')).bots, []);

  const own = await realmBots('hamlet');
  assert.deepEqual(own.realm_bots.map((b: { user_id: number }) => b.user_id), [generic.id]);
  assert.deepEqual(own.realm_embedded_bots, []);
  assert.deepEqual(own.realm_incoming_webhook_bots, []);
  // Administrators hold every owned bot (the seeded one belongs to the owner); the server's own bots are not listed.
  const all = (await realmBots('iago')).realm_bots.map((b: { user_id: number }) => b.user_id);
  assert.deepEqual(all.sort(), [server.users.bot.id, generic.id].sort());
  assert.deepEqual((await realmBots('cordelia')).realm_bots, []);
  assert.deepEqual((await realmBots('polonius')).realm_bots, []);
});

test('bot creation is validated', async () => {
  const hamlet = server.as('hamlet');
  const cases: [Record<string, ParamValue>, string][] = [
    [{ full_name: 'Blank', short_name: '  ' }, 'Bad name or username'],
    [{ full_name: 'Spacey', short_name: 'has space' }, 'Bad name or username'],
    [{ full_name: 'Other Helper', short_name: 'helper' }, 'Username already in use'],
    [{ full_name: 'Hamlet Helper', short_name: 'helper2' }, 'Name is already in use!'],
    [{ full_name: 'King Hamlet', short_name: 'king' }, 'Name is already in use!'],
    [{ full_name: 'x'.repeat(101), short_name: 'long' }, 'Name too long!'],
    [{ full_name: 'Embedded', short_name: 'embedded', bot_type: 4, service_name: 'converter' }, 'Embedded bots are not enabled.'],
    [{ full_name: 'Odd', short_name: 'odd', bot_type: 5 }, 'Invalid bot type'],
    [{ full_name: 'Odd', short_name: 'odd', bot_type: 3, interface_type: 3 }, 'Invalid interface type'],
    [{ full_name: 'Hook', short_name: 'hook', bot_type: 2, service_name: 'github' }, "Invalid integration 'github'."],
    [{ full_name: 'Out', short_name: 'out', bot_type: 3, payload_url: 'not a url' }, 'payload_url is not a URL'],
    [{ full_name: 'Lost', short_name: 'lost', default_sending_stream: 'no such channel' }, "Invalid channel name 'no such channel'"],
  ];
  for (const [params, msg] of cases) assertError(await hamlet.post('/bots', params), 400, 'BAD_REQUEST', msg);
  // A private channel the owner cannot read is no default channel.
  const secret = await channelName(server, await createChannel(server, 'iago', ['iago'], { invite_only: true }));
  assertError(await hamlet.post('/bots', { full_name: 'Spy', short_name: 'spy', default_events_register_stream: secret }), 400, 'BAD_REQUEST', `Invalid channel name '${secret}'`);
  assertError(await hamlet.post('/bots', { short_name: 'nameless' }), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'full_name' argument");
  assertError(await server.as('polonius').post('/bots', { full_name: 'Guest Bot', short_name: 'guest' }), 400, 'BAD_REQUEST', 'Not allowed for guest users');
  assertError(await server.as('bot').post('/bots', { full_name: 'Bot Bot', short_name: 'botbot' }), 400, 'BAD_REQUEST', 'This endpoint does not accept bot requests.');
  assertError(await server.as('bot').get('/bots'), 400, 'BAD_REQUEST', 'This endpoint does not accept bot requests.');
  assert.deepEqual(assertSuccess(await hamlet.get('/bots')).bots.length, 1, 'nothing was created');
});

test('can_create_bots_group and can_create_write_only_bots_group decide who creates which bots', async () => {
  await setRealmSettings(server, { can_create_bots_group: 'role:administrators', can_create_write_only_bots_group: 'role:moderators' });
  try {
    assertError(await server.as('cordelia').post('/bots', { full_name: 'C Hook', short_name: 'chook', bot_type: 2 }), 400, 'BAD_REQUEST', 'Insufficient permission');
    assertError(await server.as('shiva').post('/bots', { full_name: 'S Bot', short_name: 'sbot', bot_type: 1 }), 400, 'BAD_REQUEST', 'Invalid bot type');
    assertError(await server.as('shiva').post('/bots', { full_name: 'S Out', short_name: 'sout', bot_type: 3 }), 400, 'BAD_REQUEST', 'Invalid bot type');
    const hook = assertSuccess(await server.as('shiva').post('/bots', { full_name: 'S Hook', short_name: 'shook', bot_type: 2 }));
    assert.equal(assertSuccess(await server.as('shiva').get(`/users/${hook.user_id}`)).user.bot_type, 2);
    for (const type of [1, 2, 3]) assertSuccess(await server.as('iago').post('/bots', { full_name: `Admin Bot ${type}`, short_name: `admin${type}`, bot_type: type }));
  } finally {
    await setRealmSettings(server, { can_create_bots_group: undefined, can_create_write_only_bots_group: undefined });
  }
});

test('outgoing webhook bots keep their service; changes reach the bot administrators', async () => {
  const res = assertSuccess(await server.as('cordelia').post('/bots', {
    full_name: 'Cordelia Hook', short_name: 'cordhook', bot_type: 3, payload_url: JSON.stringify('https://hooks.example.com/in'), interface_type: 2,
  }));
  const [record] = (await realmBots('cordelia')).realm_bots;
  assert.equal(record.user_id, res.user_id);
  assert.equal(record.services.length, 1);
  assert.deepEqual([record.services[0].base_url, record.services[0].interface], ['https://hooks.example.com/in', 2]);
  assert.match(record.services[0].token, /^\S{32}$/);

  const l = await Listeners.open(server, ['cordelia', 'iago', 'hamlet'], { event_types: ['realm_bot'] });
  assertSuccess(await server.as('cordelia').patch(`/bots/${res.user_id}`, { service_payload_url: JSON.stringify('https://hooks.example.com/v2'), service_interface: 1 }));
  const [event] = await takeUntil(l, 'cordelia', 'realm_bot');
  assert.deepEqual(event.bot, { user_id: res.user_id, services: [{ base_url: 'https://hooks.example.com/v2', interface: 1, token: record.services[0].token }] });
  assert.equal((await l.take('iago', 'realm_bot')).length, 1);
  assert.deepEqual(await l.take('hamlet'), []);
  assertError(await server.as('cordelia').patch(`/bots/${res.user_id}`, { service_payload_url: 'nope' }), 400, 'BAD_REQUEST', 'service_payload_url is not a URL');
  assertError(await server.as('cordelia').patch(`/bots/${res.user_id}`, { service_payload_url: 'https://x.example.com', service_interface: 7 }), 400, 'BAD_REQUEST', 'Invalid interface type');
  assertError(await server.as('hamlet').patch(`/bots/${generic.id}`, { service_payload_url: 'https://x.example.com' }), 400, 'BAD_REQUEST', 'Only outgoing webhook bots have a payload URL');
});

test('PATCH /bots/{bot_id}: name, defaults and owner; only the owner and administrators', async () => {
  const l = await Listeners.open(server, ['hamlet', 'cordelia', 'iago', 'shiva'], { event_types: ['realm_bot', 'realm_user'] });
  const channel = await channelName(server, await createChannel(server, 'hamlet', ['hamlet', 'cordelia']));
  const res = assertSuccess(await server.as('hamlet').patch(`/bots/${generic.id}`, {
    full_name: 'Helper Two', default_events_register_stream: channel, default_sending_stream: '', default_all_public_streams: false,
  }));
  assert.deepEqual([res.full_name, res.default_sending_stream, res.default_events_register_stream, res.default_all_public_streams, res.bot_owner],
    ['Helper Two', null, channel, false, server.users.hamlet.email]);
  const botEvents = (await takeUntil(l, 'hamlet', '', (e) => e.type === 'realm_bot' && 'default_all_public_streams' in e.bot)).filter((e) => e.type === 'realm_bot');
  assert.deepEqual(botEvents.map((e) => e.bot), [
    { user_id: generic.id, full_name: 'Helper Two' },
    { user_id: generic.id, default_sending_stream: null },
    { user_id: generic.id, default_events_register_stream: channel },
    { user_id: generic.id, default_all_public_streams: false },
  ]);
  assert.equal((await l.take('iago', 'realm_bot')).length, 4);
  const shiva = await byType(l, 'shiva');
  assert.equal(shiva.realm_bot, undefined);
  assert.ok(shiva.realm_user.some((e) => e.person.full_name === 'Helper Two'), 'the name is public');

  // A new owner who is not an administrator gets the bot added; the old one gets it deleted; administrators an update.
  await l.clear();
  assertSuccess(await server.as('iago').patch(`/bots/${generic.id}`, { bot_owner_id: server.users.cordelia.id }));
  const ops = async (who: SeedName) => (await takeUntil(l, who, '', (e) => e.type === 'realm_bot')).filter((e) => e.type === 'realm_bot').map((e) => [e.op, e.bot.owner_id ?? null]);
  assert.deepEqual(await ops('hamlet'), [['delete', null]]);
  assert.deepEqual(await ops('cordelia'), [['add', server.users.cordelia.id]]);
  assert.deepEqual(await ops('iago'), [['update', server.users.cordelia.id]]);
  assert.ok((await l.take('shiva', 'realm_user')).some((e) => e.person.bot_owner_id === server.users.cordelia.id));
  assert.deepEqual((await realmBots('cordelia')).realm_bots.map((b: { user_id: number }) => b.user_id).includes(generic.id), true);
  assert.deepEqual((await realmBots('hamlet')).realm_bots, []);

  const errors: [SeedName, Record<string, ParamValue>, string][] = [
    ['hamlet', { full_name: 'Mine again' }, 'Insufficient permission'],
    ['shiva', { full_name: 'Moderated' }, 'Insufficient permission'],
    ['cordelia', { bot_owner_id: 999999 }, 'Failed to change owner, no such user'],
    ['cordelia', { bot_owner_id: server.users.bot.id }, "Failed to change owner, bots can't own other bots"],
    ['cordelia', { full_name: 'Iago' }, 'Name is already in use!'],
    ['cordelia', { default_sending_stream: 'nowhere' }, "Invalid channel name 'nowhere'"],
    ['cordelia', { role: 200 }, 'Must be an organization administrator'],
  ];
  for (const [who, params, msg] of errors) assertError(await server.as(who).patch(`/bots/${generic.id}`, params), 400, msg.startsWith('Must') ? 'UNAUTHORIZED_PRINCIPAL' : 'BAD_REQUEST', msg);
  assertError(await server.as('iago').patch(`/bots/${server.users.hamlet.id}`, { full_name: 'x' }), 400, 'BAD_REQUEST', 'No such bot');
  assertError(await server.as('iago').patch('/bots/999999', { full_name: 'x' }), 400, 'BAD_REQUEST', 'No such bot');
  assertError(await server.as('polonius').patch(`/bots/${generic.id}`, { full_name: 'x' }), 400, 'BAD_REQUEST', 'Not allowed for guest users');
  // Administrators change a bot's role (to one not above its owner's, who keeps its key: see security-bots.test.ts).
  assertSuccess(await server.as('iago').patch(`/bots/${generic.id}`, { role: 600 }));
  assert.equal(assertSuccess(await server.as('hamlet').get(`/users/${generic.id}`)).user.role, 600);
});

test('regenerating the API key: the old key stops working; only bot administrators learn the new one', async () => {
  const l = await Listeners.open(server, ['cordelia', 'iago', 'hamlet'], { event_types: ['realm_bot'] });
  const { api_key } = assertSuccess(await server.as('cordelia').post(`/bots/${generic.id}/api_key/regenerate`));
  assert.notEqual(api_key, generic.apiKey);
  assert.equal((await botClient(generic.email, generic.apiKey).get('/users/me')).status, 401);
  assertSuccess(await botClient(generic.email, api_key).get('/users/me'));
  const [event] = await takeUntil(l, 'cordelia', 'realm_bot');
  assert.deepEqual(event.bot, { user_id: generic.id, api_key });
  assert.equal((await l.take('iago', 'realm_bot')).length, 1);
  assert.deepEqual(await l.take('hamlet'), []);
  assertError(await server.as('hamlet').post(`/bots/${generic.id}/api_key/regenerate`), 400, 'BAD_REQUEST', 'Insufficient permission');
  generic.apiKey = api_key;
});

test('DELETE /bots/{bot_id} deactivates; deactivating an owner deactivates their bots; reactivation', async () => {
  const l = await Listeners.open(server, ['cordelia', 'iago', 'shiva'], { event_types: ['realm_bot', 'realm_user'] });
  assertError(await server.as('shiva').delete(`/bots/${generic.id}`), 400, 'BAD_REQUEST', 'Insufficient permission');
  assertSuccess(await server.as('cordelia').delete(`/bots/${generic.id}`));
  const events = await takeUntil(l, 'cordelia', '', (e) => e.type === 'realm_bot');
  assert.deepEqual(events.map((e) => [e.type, e.op, e.person ?? e.bot]), [
    ['realm_user', 'update', { user_id: generic.id, is_active: false }],
    ['realm_bot', 'update', { user_id: generic.id, is_active: false }],
  ]);
  assert.deepEqual((await l.take('shiva')).map((e) => e.type), ['realm_user']);
  assertError(await botClient(generic.email, generic.apiKey).get('/users/me'), 401, 'USER_DEACTIVATED', 'Account is deactivated');
  assert.ok(!assertSuccess(await server.as('cordelia').get('/bots')).bots.some((b: { username: string }) => b.username === generic.email));
  const record = (await realmBots('cordelia')).realm_bots.find((b: { user_id: number }) => b.user_id === generic.id);
  assert.equal(record.is_active, false, 'deactivated bots stay in the register block');
  assertError(await server.as('cordelia').delete(`/bots/${generic.id}`), 400, 'BAD_REQUEST', 'User is already deactivated');

  assertSuccess(await server.as('iago').post(`/users/${generic.id}/reactivate`));
  const back = await takeUntil(l, 'cordelia', 'realm_bot');
  assert.deepEqual(back.map((e) => e.bot), [{ user_id: generic.id, is_active: true }]);

  // Cordelia leaves: her bots go with her.
  await l.clear();
  assertSuccess(await server.as('iago').delete(`/users/${server.users.cordelia.id}`));
  const gone = (await takeUntil(l, 'iago', 'realm_user', (e) => e.person.user_id === generic.id)).map((e) => e.person);
  assert.ok(gone.some((p) => p.user_id === server.users.cordelia.id && p.is_active === false));
  assert.ok(gone.some((p) => p.user_id === generic.id && p.is_active === false));
  assertSuccess(await server.as('iago').post(`/users/${server.users.cordelia.id}/reactivate`));
});
