// Rate limits: per user (authenticated), per IP address (unauthenticated), failed logins per user name; and
// PARLANCE_RATE_LIMIT=0 turning the first two off. Requests come from distinct loopback addresses
// (127.0.0.N) to stand for distinct clients.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import type { Reply } from './helpers/client.js';
import { assertError, assertSuccess } from './helpers/assertions.js';

let limited: TestServer;
let unlimited: TestServer;
before(async () => {
  [limited, unlimited] = await Promise.all([
    startTestServer({ env: { PARLANCE_RATE_LIMIT: '5', PARLANCE_RATE_LIMIT_IP: '3', PARLANCE_AUTH_FAILURE_LIMIT: '3' } }),
    startTestServer({ env: { PARLANCE_RATE_LIMIT: '0', PARLANCE_RATE_LIMIT_IP: '1', PARLANCE_AUTH_FAILURE_LIMIT: '3' } }),
  ]);
});
after(() => Promise.all([limited?.close(), unlimited?.close()]));

let nextAddress = 2;
const freshIp = () => `127.0.0.${nextAddress++}`;
const now = () => Date.now() / 1000;

const RATE_LIMIT_MSG = 'API usage exceeded rate limit; see https://zulip.com/api/http-headers#rate-limiting-response-headers';

function assertRateLimited(reply: Reply, maxWait: number): number {
  assertError(reply, 429, 'RATE_LIMIT_HIT', RATE_LIMIT_MSG);
  const wait = reply.body['retry-after'];
  assert.equal(typeof wait, 'number', reply.text);
  assert.ok(wait > 0 && wait <= maxWait, `retry-after ${wait}`);
  assert.match(String(reply.headers['retry-after']), /^\d+$/);
  const header = Number(reply.headers['retry-after']);
  assert.ok(header >= Math.floor(wait) && header <= Math.ceil(wait) + 1, `Retry-After ${header} for retry-after ${wait}`);
  return wait;
}

function rateHeaders(reply: Reply) {
  const h = reply.headers;
  for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
    assert.match(String(h[name]), /^\d+$/, `${name}: ${h[name]}`);
  }
  return { limit: Number(h['x-ratelimit-limit']), remaining: Number(h['x-ratelimit-remaining']), reset: Number(h['x-ratelimit-reset']) };
}

test('each user gets PARLANCE_RATE_LIMIT requests a minute, with X-RateLimit headers, then 429', async () => {
  const hamlet = limited.as('hamlet');
  const before = now();
  const paths = ['/users/me', '/users', '/users/me', `/users/${limited.users.iago.id}`, '/users/me'];
  let reset = 0;
  for (const [i, path] of paths.entries()) {
    const reply = await hamlet.get(path);
    assertSuccess(reply);
    const h = rateHeaders(reply);
    assert.equal(h.limit, 5);
    assert.equal(h.remaining, 4 - i);
    assert.ok(h.reset >= Math.floor(before) && h.reset <= Math.ceil(now()) + 61, `reset ${h.reset}`);
    if (i > 0) assert.equal(h.reset, reset, 'one fixed window');
    reset = h.reset;
  }
  const refused = await hamlet.get('/users/me');
  const wait = assertRateLimited(refused, 60);
  assert.ok(Math.abs(now() + wait - reset) <= 2, `retry-after ${wait} should point at the reset ${reset}`);
  const h = rateHeaders(refused);
  assert.deepEqual([h.limit, h.remaining, h.reset], [5, 0, reset]);

  // The limit follows the user, not the address; other users have their own.
  assertRateLimited(await hamlet.get('/users/me', {}, { localAddress: freshIp() }), 60);
  assertRateLimited(await hamlet.post('/users', { email: 'x@zulip.example.com', password: 'secret123', full_name: 'X' }), 60);
  const cordelia = await limited.as('cordelia').get('/users/me');
  assertSuccess(cordelia);
  assert.equal(rateHeaders(cordelia).remaining, 4);
});

