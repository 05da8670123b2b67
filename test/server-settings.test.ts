// GET /server_settings (what clients read before logging in) and GET /health, both without credentials.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { Client, send } from './helpers/client.js';
import { assertSuccess } from './helpers/assertions.js';
import { assertMatchesSchema } from './helpers/openapi.js';

let server: TestServer;
let external: TestServer;
before(async () => {
  [server, external] = await Promise.all([
    startTestServer(),
    startTestServer({ env: { PARLANCE_EXTERNAL_URL: 'https://chat.example.com' } }),
  ]);
});
after(() => Promise.all([server?.close(), external?.close()]));

const learHost = (s: TestServer) => `lear.${new URL(s.url).host}`;

test('GET /server_settings answers without credentials', async () => {
  const body = assertSuccess(await server.anon().get('/server_settings'));
  assertMatchesSchema('/server_settings', 'get', body);
  assert.equal(body.zulip_feature_level, 496);
  assert.equal(typeof body.zulip_version, 'string');
  assert.ok(body.zulip_version.length > 0);
  assert.equal(typeof body.zulip_merge_base, 'string');
  assert.ok(body.zulip_merge_base.length > 0);
  assert.equal(body.realm_name, 'Zulip Dev');
  assert.equal(body.realm_url, server.url);
  assert.equal(body.realm_uri, server.url);
  assert.equal(body.require_email_format_usernames, true);
  assert.equal(body.email_auth_enabled, true);
  assert.equal(body.push_notifications_enabled, false);
  assert.equal(body.is_incompatible, false);
  assert.deepEqual(body.external_authentication_methods, []);
  assert.equal(body.authentication_methods.password, true);
  assert.equal(body.authentication_methods.email, true);
  for (const [method, enabled] of Object.entries(body.authentication_methods)) {
    assert.equal(enabled, method === 'password' || method === 'email', method);
  }
  for (const f of ['realm_icon', 'realm_description']) assert.equal(typeof body[f], 'string', f);
  assert.equal(typeof body.realm_web_public_access_enabled, 'boolean');
});

test('GET /server_settings ignores credentials, even wrong ones (client libraries send them on every call)', async () => {
  const reference = assertSuccess(await server.anon().get('/server_settings'));
  const withAuth = assertSuccess(await server.as('hamlet').get('/server_settings'));
  const wrongKey = assertSuccess(await new Client(server.url, { email: server.users.hamlet.email, apiKey: 'wrong' }).get('/server_settings'));
  const bearer = assertSuccess(await send('GET', new URL('/api/v1/server_settings', server.url), { authorization: 'Bearer x' }));
  for (const body of [withAuth, wrongKey, bearer]) assert.deepEqual(body, reference);
});

test('GET /server_settings describes the organization of the Host', async () => {
  const lear = assertSuccess(await server.anon().get('/server_settings', {}, { headers: { host: learHost(server) } }));
  assertMatchesSchema('/server_settings', 'get', lear);
  assert.equal(lear.realm_name, 'Lear & Co.');
  assert.equal(lear.realm_url, `http://${learHost(server)}`);
  assert.equal(lear.zulip_feature_level, 496);
});

test('PARLANCE_EXTERNAL_URL sets realm_url, with the subdomain for other organizations', async () => {
  const main = assertSuccess(await external.anon().get('/server_settings'));
  assert.equal(main.realm_url, 'https://chat.example.com');
  const lear = assertSuccess(await external.anon().get('/server_settings', {}, { headers: { host: learHost(external) } }));
  assert.equal(lear.realm_url, 'https://lear.chat.example.com');
  assert.equal(lear.realm_name, 'Lear & Co.');
});

test('GET /health answers without credentials', async () => {
  for (const headers of [{}, { authorization: 'Basic bad' }, server.as('hamlet').headers(), { host: learHost(server) }]) {
    const reply = await send('GET', new URL('/health', server.url), headers);
    assert.deepEqual(assertSuccess(reply), { result: 'success', msg: '' });
  }
});
