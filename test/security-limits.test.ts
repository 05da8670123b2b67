// Limits that protect the server and its users (issues 15 and 23): the size of a search, the failed-password
// counter shared by every endpoint that checks a password, wrong API keys counted per address, and the
// WWW-Authenticate challenge exactly where the reference server sends it.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { send } from './helpers/client.js';
import { assertError, assertSuccess, assertUnauthorized, BASIC_CHALLENGE } from './helpers/assertions.js';
import { sendToChannel, createChannel } from './helpers/messages.js';

let server: TestServer;
before(async () => {
  server = await startTestServer({ env: { PARLANCE_RATE_LIMIT: '1000', PARLANCE_RATE_LIMIT_IP: '4', PARLANCE_AUTH_FAILURE_LIMIT: '3' } });
});
after(() => server?.close());

let nextAddress = 2;
const freshIp = () => `127.0.0.${nextAddress++}`;
const RATE_LIMIT_MSG = 'API usage exceeded rate limit; see https://zulip.com/api/http-headers#rate-limiting-response-headers';

const words = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `zz${from + i}q`);
const body = { encoding: 'urlencoded' as const };

test('a search of more than 100 words and phrases is 400 BAD_NARROW, wherever a narrow is accepted', async () => {
  const channel = await createChannel(server, 'iago', ['hamlet']);
  const id = await sendToChannel(server, 'iago', channel, 'search', `${words(100).join(' ')} "${words(1)[0]}"`);
  const h = server.as('hamlet');
  const fetch = (narrow: unknown) => h.get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow }, body);
  const TOO_MANY = 'Invalid narrow: more than 100 search words and phrases';
  // 100 words, or 99 words and a phrase, are searched (and found).
  const found = assertSuccess(await fetch([{ operator: 'search', operand: words(100).join(' ') }]));
  assert.deepEqual(found.messages.map((m: { id: number }) => m.id), [id]);
  assertSuccess(await fetch([{ operator: 'search', operand: `${words(99).join(' ')} "${words(1)[0]}"` }]));
  // A phrase counts once as a phrase and once for each of its words.
  assert.equal(assertSuccess(await fetch([{ operator: 'search', operand: words(50).map((w) => `"${w}"`).join(' ') }])).messages.length, 1);
  // Beyond: in one operand, phrases (each a condition of the query) or words, or several operands together.
  assertError(await fetch([{ operator: 'search', operand: words(101).join(' ') }]), 400, 'BAD_NARROW', TOO_MANY);
  assertError(await fetch([{ operator: 'search', operand: words(3000).map((w) => `"${w}"`).join(' ') }]), 400, 'BAD_NARROW', TOO_MANY);
  assertError(await fetch([['search', words(60).join(' ')], ['search', words(60, 60).join(' ')]]), 400, 'BAD_NARROW', TOO_MANY);
  assertError(await fetch([{ operator: 'search', operand: words(101).join(' '), negated: true }]), 400, 'BAD_NARROW', TOO_MANY);
  const narrow = [['search', words(101).join(' ')]];
  assertError(await h.get('/messages/matches_narrow', { msg_ids: [id], narrow }, body), 400, 'BAD_NARROW', TOO_MANY);
  assertError(await h.post('/messages/flags/narrow', { anchor: 'newest', num_before: 10, num_after: 0, narrow, op: 'add', flag: 'read' }), 400, 'BAD_NARROW', TOO_MANY);
  assertError(await h.post('/register', { narrow }), 400, 'BAD_NARROW', TOO_MANY);
});

const login = (username: string, password: string) => server.anon().post('/fetch_api_key', { username, password }, { localAddress: freshIp() });
const changePassword = (name: 'shiva' | 'cordelia' | 'hamlet', oldPassword: string) =>
  server.as(name).patch('/settings', { old_password: oldPassword, new_password: server.users[name].password });
const WRONG = 'Wrong password!';

