// GET /users/me, GET /users, GET /users/{user_id}, GET /users/{email} and POST /users.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type SeedName, type TestServer } from './helpers/server.js';
import { Client } from './helpers/client.js';
import { assertError, assertSuccess } from './helpers/assertions.js';
import { assertMatchesSchema, referencePath } from './helpers/openapi.js';

let server: TestServer;
let started: number;
before(async () => {
  started = Math.floor(Date.now() / 1000);
  server = await startTestServer();
});
after(() => server?.close());

const REALM_USERS: SeedName[] = ['desdemona', 'iago', 'shiva', 'hamlet', 'cordelia', 'polonius', 'bot'];
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;
const USER_FIELDS = ['user_id', 'email', 'delivery_email', 'full_name', 'date_joined', 'is_active', 'is_owner', 'is_admin',
  'is_guest', 'is_bot', 'bot_type', 'role', 'timezone', 'avatar_url', 'avatar_version'];

function expectedFlags(name: SeedName) {
  const u = server.users[name];
  return {
    user_id: u.id,
    email: u.email,
    full_name: u.fullName,
    role: u.role,
    is_owner: u.role === 100,
    is_admin: u.role <= 200,
    is_guest: u.role === 600,
    is_bot: name === 'bot',
    is_active: true,
  };
}

function pick(obj: Record<string, unknown>, keys: string[]) {
  return Object.fromEntries(keys.map((k) => [k, obj[k]]));
}

function checkDateJoined(value: unknown): void {
  assert.equal(typeof value, 'string');
  assert.match(value as string, ISO);
  const t = Date.parse(value as string) / 1000;
  assert.ok(t >= started - 5 && t <= Date.now() / 1000 + 5, `date_joined ${value}`);
}

test('the schema helper rejects what the reference schema forbids', () => {
  // So that a pass below means something.
  assert.throws(() => assertMatchesSchema('/users/me', 'get', { result: 'success', msg: '', user_id: 'seven' }));
  assert.throws(() => assertMatchesSchema('/users', 'get', { result: 'success', msg: '', members: [{ role: 450 }] }));
  assert.throws(() => assertMatchesSchema('/fetch_api_key', 'post', { result: 'success', msg: '', email: 'a@b.c' }));
  assert.throws(() => assertMatchesSchema('/server_settings', 'get', { result: 'success', msg: '', zulip_feature_level: '496' }));
  assert.throws(() => assertMatchesSchema('/users/{user_id}', 'get', { result: 'success', msg: '', user: { avatar_url: 3 } }));
  // Nullable fields and later additions are fine; is_billing_admin (removed by the contract) is not required.
  assertMatchesSchema('/users/{user_id}', 'get', { result: 'success', msg: '', user: { avatar_url: null, bot_type: null, added_later: 1 } });

  // assertSuccess validates the replies of these endpoints by themselves.
  assert.equal(referencePath('GET', '/api/v1/users/12'), '/users/{user_id}');
  assert.equal(referencePath('GET', '/api/v1/users/a%40b.example.com'), '/users/{email}');
  assert.equal(referencePath('POST', '/api/v1/users'), '/users');
  assert.equal(referencePath('GET', '/api/v1/streams'), undefined);
  const reply = (path: string, body: object) =>
    ({ status: 200, headers: { 'content-type': 'application/json' }, body: { result: 'success', msg: '', ...body }, text: '', method: 'GET', path });
  assert.throws(() => assertSuccess(reply('/api/v1/users/me', { user_id: 'seven' })), /reference schema/);
  assert.throws(() => assertSuccess(reply('/api/v1/server_settings', { zulip_feature_level: '496' })), /reference schema/);
  assertSuccess(reply('/api/v1/streams', { user_id: 'not checked here' }));
});

test('GET /users/me describes the caller', async () => {
  for (const name of REALM_USERS) {
    const body = assertSuccess(await server.as(name).get('/users/me'));
    assertMatchesSchema('/users/me', 'get', body);
    assert.deepEqual(pick(body, Object.keys(expectedFlags(name))), expectedFlags(name), name);
    for (const f of ['delivery_email', 'timezone', 'avatar_url', 'avatar_version', 'date_joined', 'max_message_id']) assert.ok(f in body, `${name} ${f}`);
    assert.equal(body.delivery_email, server.users[name].email);
    assert.equal(typeof body.avatar_url, 'string');
    assert.ok(Number.isInteger(body.avatar_version));
    // Bots have no custom profile fields (reference User schema).
    if (name === 'bot') assert.equal('profile_data' in body, false);
    else assert.deepEqual(body.profile_data, {});
    assert.equal('is_billing_admin' in body, false);
    checkDateJoined(body.date_joined);
  }
  const lear = assertSuccess(await server.as('lear').get('/users/me'));
  assertMatchesSchema('/users/me', 'get', lear);
  assert.equal(lear.user_id, server.users.lear.id);
});

