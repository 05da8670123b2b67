// can_access_all_users_group limited to members: guests see only the users they share a channel or a
// conversation with ("Unknown user" placeholders, or nothing with user_list_incomplete), and realm_user events
// about others do not reach them. Also the user_avatar_url_field_optional capability.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { assertError, assertSuccess } from './helpers/assertions.js';
import { validateRegisterResponse } from './helpers/openapi-register.js';
import { Listeners } from './helpers/events.js';
import { createChannel, sendDm } from './helpers/messages.js';
import { setRealmSettings } from './helpers/direct-db.js';

let server: TestServer;
before(async () => {
  server = await startTestServer();
  await createChannel(server, 'iago', ['polonius', 'cordelia'], { invite_only: true });
  await setRealmSettings(server, { can_access_all_users_group: 'role:members' });
});
after(() => server?.close());

const UNKNOWN = (id: number) => ({
  user_id: id, email: `user${id}@parlance.invalid`, delivery_email: null, full_name: 'Unknown user', is_active: true, is_owner: false,
  is_admin: false, is_guest: false, is_bot: false, bot_type: null, role: 400, timezone: '', avatar_url: '/static/images/unknown-user-avatar.png',
  avatar_version: 1,
});
const strip = ({ date_joined: _d, ...rest }: Record<string, unknown>) => rest;

test('a limited guest sees the users they share a channel with, bots and themselves; others are unknown', async () => {
  const { users } = server;
  const members = assertSuccess(await server.as('polonius').get('/users')).members as Record<string, any>[];
  const byId = new Map(members.map((m) => [m.user_id as number, m]));
  const get = (id: number) => byId.get(id)!;
  for (const name of ['cordelia', 'polonius', 'bot'] as const) assert.equal(get(users[name].id).full_name, server.users[name].fullName, name);
  for (const name of ['hamlet', 'shiva', 'desdemona', 'iago'] as const) assert.deepEqual(strip(get(users[name].id)), UNKNOWN(users[name].id), name);
  assert.match(get(users.hamlet.id).date_joined, /^\d{4}-\d\d-\d\dT\d\d:\d\d\+00:00$/);

  assertError(await server.as('polonius').get(`/users/${users.hamlet.id}`), 400, 'BAD_REQUEST', 'Insufficient permission');
  assertError(await server.as('polonius').get(`/users/${users.hamlet.id}/presence`), 400, 'BAD_REQUEST', 'Insufficient permission');
  assert.equal(assertSuccess(await server.as('polonius').get(`/users/${users.cordelia.id}`)).user.full_name, users.cordelia.fullName);
  // Members are not limited.
  assert.equal(assertSuccess(await server.as('cordelia').get(`/users/${users.hamlet.id}`)).user.full_name, users.hamlet.fullName);

  const full = assertSuccess(await server.as('polonius').post('/register', { fetch_event_types: ['realm_user'] }));
  assert.deepEqual(validateRegisterResponse(full), []);
  assert.deepEqual(strip(full.realm_users.find((u: { user_id: number }) => u.user_id === users.hamlet.id)), { ...UNKNOWN(users.hamlet.id), profile_data: {} });
  const incomplete = assertSuccess(await server.as('polonius').post('/register', { fetch_event_types: ['realm_user'], client_capabilities: { user_list_incomplete: true } }));
  const ids = incomplete.realm_users.map((u: { user_id: number }) => u.user_id);
  assert.ok(!ids.includes(users.hamlet.id) && ids.includes(users.cordelia.id) && ids.includes(users.polonius.id));
});

test('events about users a guest may not access do not reach them; new users come as placeholders or not at all', async () => {
  const { users } = server;
  const l = await Listeners.open(server, ['cordelia'], { event_types: ['realm_user'] });
  const plain = await Listeners.open(server, ['polonius'], { event_types: ['realm_user'] });
  const incomplete = await Listeners.open(server, ['polonius'], { event_types: ['realm_user'], client_capabilities: { user_list_incomplete: true } });

  assertSuccess(await server.as('hamlet').patch('/settings', { full_name: 'Hamlet, Prince' }));
  assertSuccess(await server.as('cordelia').patch('/settings', { timezone: 'Europe/London' }));
  const created = assertSuccess(await server.as('iago').post('/users', { email: 'stranger@zulip.example.com', password: 'secret123', full_name: 'Stranger' }));
  await new Promise((r) => setTimeout(r, 200));

  const seen = (await l.take('cordelia', 'realm_user')).map((e) => [e.op, e.person.user_id]);
  assert.deepEqual(seen, [['update', users.hamlet.id], ['update', users.cordelia.id], ['add', created.user_id]]);
  const guest = await plain.take('polonius', 'realm_user');
  assert.deepEqual(guest.map((e) => [e.op, e.person.user_id]), [['update', users.cordelia.id], ['add', created.user_id]]);
  assert.deepEqual(strip(guest[1].person), { ...UNKNOWN(created.user_id), profile_data: {} });
  assert.deepEqual((await incomplete.take('polonius', 'realm_user')).map((e) => [e.op, e.person.user_id]), [['update', users.cordelia.id]]);
});

test('a direct message makes the users known to each other', async () => {
  const { users } = server;
  await sendDm(server, 'shiva', ['polonius'], 'Welcome, guest');
  assert.equal(assertSuccess(await server.as('polonius').get(`/users/${users.shiva.id}`)).user.full_name, users.shiva.fullName);
  const l = await Listeners.open(server, ['polonius'], { event_types: ['realm_user'] });
  assertSuccess(await server.as('shiva').patch('/settings', { timezone: 'Asia/Kolkata' }));
  await new Promise((r) => setTimeout(r, 200));
  assert.deepEqual((await l.take('polonius', 'realm_user')).map((e) => e.person), [{ user_id: users.shiva.id, email: users.shiva.email, timezone: 'Asia/Kolkata' }]);
  await setRealmSettings(server, { can_access_all_users_group: undefined });
  assert.equal(assertSuccess(await server.as('polonius').get(`/users/${users.hamlet.id}`)).user.full_name, 'Hamlet, Prince', 'everyone again');
});

test('user_avatar_url_field_optional leaves out the URLs of default avatars', async () => {
  const reg = assertSuccess(await server.as('hamlet').post('/register', { fetch_event_types: ['realm_user'], client_gravatar: false, client_capabilities: { user_avatar_url_field_optional: true } }));
  assert.ok(reg.realm_users.length > 5);
  assert.ok(reg.realm_users.every((u: Record<string, unknown>) => !('avatar_url' in u) && Number.isInteger(u.avatar_version)));
  const without = assertSuccess(await server.as('hamlet').post('/register', { fetch_event_types: ['realm_user'], client_gravatar: false }));
  assert.ok(without.realm_users.every((u: Record<string, unknown>) => typeof u.avatar_url === 'string'));
});