test("PATCH /settings's old_password counts failures against the failed-login limit, and refuses past it as the reference does", async () => {
  const { shiva } = server.users;
  for (let i = 0; i < 3; i++) assertError(await changePassword('shiva', `guess ${i}`), 400, 'BAD_REQUEST', WRONG);
  // Past the limit even the right password is refused, for the rest of the window (30 minutes by default).
  const refused = assertError(await changePassword('shiva', shiva.password), 400, 'BAD_REQUEST', /^You're making too many attempts! Try again in \d+ seconds\.$/);
  assert.ok(Number(/in (\d+) seconds/.exec(refused.msg)![1]) > 1700, refused.msg);
  // The same account's logins are refused too: one counter per account.
  assertError(await login(shiva.email, shiva.password), 429, 'RATE_LIMIT_HIT', RATE_LIMIT_MSG);
  // The API key keeps working, and other accounts are not affected.
  assertSuccess(await server.as('shiva').get('/users/me'));
  assertSuccess(await changePassword('hamlet', server.users.hamlet.password));
});

test('failed logins and failed old_password checks of one account add up', async () => {
  const { cordelia } = server.users;
  assertError(await login(cordelia.email, 'guess 1'), 401, 'AUTHENTICATION_FAILED', 'Your username or password is incorrect');
  assertError(await changePassword('cordelia', 'guess 2'), 400, 'BAD_REQUEST', WRONG);
  // Successes give their attempt back.
  assertSuccess(await changePassword('cordelia', cordelia.password));
  assertSuccess(await login(cordelia.email, cordelia.password));
  assertError(await login(cordelia.email.toUpperCase(), 'guess 3'), 401, 'AUTHENTICATION_FAILED', 'Your username or password is incorrect');
  assertError(await changePassword('cordelia', cordelia.password), 400, 'BAD_REQUEST', /^You're making too many attempts!/);
  assertError(await login(cordelia.email, cordelia.password), 429, 'RATE_LIMIT_HIT', RATE_LIMIT_MSG);
});

const basic = (user: string, key: string) => 'Basic ' + Buffer.from(`${user}:${key}`).toString('base64');
const me = (authorization: string | undefined, ip: string) =>
  send('GET', new URL('/api/v1/users/me', server.url), authorization === undefined ? {} : { authorization }, undefined, ip);

test('requests whose credentials fail count against their address (PARLANCE_RATE_LIMIT_IP), then get 429', async () => {
  const { iago } = server.users;
  const ip = freshIp();
  for (const authorization of [basic(iago.email, 'x'.repeat(32)), basic('nobody@zulip.example.com', iago.apiKey), undefined, basic(iago.email, '')]) {
    assertUnauthorized(await me(authorization, ip), authorization ? 'Invalid API key' : 'Not logged in: API authentication or user session required');
  }
  const refused = await me(basic(iago.email, 'y'.repeat(32)), ip);
  assertError(refused, 429, 'RATE_LIMIT_HIT', RATE_LIMIT_MSG);
  assert.ok(refused.body['retry-after'] > 0 && refused.body['retry-after'] <= 60, refused.text);
  assert.match(String(refused.headers['retry-after']), /^\d+$/);
  assertError(await me(undefined, ip), 429, 'RATE_LIMIT_HIT', RATE_LIMIT_MSG);
  // The right key still works from that address (it counts against its user), and other addresses are not limited.
  assertSuccess(await me(basic(iago.email, iago.apiKey), ip));
  assertUnauthorized(await me(basic(iago.email, 'x'.repeat(32)), freshIp()), 'Invalid API key');
});

test('WWW-Authenticate as the reference server sends it: on the 401s of API authentication only', async () => {
  const { hamlet } = server.users;
  const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64');
  // A scheme other than Basic is a plain 400, without a challenge.
  for (const authorization of [`Bearer ${hamlet.apiKey}`, `Token ${hamlet.apiKey}`]) {
    const reply = await me(authorization, freshIp());
    assertError(reply, 400, 'BAD_REQUEST', 'This endpoint requires HTTP basic authentication.');
    assert.equal(reply.headers['www-authenticate'], undefined);
  }
  // A Basic header that is not one "user:key" pair: 401 with the challenge.
  for (const authorization of ['Basic', `Basic ${b64(hamlet.email + hamlet.apiKey)}`, `Basic ${b64(`${hamlet.email}:${hamlet.apiKey}:x`)}`,
    `Basic ${b64(Buffer.from([0x66, 0x3a, 0xff, 0xfe]))}`, `Basic ${b64(`${hamlet.email}:${hamlet.apiKey}`)} extra`, `Digest username="${hamlet.email}", realm="zulip"`]) {
    assertUnauthorized(await me(authorization, freshIp()), 'Invalid authorization header for basic auth');
  }
  // Missing or wrong credentials: 401 with the challenge (assertUnauthorized checks it).
  assertUnauthorized(await me(undefined, freshIp()), 'Not logged in: API authentication or user session required');
  assertUnauthorized(await me(basic(hamlet.email, 'z'.repeat(32)), freshIp()), 'Invalid API key');
  assert.equal((await me(basic(hamlet.email, 'z'.repeat(32)), freshIp())).headers['www-authenticate'], BASIC_CHALLENGE);
  // A failed password exchange is not an API authentication: 401 without a challenge.
  const failed = await login(hamlet.email, 'not the password');
  assertError(failed, 401, 'AUTHENTICATION_FAILED', 'Your username or password is incorrect');
  assert.equal(failed.headers['www-authenticate'], undefined);
});
