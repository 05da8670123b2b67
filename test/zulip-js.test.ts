// End to end with the JavaScript client library (npm zulip-js), which sends multipart bodies and logs in
// through POST /fetch_api_key.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { startTestServer, type TestServer } from './helpers/server.js';
import { assertMatchesSchema } from './helpers/openapi.js';

// zulip-js is CommonJS without types.
const zulipInit: (config: Record<string, string>) => Promise<any> = createRequire(import.meta.url)('zulip-js');

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server?.close());

test('zulip-js logs in with a password and reads the profile and the server settings', async () => {
  const { email, password, apiKey, id } = server.users.hamlet;
  const client = await zulipInit({ realm: server.url, username: email, password });
  assert.equal(client.config.apiKey, apiKey, 'fetched through /fetch_api_key');

  const me = await client.users.me.getProfile();
  assertMatchesSchema('/users/me', 'get', me);
  assert.deepEqual([me.user_id, me.email, me.full_name], [id, email, 'King Hamlet']);

  const settings = await client.server.settings();
  assertMatchesSchema('/server_settings', 'get', settings);
  assert.equal(settings.zulip_feature_level, 496);
  assert.equal(settings.realm_url, server.url);
});

test('zulip-js with an API key lists and creates users', async () => {
  const iago = server.users.iago;
  const client = await zulipInit({ realm: server.url, username: iago.email, apiKey: iago.apiKey });
  const users = await client.users.retrieve({ client_gravatar: false });
  assertMatchesSchema('/users', 'get', users);
  assert.ok(users.members.some((m: { user_id: number }) => m.user_id === server.users.hamlet.id));

  const created = await client.users.create({ email: 'zulipjs@zulip.example.com', password: 'from the js client', full_name: 'JS User' });
  assertMatchesSchema('/users', 'post', created);
  const fresh = await zulipInit({ realm: server.url, username: 'zulipjs@zulip.example.com', password: 'from the js client' });
  const me = await fresh.users.me.getProfile();
  assert.equal(me.user_id, created.user_id);

  // callEndpoint repeats path parameters in the query string: reported, not refused.
  const one = await client.callEndpoint(`/users/${created.user_id}`, 'GET', { user_id: created.user_id });
  assertMatchesSchema('/users/{user_id}', 'get', one);
  assert.equal(one.user.full_name, 'JS User');
  assert.deepEqual(one.ignored_parameters_unsupported, ['user_id']);
});

test('zulip-js sees the error envelope for a wrong password', async () => {
  const client = await zulipInit({ realm: server.url, username: server.users.hamlet.email, password: 'wrong' });
  assert.equal(client.config.apiKey, undefined);
  const me = await client.users.me.getProfile();
  assert.deepEqual([me.result, me.code], ['error', 'UNAUTHORIZED']);
  const member = await zulipInit({ realm: server.url, username: server.users.hamlet.email, apiKey: server.users.hamlet.apiKey });
  const refused = await member.users.create({ email: 'nope@zulip.example.com', password: 'secret123', full_name: 'Nope' });
  assert.deepEqual([refused.result, refused.code, refused.msg], ['error', 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator']);
});
