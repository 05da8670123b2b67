import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { Listeners } from './helpers/events.js';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

test('role changes: administrators, owners for owner roles, groups follow, events', async () => {
  const l = await Listeners.open(server, ['cordelia']);
  const res = await server.as('iago').patch(`/users/${server.users.hamlet.id}`, { role: 300 });
  assert.equal(res.status, 200, res.text);
  const events = await l.take('cordelia');
  assert.ok(events.some((e) => e.type === 'realm_user' && e.person.user_id === server.users.hamlet.id && e.person.role === 300));
  assert.deepEqual(events.filter((e) => e.type === 'user_group').map((e) => e.op).sort(), ['add_members', 'remove_members', 'remove_members']);
  const me = await server.as('hamlet').get('/users/me');
  assert.equal(me.body.role, 300);
  const groups = (await server.as('hamlet').get('/user_groups')).body.user_groups;
  assert.ok(groups.find((g: { name: string }) => g.name === 'role:moderators').members.includes(server.users.hamlet.id));
  assert.equal((await server.as('cordelia').patch(`/users/${server.users.shiva.id}`, { role: 400 })).body.code, 'UNAUTHORIZED_PRINCIPAL');
  assert.equal((await server.as('iago').patch(`/users/${server.users.shiva.id}`, { role: 100 })).body.msg, 'Must be an organization owner');
  assert.equal((await server.as('iago').patch(`/users/${server.users.shiva.id}`, { role: 250 })).body.msg, 'Invalid role');
  assert.equal((await server.as('desdemona').patch(`/users/${server.users.desdemona.id}`, { role: 200 })).body.msg, 'The owner permission cannot be removed from the only organization owner.');
  assert.equal((await server.as('iago').patch(`/users/${server.users.shiva.id}`, { full_name: 'Shiva M.' })).status, 200);
  assert.equal((await server.as('iago').get(`/users/${server.users.shiva.id}`)).body.user.full_name, 'Shiva M.');
});

test('deactivation and reactivation', async () => {
  const l = await Listeners.open(server, ['iago']);
  assert.equal((await server.as('iago').delete(`/users/${server.users.cordelia.id}`)).status, 200);
  const [ev] = (await l.take('iago', 'realm_user'));
  assert.deepEqual(ev.person, { user_id: server.users.cordelia.id, is_active: false });
  const locked = await server.as('cordelia').get('/users/me');
  assert.deepEqual([locked.status, locked.body.code, locked.body.msg], [401, 'USER_DEACTIVATED', 'Account is deactivated']);
  const list = await server.as('iago').get('/users');
  assert.equal(list.body.members.find((u: { user_id: number }) => u.user_id === server.users.cordelia.id).is_active, false);
  assert.equal((await server.as('iago').delete(`/users/${server.users.cordelia.id}`)).body.msg, 'User is already deactivated');
  assert.equal((await server.as('iago').post(`/users/${server.users.cordelia.id}/reactivate`)).status, 200);
  assert.equal((await server.as('cordelia').get('/users/me')).status, 200);
  assert.equal((await server.as('shiva').delete(`/users/${server.users.polonius.id}`)).body.code, 'UNAUTHORIZED_PRINCIPAL');
  assert.equal((await server.as('iago').delete(`/users/${server.users.desdemona.id}`)).body.msg, 'Must be an organization owner');
  const last = await server.as('desdemona').delete('/users/me');
  assert.deepEqual([last.body.code, last.body.msg], ['CANNOT_DEACTIVATE_LAST_USER', 'Cannot deactivate the only organization owner']);
  assert.equal((await server.as('polonius').delete('/users/me')).status, 200, 'anyone may leave');
});
