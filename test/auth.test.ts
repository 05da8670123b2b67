// Authentication: HTTP Basic with the API e-mail and key, POST /fetch_api_key, deactivated users and
// organizations, and organizations picked by the Host's subdomain.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type SeedName, type TestServer } from './helpers/server.js';
import { Client, send } from './helpers/client.js';
import { assertError, assertSuccess, assertUnauthorized, BASIC_CHALLENGE } from './helpers/assertions.js';
import { assertMatchesSchema } from './helpers/openapi.js';
import { findRealmBySubdomain, updateRealm } from '../src/store/realms.js';
import { updateUser } from '../src/store/users.js';

let server: TestServer;
before(async () => {
  // The failed-login limit has its own tests (rate-limit.test.ts); here wrong passwords must not trip it.
  server = await startTestServer({ env: { PARLANCE_AUTH_FAILURE_LIMIT: '0' } });
});
after(() => server?.close());

const basic = (user: string, key: string) => ({ authorization: 'Basic ' + Buffer.from(`${user}:${key}`).toString('base64') });
const me = (headers: Record<string, string>) => send('GET', new URL('/api/v1/users/me', server.url), headers);
const learHost = () => `lear.${new URL(server.url).host}`;

function fetchApiKey(username: string, password: string, opts: { host?: string; encoding?: 'urlencoded' | 'multipart' } = {}) {
  return new Client(server.url, undefined, opts.encoding ?? 'urlencoded', opts.host).post('/fetch_api_key', { username, password });
}

test('HTTP Basic with the API e-mail and key authenticates every kind of user', async () => {
  for (const name of ['desdemona', 'iago', 'shiva', 'hamlet', 'cordelia', 'polonius', 'bot'] as SeedName[]) {
    const u = server.users[name];
    const body = assertSuccess(await me(basic(u.email, u.apiKey)));
    assert.equal(body.user_id, u.id);
    assert.equal(body.email, u.email);
  }
  // The e-mail is matched without regard to case.
  const { email, apiKey, id } = server.users.hamlet;
  assert.equal(assertSuccess(await me(basic(email.toUpperCase(), apiKey))).user_id, id);
  // The scheme name is case-insensitive.
  const lower = 'basic ' + Buffer.from(`${email}:${apiKey}`).toString('base64');
  assert.equal(assertSuccess(await me({ authorization: lower })).user_id, id);
});

test('missing credentials are 401 UNAUTHORIZED with a Basic challenge', async () => {
  for (const path of ['/users/me', '/users', `/users/${server.users.hamlet.id}`]) {
    assertUnauthorized(await server.anon().get(path), 'Not logged in: API authentication or user session required');
  }
  assertUnauthorized(await server.anon().post('/users', { email: 'a@zulip.example.com', password: 'secret123', full_name: 'A' }),
    'Not logged in: API authentication or user session required');
});

test('a wrong key, an unknown e-mail or another user\'s key is 401 UNAUTHORIZED', async () => {
  const { hamlet, cordelia } = server.users;
  assertUnauthorized(await me(basic(hamlet.email, 'x'.repeat(32))), 'Invalid API key');
  assertUnauthorized(await me(basic(hamlet.email, '')), 'Invalid API key');
  assertUnauthorized(await me(basic(hamlet.email, hamlet.apiKey + 'x')), 'Invalid API key');
  assertUnauthorized(await me(basic(hamlet.email, cordelia.apiKey)), 'Invalid API key');
  assertUnauthorized(await me(basic('nobody@zulip.example.com', hamlet.apiKey)), 'Invalid API key');
  // The password is not an API key.
  assertUnauthorized(await me(basic(hamlet.email, hamlet.password)), 'Invalid API key');
});

test('a scheme other than Basic is 400; a malformed Basic header is 401 (as the reference server reads the header)', async () => {
  const { email, apiKey } = server.users.hamlet;
  for (const authorization of [`Bearer ${apiKey}`, `Digest username="${email}"`, `Token ${apiKey}`]) {
    assertError(await me({ authorization }), 400, 'BAD_REQUEST', 'This endpoint requires HTTP basic authentication.');
  }
  assertUnauthorized(await me({ authorization: 'Basic ' + Buffer.from(`${email}${apiKey}`).toString('base64') }),
    'Invalid authorization header for basic auth');
});