test('unauthenticated requests get PARLANCE_RATE_LIMIT_IP a minute per IP address, then 429', async () => {
  const ip = freshIp();
  const anon = limited.anon();
  for (let i = 0; i < 3; i++) assertSuccess(await anon.get('/server_settings', {}, { localAddress: ip }));
  assertRateLimited(await anon.get('/server_settings', {}, { localAddress: ip }), 60);
  // fetch_api_key is unauthenticated too, and counts against the same address.
  const { email, password } = limited.users.shiva;
  assertRateLimited(await anon.post('/fetch_api_key', { username: email, password }, { localAddress: ip }), 60);

  // Another address is not limited; authenticated requests from the limited address count against the user.
  assertSuccess(await anon.get('/server_settings', {}, { localAddress: freshIp() }));
  assertSuccess(await limited.as('polonius').get('/users/me', {}, { localAddress: ip }));
  // The health check is never limited.
  for (let i = 0; i < 5; i++) assertSuccess(await anon.get('/health', {}, { localAddress: ip }));
});

test('failed logins are limited per user name (PARLANCE_AUTH_FAILURE_LIMIT), whatever the address', async () => {
  const anon = limited.anon();
  const login = (username: string, password: string) => anon.post('/fetch_api_key', { username, password }, { localAddress: freshIp() });
  const { iago, shiva, desdemona } = limited.users;

  for (let i = 0; i < 3; i++) {
    assertError(await login(iago.email, `wrong ${i}`), 401, 'AUTHENTICATION_FAILED', 'Your username or password is incorrect');
  }
  // Now even the right password is refused, for the whole window (30 minutes by default).
  const wait = assertRateLimited(await login(iago.email, iago.password), 1800);
  assert.ok(wait > 1700, `retry-after ${wait}`);
  assertRateLimited(await login(iago.email.toUpperCase(), iago.password), 1800);
  // The API key still works, and other user names are not affected.
  assertSuccess(await limited.as('iago').get('/users/me'));
  assertSuccess(await login(shiva.email, shiva.password));

  // Unknown user names are counted too.
  for (let i = 0; i < 3; i++) {
    assertError(await login('ghost@zulip.example.com', 'x'), 401, 'AUTHENTICATION_FAILED', 'Your username or password is incorrect');
  }
  assertRateLimited(await login('ghost@zulip.example.com', 'x'), 1800);

  // Successful logins are not counted.
  for (let i = 0; i < 5; i++) assertSuccess(await login(desdemona.email, desdemona.password));
});

test('PARLANCE_RATE_LIMIT=0 turns off the per-user and per-IP limits', async () => {
  const hamlet = unlimited.as('hamlet');
  for (let i = 0; i < 25; i++) {
    const reply = await hamlet.get('/users/me');
    assertSuccess(reply);
    assert.equal(reply.headers['x-ratelimit-limit'], undefined);
  }
  const ip = freshIp();
  for (let i = 0; i < 10; i++) assertSuccess(await unlimited.anon().get('/server_settings', {}, { localAddress: ip }));
  // The failed-login limit has its own switch and stays on.
  const { cordelia } = unlimited.users;
  for (let i = 0; i < 3; i++) {
    assertError(await unlimited.anon().post('/fetch_api_key', { username: cordelia.email, password: 'wrong' }), 401, 'AUTHENTICATION_FAILED',
      'Your username or password is incorrect');
  }
  assertRateLimited(await unlimited.anon().post('/fetch_api_key', { username: cordelia.email, password: cordelia.password }), 1800);
});

test('behind a trusted reverse proxy (PARLANCE_TRUST_PROXY) the per-IP limit counts the forwarded client address', async () => {
  const proxied = await startTestServer({ env: { PARLANCE_RATE_LIMIT: '5', PARLANCE_RATE_LIMIT_IP: '2', PARLANCE_TRUST_PROXY: '127.0.0.0/8' } });
  try {
    const proxy = freshIp();
    const via = (client: string) => proxied.anon().get('/server_settings', {}, { localAddress: proxy, headers: { 'x-forwarded-for': client } });
    for (let i = 0; i < 2; i++) assertSuccess(await via('203.0.113.7'));
    assertRateLimited(await via('203.0.113.7'), 60);
    // Another client behind the same proxy has its own allowance.
    assertSuccess(await via('203.0.113.8'));
  } finally {
    await proxied.close();
  }
  // An untrusted peer cannot pick its address: the limited server counts the connection's own.
  const direct = freshIp();
  for (let i = 0; i < 3; i++) assertSuccess(await limited.anon().get('/server_settings', {}, { localAddress: direct, headers: { 'x-forwarded-for': `198.51.100.${i}` } }));
  assertRateLimited(await limited.anon().get('/server_settings', {}, { localAddress: direct, headers: { 'x-forwarded-for': '198.51.100.99' } }), 60);
});