test('GET /users lists the organization\'s users', async () => {
  const body = assertSuccess(await server.as('polonius').get('/users'));
  assertMatchesSchema('/users', 'get', body);
  assert.ok(Array.isArray(body.members));
  const byId = new Map<number, any>(body.members.map((m: { user_id: number }) => [m.user_id, m]));
  // Every seeded user of this organization, nobody from the other (other tests in this file may add users).
  for (const name of REALM_USERS) {
    const m = byId.get(server.users[name].id);
    assert.ok(m, name);
    for (const f of USER_FIELDS) assert.ok(f in m, `${name} lacks ${f}`);
    assert.deepEqual(pick(m, Object.keys(expectedFlags(name))), expectedFlags(name), name);
    assert.equal('is_billing_admin' in m, false);
    checkDateJoined(m.date_joined);
    assert.ok(Number.isInteger(m.avatar_version));
  }
  assert.equal(byId.has(server.users.lear.id), false);
  const bot = byId.get(server.users.bot.id);
  assert.equal(bot.bot_type, 1);
  assert.equal(bot.bot_owner_id, server.users.desdemona.id);
  assert.equal(byId.get(server.users.hamlet.id).bot_type, null);
  // No custom profile fields unless asked for.
  assert.equal('profile_data' in bot, false);
});

// Default avatars are drawn by the server (no outside service), so there is nothing for a client to compute:
// avatar_url is the server's image whatever client_gravatar says.
test('default avatars: the URL of the image the server draws, whatever client_gravatar says', async () => {
  const hamlet = server.as('hamlet');
  const byDefault = assertSuccess(await hamlet.get('/users'));
  const on = assertSuccess(await hamlet.get('/users', { client_gravatar: true }));
  const off = assertSuccess(await hamlet.get('/users', { client_gravatar: false }));
  for (const body of [byDefault, on, off]) assertMatchesSchema('/users', 'get', body);
  for (const m of [...byDefault.members, ...on.members, ...off.members]) {
    assert.match(m.avatar_url, new RegExp(`^/user_avatars/\\d+/default/${m.user_id}\\.png\\?version=${m.avatar_version}$`), m.email);
  }
  const one = assertSuccess(await hamlet.get(`/users/${server.users.iago.id}`, { client_gravatar: false }));
  assert.equal(one.user.avatar_url, off.members.find((m: { user_id: number }) => m.user_id === server.users.iago.id).avatar_url);
});

test('include_custom_profile_fields=true adds profile_data', async () => {
  const hamlet = server.as('hamlet');
  const all = assertSuccess(await hamlet.get('/users', { include_custom_profile_fields: true }));
  assertMatchesSchema('/users', 'get', all);
  for (const m of all.members) {
    if (m.is_bot) assert.equal('profile_data' in m, false, m.email);
    else assert.deepEqual(m.profile_data, {}, m.email);
  }
  const one = assertSuccess(await hamlet.get(`/users/${server.users.iago.id}`, { include_custom_profile_fields: true }));
  assertMatchesSchema('/users/{user_id}', 'get', one);
  assert.deepEqual(one.user.profile_data, {});
});