test('a deactivated user is 401 USER_DEACTIVATED, and works again once reactivated', async () => {
  const { cordelia } = server.users;
  await server.withApp((app) => updateUser(app.db, cordelia.id, { isActive: false }));
  try {
    const reply = await me(basic(cordelia.email, cordelia.apiKey));
    assertError(reply, 401, 'USER_DEACTIVATED', 'Account is deactivated');
    assert.equal(reply.headers['www-authenticate'], BASIC_CHALLENGE);
    assertError(await fetchApiKey(cordelia.email, cordelia.password), 401, 'USER_DEACTIVATED', 'Account is deactivated');
    // A wrong key still says only that the key is wrong.
    assertUnauthorized(await me(basic(cordelia.email, 'wrong')), 'Invalid API key');
    assertError(await fetchApiKey(cordelia.email, 'wrong password'), 401, 'AUTHENTICATION_FAILED', 'Your username or password is incorrect');
    // Other users are unaffected.
    assertSuccess(await server.as('hamlet').get('/users/me'));
  } finally {
    await server.withApp((app) => updateUser(app.db, cordelia.id, { isActive: true }));
  }
  assertSuccess(await me(basic(cordelia.email, cordelia.apiKey)));
  assertSuccess(await fetchApiKey(cordelia.email, cordelia.password));
});

test('a deactivated organization is 401 REALM_DEACTIVATED, and works again once reactivated', async () => {
  const realmId = await server.withApp(async (app) => (await findRealmBySubdomain(app.db, ''))!.id);
  const { hamlet, lear } = server.users;
  await server.withApp((app) => updateRealm(app.db, realmId, { deactivated: true }));
  try {
    const reply = await me(basic(hamlet.email, hamlet.apiKey));
    assertError(reply, 401, 'REALM_DEACTIVATED', 'This organization has been deactivated');
    assert.equal(reply.headers['www-authenticate'], BASIC_CHALLENGE);
    assertError(await fetchApiKey(hamlet.email, hamlet.password), 401, 'REALM_DEACTIVATED', 'This organization has been deactivated');
    // The other organization is unaffected.
    assertSuccess(await server.as('lear').get('/users/me'));
    assertSuccess(await fetchApiKey(lear.email, lear.password, { host: learHost() }));
  } finally {
    await server.withApp((app) => updateRealm(app.db, realmId, { deactivated: false }));
  }
  assertSuccess(await me(basic(hamlet.email, hamlet.apiKey)));
});

test('POST /fetch_api_key returns api_key, email and user_id', async () => {
  for (const name of ['desdemona', 'iago', 'hamlet', 'polonius'] as SeedName[]) {
    const u = server.users[name];
    for (const encoding of ['urlencoded', 'multipart'] as const) {
      const body = assertSuccess(await fetchApiKey(u.email, u.password, { encoding }));
      assertMatchesSchema('/fetch_api_key', 'post', body);
      assert.deepEqual({ api_key: body.api_key, email: body.email, user_id: body.user_id }, { api_key: u.apiKey, email: u.email, user_id: u.id });
    }
  }
  // The user name is matched without regard to case; the e-mail comes back as stored.
  const { hamlet } = server.users;
  const upper = assertSuccess(await fetchApiKey(hamlet.email.toUpperCase(), hamlet.password));
  assert.equal(upper.email, hamlet.email);
  // The returned key works.
  const key = assertSuccess(await fetchApiKey(hamlet.email, hamlet.password)).api_key;
  assertSuccess(await me(basic(hamlet.email, key)));
});

test('a wrong password or an unknown user is 401 AUTHENTICATION_FAILED', async () => {
  const { hamlet, bot, lear } = server.users;
  const failed = (r: Awaited<ReturnType<typeof fetchApiKey>>) =>
    assertError(r, 401, 'AUTHENTICATION_FAILED', 'Your username or password is incorrect');
  failed(await fetchApiKey(hamlet.email, 'not the password'));
  failed(await fetchApiKey(hamlet.email, ''));
  failed(await fetchApiKey(hamlet.email, hamlet.password.toUpperCase()));
  failed(await fetchApiKey(hamlet.email, hamlet.apiKey));
  failed(await fetchApiKey('nobody@zulip.example.com', hamlet.password));
  failed(await fetchApiKey('', hamlet.password));
  // Bots have no password.
  failed(await fetchApiKey(bot.email, ''));
  failed(await fetchApiKey(bot.email, bot.password));
  // A user of another organization does not exist here.
  failed(await fetchApiKey(lear.email, lear.password));
});

