// Register's realm_users are kept serialised between registers (src/state/user-objects.ts): after every kind of
// change to a user, each viewer's next register lists exactly what GET /users (made afresh) shows them.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { startTestServer, type SeedName, type TestServer } from './helpers/server.js';
import { assertSuccess } from './helpers/assertions.js';
import { multipart, postMultipart } from './helpers/uploads.js';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server?.close());

const VIEWERS: SeedName[] = ['hamlet', 'iago', 'polonius'];

async function registered(who: SeedName, capabilities: Record<string, boolean> = {}) {
  const body = assertSuccess(await server.as(who).post('/register', {
    fetch_event_types: JSON.stringify(['realm_user']), client_capabilities: JSON.stringify(capabilities), client_gravatar: 'false',
  }));
  return [...body.realm_users, ...body.realm_non_active_users] as Record<string, unknown>[];
}

async function directory(who: SeedName) {
  return assertSuccess(await server.as(who).get('/users', { client_gravatar: 'false', include_custom_profile_fields: 'true' })).members as Record<string, unknown>[];
}

async function assertRegisterMatchesDirectory(when: string) {
  for (const who of VIEWERS) {
    const byId = (list: Record<string, unknown>[]) => new Map(list.map((u) => [u.user_id, u]));
    const listed = byId(await registered(who));
    const fresh = byId(await directory(who));
    assert.deepEqual([...listed.keys()].sort(), [...fresh.keys()].sort(), `${when}: the same users for ${who}`);
    for (const [id, u] of fresh) assert.deepEqual(listed.get(id), u, `${when}: user ${id} as ${who} sees them`);
  }
}

test("after each kind of change, every viewer's register lists users exactly as GET /users shows them", async () => {
  await assertRegisterMatchesDirectory('at first');
  await assertRegisterMatchesDirectory('again, from kept texts');
  const cordelia = server.users.cordelia.id;
  assertSuccess(await server.as('cordelia').patch('/settings', { full_name: 'Cordelia of Britain', timezone: 'Europe/London' }));
  await assertRegisterMatchesDirectory('after a name and time zone change');
  assertSuccess(await server.as('cordelia').patch('/settings', { email_address_visibility: 3 }));
  await assertRegisterMatchesDirectory('after an e-mail visibility change');
  const png = await sharp({ create: { width: 60, height: 40, channels: 3, background: '#a33' } }).png().toBuffer();
  assertSuccess(await postMultipart(server, 'cordelia', '/api/v1/users/me/avatar', await multipart([{ name: 'me.png', data: png }])));
  await assertRegisterMatchesDirectory('after an avatar upload');
  assertSuccess(await server.as('iago').patch(`/users/${cordelia}`, { role: 300 }));
  await assertRegisterMatchesDirectory('after a role change');
  assertSuccess(await server.as('iago').delete(`/users/${cordelia}`));
  await assertRegisterMatchesDirectory('after a deactivation');
  assertSuccess(await server.as('iago').post(`/users/${cordelia}/reactivate`));
  await assertRegisterMatchesDirectory('after a reactivation');
});

test('with user_avatar_url_field_optional, default avatars have no avatar_url; the same users without it have one', async () => {
  const optional = await registered('hamlet', { user_avatar_url_field_optional: true });
  const full = await registered('hamlet');
  const hamlet = server.users.hamlet.id;
  assert.equal(optional.find((u) => u.user_id === hamlet)!.avatar_url, undefined);
  assert.equal(typeof full.find((u) => u.user_id === hamlet)!.avatar_url, 'string');
});
