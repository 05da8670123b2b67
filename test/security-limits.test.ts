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
  const fetch = (narrow: unknown) => h.get('/messages', { anchor: 'newest', num_before: 10, narrow }, body);
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