test('with password login off for the organization, fetch_api_key is 401 PASSWORD_AUTH_DISABLED', async () => {
  const { hamlet, lear } = server.users;
  const realmId = await server.withApp(async (app) => (await findRealmBySubdomain(app.db, ''))!.id);
  const settings = () => server.anon().get('/server_settings').then(assertSuccess);
  assert.equal((await settings()).email_auth_enabled, true);
  await server.withApp((app) => updateRealm(app.db, realmId, { passwordAuthEnabled: false }));
  try {
    for (const [user, password] of [[hamlet.email, hamlet.password], [hamlet.email, 'wrong'], ['nobody@zulip.example.com', 'x']]) {
      assertError(await fetchApiKey(user, password), 401, 'PASSWORD_AUTH_DISABLED', 'Password authentication is disabled in this organization');
    }
    const s = await settings();
    assert.equal(s.email_auth_enabled, false);
    assert.equal(s.authentication_methods.password, false);
    assert.equal(s.authentication_methods.email, false);
    // API keys still work, and the other organization still takes passwords.
    assertSuccess(await me(basic(hamlet.email, hamlet.apiKey)));
    assertSuccess(await fetchApiKey(lear.email, lear.password, { host: learHost() }));
  } finally {
    await server.withApp((app) => updateRealm(app.db, realmId, { passwordAuthEnabled: true }));
  }
  assertSuccess(await fetchApiKey(hamlet.email, hamlet.password));
  assert.equal((await settings()).email_auth_enabled, true);
});

test('the organization is chosen by the Host subdomain', async () => {
  const { lear, hamlet } = server.users;
  const host = learHost();
  const port = new URL(server.url).port;

  // Lear's credentials work only on lear.<host>.
  const key = assertSuccess(await fetchApiKey(lear.email, lear.password, { host }));
  assert.deepEqual([key.api_key, key.user_id], [lear.apiKey, lear.id]);
  assertMatchesSchema('/fetch_api_key', 'post', key);
  assertError(await fetchApiKey(lear.email, lear.password), 401, 'AUTHENTICATION_FAILED', 'Your username or password is incorrect');
  const viaLear = assertSuccess(await me({ ...basic(lear.email, lear.apiKey), host }));
  assert.equal(viaLear.user_id, lear.id);
  assertUnauthorized(await me(basic(lear.email, lear.apiKey)), 'Invalid API key');
  // The host name is matched without regard to case.
  assertSuccess(await me({ ...basic(lear.email, lear.apiKey), host: host.toUpperCase() }));

  // Hamlet's credentials do not work on Lear's organization.
  assertUnauthorized(await me({ ...basic(hamlet.email, hamlet.apiKey), host }), 'Invalid API key');
  assertError(await fetchApiKey(hamlet.email, hamlet.password, { host }), 401, 'AUTHENTICATION_FAILED', 'Your username or password is incorrect');

  // Users of one organization do not see the other's.
  const learUsers = assertSuccess(await server.as('lear').get('/users')).members.map((m: { user_id: number }) => m.user_id);
  assert.deepEqual(learUsers, [lear.id]);
  assertError(await server.as('lear').get(`/users/${hamlet.id}`), 400, 'BAD_REQUEST', 'No such user');
  assertError(await server.as('hamlet').get(`/users/${lear.id}`), 400, 'BAD_REQUEST', 'No such user');
  assertError(await server.as('hamlet').get(`/users/${encodeURIComponent(lear.email)}`), 400, 'BAD_REQUEST', 'No such user');

  // Any other host name reaches the default organization.
  for (const other of [`unknown.${new URL(server.url).host}`, `localhost:${port}`, `chat.example.com:${port}`]) {
    assert.equal(assertSuccess(await me({ ...basic(hamlet.email, hamlet.apiKey), host: other })).user_id, hamlet.id, other);
  }
});