test('GET /users/{user_id} and GET /users/{email} return one user', async () => {
  const cordelia = server.as('cordelia');
  for (const name of REALM_USERS) {
    const u = server.users[name];
    const byId = assertSuccess(await cordelia.get(`/users/${u.id}`));
    assertMatchesSchema('/users/{user_id}', 'get', byId);
    for (const f of USER_FIELDS) assert.ok(f in byId.user, `${name} lacks ${f}`);
    assert.deepEqual(pick(byId.user, Object.keys(expectedFlags(name))), expectedFlags(name));
    assert.match(byId.user.avatar_url, /^\/user_avatars\//, 'drawn by the server, whatever client_gravatar says');

    const byEmail = assertSuccess(await cordelia.get(`/users/${encodeURIComponent(u.email)}`));
    assertMatchesSchema('/users/{email}', 'get', byEmail);
    assert.deepEqual(byEmail.user, byId.user);
    // E-mails are matched without regard to case.
    assert.equal(assertSuccess(await cordelia.get(`/users/${encodeURIComponent(u.email.toUpperCase())}`)).user.user_id, u.id);
  }
});

test('an unknown user is 400 "No such user"', async () => {
  const hamlet = server.as('hamlet');
  const keys = ['999999', '0', '-1', '2147483648', '99999999999999999999', 'nobody@zulip.example.com', 'not-an-email',
    String(server.users.lear.id), encodeURIComponent(server.users.lear.email)];
  for (const key of keys) {
    assertError(await hamlet.get(`/users/${key}`), 400, 'BAD_REQUEST', 'No such user');
  }
});

test('administrators and owners create users; the new user can log in', async () => {
  for (const [creator, encoding] of [['iago', 'urlencoded'], ['desdemona', 'multipart']] as const) {
    const email = `new-by-${creator}@zulip.example.com`;
    const password = `pw of ${creator}!`;
    const created = assertSuccess(await server.as(creator, encoding).post('/users', { email, password, full_name: `New ${creator}` }));
    assertMatchesSchema('/users', 'post', created);
    assert.ok(Number.isInteger(created.user_id));

    const user = assertSuccess(await server.as('hamlet').get(`/users/${created.user_id}`)).user;
    assert.deepEqual(pick(user, ['email', 'full_name', 'role', 'is_bot', 'is_active', 'is_admin']),
      { email, full_name: `New ${creator}`, role: 400, is_bot: false, is_active: true, is_admin: false });
    checkDateJoined(user.date_joined);

    const key = assertSuccess(await server.anon().post('/fetch_api_key', { username: email, password }));
    assertMatchesSchema('/fetch_api_key', 'post', key);
    assert.equal(key.user_id, created.user_id);
    assert.equal(key.email, email);
    const me = assertSuccess(await new Client(server.url, { email, apiKey: key.api_key }).get('/users/me'));
    assertMatchesSchema('/users/me', 'get', me);
    assert.equal(me.user_id, created.user_id);

    const listed = assertSuccess(await server.as('hamlet').get('/users')).members;
    assert.ok(listed.some((m: { user_id: number }) => m.user_id === created.user_id));
  }
});

test('e-mails are unique within an organization only', async () => {
  // Lear's e-mail belongs to the other organization; here it is free.
  const { lear } = server.users;
  const created = assertSuccess(await server.as('iago').post('/users', { email: lear.email, password: 'secret123', full_name: 'Another Lear' }));
  assert.notEqual(created.user_id, lear.id);
  const key = assertSuccess(await server.anon().post('/fetch_api_key', { username: lear.email, password: 'secret123' }));
  assert.equal(key.user_id, created.user_id);
  // Each organization still finds its own.
  assert.equal(assertSuccess(await server.as('lear').get('/users/me')).user_id, lear.id);
  assert.equal(assertSuccess(await server.as('hamlet').get(`/users/${encodeURIComponent(lear.email)}`)).user.user_id, created.user_id);
});

test('members, moderators, guests and bots may not create users', async () => {
  for (const name of ['hamlet', 'shiva', 'polonius', 'bot'] as SeedName[]) {
    const email = `by-${name}@zulip.example.com`;
    assertError(await server.as(name).post('/users', { email, password: 'secret123', full_name: 'Nope' }), 400,
      'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
    assertError(await server.as('iago').get(`/users/${encodeURIComponent(email)}`), 400, 'BAD_REQUEST', 'No such user');
  }
});

test('POST /users refuses a duplicate or invalid e-mail, a weak password and a bad full name', async () => {
  const iago = server.as('iago');
  const create = (email: string, password: string, full_name: string) => iago.post('/users', { email, password, full_name });
  const ok = { password: 'secret123', full_name: 'Someone' };

  for (const email of [server.users.hamlet.email, server.users.hamlet.email.toUpperCase(), server.users.bot.email]) {
    assertError(await create(email, ok.password, ok.full_name), 400, 'BAD_REQUEST', `Email '${email}' already in use`);
  }
  for (const email of ['not-an-email', 'a@', '@zulip.example.com', 'a b@zulip.example.com', 'a@b@zulip.example.com', 'a@nodot', '']) {
    assertError(await create(email, ok.password, ok.full_name), 400, 'BAD_REQUEST', `Invalid email '${email}'`);
  }
  // At most 254 characters.
  const local = (n: number) => 'a'.repeat(n - '@zulip.example.com'.length);
  assertSuccess(await create(`${local(254)}@zulip.example.com`, ok.password, ok.full_name));
  assertError(await create(`${local(255)}@zulip.example.com`, ok.password, ok.full_name), 400, 'BAD_REQUEST',
    `Invalid email '${local(255)}@zulip.example.com'`);
  for (const password of ['', 'abc', '12345', 'x'.repeat(101)]) {
    assertError(await create('weak@zulip.example.com', password, ok.full_name), 400, 'BAD_REQUEST', 'The password is too weak.');
  }
  assertError(await create('long@zulip.example.com', ok.password, 'n'.repeat(101)), 400, 'BAD_REQUEST', 'Name too long!');
  for (const name of ['', '   ']) {
    assertError(await create('short@zulip.example.com', ok.password, name), 400, 'BAD_REQUEST', 'Name too short!');
  }
  for (const name of ['a*b', 'a`b', 'a\\b', 'a>b', 'a"b', 'a@b', 'tab\there', 'new\nline']) {
    assertError(await create('chars@zulip.example.com', ok.password, name), 400, 'BAD_REQUEST', 'Invalid characters in name!');
  }
  // Nothing was created by the refused requests.
  for (const email of ['weak', 'long', 'short', 'chars']) {
    assertError(await iago.get(`/users/${email}@zulip.example.com`), 400, 'BAD_REQUEST', 'No such user');
  }
});

test('lengths count Unicode code points: a 100-emoji name is accepted, 101 refused', async () => {
  const iago = server.as('iago');
  const emoji = '🦄'; // two UTF-16 units, one code point
  const name = emoji.repeat(100);
  const created = assertSuccess(await iago.post('/users', { email: 'emoji@zulip.example.com', password: 'secret123', full_name: name }));
  assert.equal(assertSuccess(await iago.get(`/users/${created.user_id}`)).user.full_name, name);
  assertError(await iago.post('/users', { email: 'emoji2@zulip.example.com', password: 'secret123', full_name: emoji.repeat(101) }), 400,
    'BAD_REQUEST', 'Name too long!');
  // Passwords too: 6 emoji are 6 characters, 5 are too few.
  assertSuccess(await iago.post('/users', { email: 'emoji3@zulip.example.com', password: '🔑'.repeat(6), full_name: 'Keys' }));
  assertError(await iago.post('/users', { email: 'emoji4@zulip.example.com', password: '🔑'.repeat(5), full_name: 'Keys' }), 400,
    'BAD_REQUEST', 'The password is too weak.');
  assertSuccess(await server.anon().post('/fetch_api_key', { username: 'emoji3@zulip.example.com', password: '🔑'.repeat(6) }));
});

test('the realm_user register block is complete; devices is empty', async () => {
  const reg = assertSuccess(await server.as('shiva').post('/register', { fetch_event_types: ['realm_user', 'device'] }));
  const keys = Object.keys(reg).filter((k) => !['result', 'msg', 'queue_id', 'last_event_id', 'zulip_version', 'zulip_feature_level', 'zulip_merge_base',
    'idle_queue_timeout_secs', 'event_queue_longpoll_timeout_seconds'].includes(k));
  assert.deepEqual(keys.sort(), ['avatar_source', 'avatar_url', 'avatar_url_medium', 'can_create_private_streams', 'can_create_public_streams',
    'can_create_streams', 'can_create_web_public_streams', 'can_invite_others_to_realm', 'cross_realm_bots', 'delivery_email', 'devices', 'email',
    'full_name', 'is_admin', 'is_guest', 'is_moderator', 'is_owner', 'realm_non_active_users', 'realm_users', 'user_id'].sort());
  assert.deepEqual(reg.devices, {});
  assert.deepEqual([reg.user_id, reg.is_moderator, reg.is_admin, reg.email, reg.delivery_email], [server.users.shiva.id, true, false, server.users.shiva.email, server.users.shiva.email]);
  for (const u of reg.realm_users) {
    for (const f of USER_FIELDS) assert.ok(f in u, `${u.email} lacks ${f}`);
    assert.equal(u.is_active, true);
    if (!u.is_bot) assert.ok('profile_data' in u);
  }
  assert.ok(reg.realm_non_active_users.every((u: { is_active: boolean }) => !u.is_active));
});
