// Slow and abusive clients: headers or a body sent slowly are cut off (PARLANCE_HEADERS_TIMEOUT_SECONDS,
// PARLANCE_REQUEST_TIMEOUT_SECONDS) while a parked long-poll is not; one address cannot hold more than
// PARLANCE_MAX_CONNECTIONS_PER_IP connections and others are still served; oversized bodies are refused however
// they are framed; and the rate limits hold when requests arrive all at once.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { startTestServer, type TestServer } from './helpers/server.js';
import { assertSuccess } from './helpers/assertions.js';

let server: TestServer;
before(async () => {
  server = await startTestServer({
    env: {
      PARLANCE_HEADERS_TIMEOUT_SECONDS: '1', PARLANCE_REQUEST_TIMEOUT_SECONDS: '2', PARLANCE_HEARTBEAT_SECONDS: '4',
      PARLANCE_MAX_CONNECTIONS_PER_IP: '20', PARLANCE_MAX_FILE_UPLOAD_SIZE_MIB: '1',
      PARLANCE_RATE_LIMIT: '30', PARLANCE_AUTH_FAILURE_LIMIT: '3',
    },
  });
});
after(() => server.close());

const port = () => Number(new URL(server.url).port);

// A raw connection that writes `chunks` one at a time, `every` ms apart, until the server closes it (bounded).
// Resolves with what the server answered and how long the connection lasted.
function trickle(chunks: string[], every: number, localAddress = '127.0.0.1'): Promise<{ answer: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = net.connect({ port: port(), host: '127.0.0.1', localAddress });
    let answer = '';
    let i = 0;
    const timer = setInterval(() => {
      if (i < chunks.length && socket.writable) socket.write(chunks[i++]);
    }, every);
    const giveUp = setTimeout(() => socket.destroy(new Error('the server never cut the connection')), 15_000);
    socket.setEncoding('utf8').on('data', (d: string) => (answer += d));
    socket.on('close', () => {
      clearInterval(timer);
      clearTimeout(giveUp);
      resolve({ answer, ms: Date.now() - started });
    });
    socket.on('error', (err) => (err.message.includes('never cut') ? reject(err) : undefined));
  });
}

function envelope(answer: string, status: number): void {
  assert.match(answer, new RegExp(`^HTTP/1.1 ${status} `), answer);
  const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
  assert.equal(body.result, 'error', answer);
}

test('headers sent slowly are cut off with 408 after PARLANCE_HEADERS_TIMEOUT_SECONDS', async () => {
  const headers = ['GET /api/v1/server_settings HTTP/1.1\r\n', 'Host: x\r\n', ...Array.from({ length: 40 }, (_, i) => `X-Slow-${i}: y\r\n`)];
  const { answer, ms } = await trickle(headers, 200);
  envelope(answer, 408);
  assert.ok(ms < 10_000, `cut after ${ms} ms`);
});

test('a body sent slowly, or never, is cut off with 408 after PARLANCE_REQUEST_TIMEOUT_SECONDS', async () => {
  const head = (length: number) => `POST /api/v1/fetch_api_key HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${length}\r\n\r\n`;
  const slow = await trickle([head(400), ...Array.from({ length: 40 }, () => 'username=x&')], 200);
  envelope(slow.answer, 408);
  const never = await trickle([head(1_000_000), 'username='], 200);
  envelope(never.answer, 408);
  assert.ok(slow.ms < 10_000 && never.ms < 10_000, `cut after ${slow.ms} and ${never.ms} ms`);
  assertSuccess(await server.anon().get('/server_settings'));
});

test('a parked long-poll outlives the request timeout and gets its heartbeat', async () => {
  const reg = assertSuccess(await server.as('cordelia').post('/register', { event_types: ['message'], fetch_event_types: [] }));
  const poll = assertSuccess(await server.as('cordelia').get('/events', { queue_id: reg.queue_id, last_event_id: reg.last_event_id }));
  assert.deepEqual(poll.events.map((e: { type: string }) => e.type), ['heartbeat']);
});

// Sends `head`, then up to `count` chunks while the server keeps reading, and resolves with the answer. A server
// that answers and closes while data it did not read is still arriving resets the connection (and the answer may
// be lost with it): that is a refusal too, so it resolves with ''.
function rawExchange(head: string, chunks: string[]): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect({ port: port(), host: '127.0.0.1' });
    let answer = '';
    socket.setEncoding('utf8').on('data', (d: string) => (answer += d)).on('error', () => {});
    socket.on('close', () => resolve(answer));
    socket.write(head);
    const write = (i: number): void => {
      if (i >= chunks.length || answer || !socket.writable) return;
      if (socket.write(chunks[i])) setImmediate(() => write(i + 1));
      else socket.once('drain', () => write(i + 1));
    };
    write(0);
  });
}

test('an oversized body is refused with 413 whether or not it declares its length', async () => {
  const auth = server.as('hamlet').headers().authorization;
  const head = (framing: string) => `POST /api/v1/messages/render HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth}\r\nContent-Type: application/x-www-form-urlencoded\r\n${framing}\r\nConnection: close\r\n\r\n`;
  // A declared length over the limit (2 MiB here) is refused before any of the body is read.
  envelope(await rawExchange(head(`Content-Length: ${3 * 1024 * 1024}`), []), 413);
  // Without a declared length, the server reads up to the limit, then refuses.
  const chunk = 'a'.repeat(64 * 1024);
  const chunked = await rawExchange(head('Transfer-Encoding: chunked'), Array.from({ length: 48 }, () => `${chunk.length.toString(16)}\r\n${chunk}\r\n`));
  if (chunked) envelope(chunked, 413);
  assertSuccess(await server.as('hamlet').post('/messages/render', { content: 'still fine' }));
});

test('one address holds at most PARLANCE_MAX_CONNECTIONS_PER_IP connections; others are still served', async () => {
  const hog = '127.0.0.5';
  const held = await Promise.all(Array.from({ length: 20 }, () => new Promise<net.Socket>((resolve, reject) => {
    const s = net.connect({ port: port(), host: '127.0.0.1', localAddress: hog }, () => resolve(s));
    s.on('error', reject);
  })));
  try {
    await sleep(50);
    const refused = await trickle(['GET /api/v1/server_settings HTTP/1.1\r\nHost: x\r\n\r\n'], 1, hog);
    envelope(refused.answer, 429);
    assertSuccess(await server.anon().get('/server_settings', {}, { localAddress: '127.0.0.6' }));
  } finally {
    held.forEach((s) => s.destroy());
  }
  await sleep(100);
  assertSuccess(await server.anon().get('/server_settings', {}, { localAddress: hog }));
});

test('rate limits hold when requests arrive all at once', async () => {
  // From several addresses, each within its connection cap: the per-user limit is what is tested.
  const replies = await Promise.all(Array.from({ length: 60 }, (_, i) => server.as('shiva').get('/users/me', {}, { localAddress: `127.0.3.${(i % 6) + 1}` })));
  const statuses = replies.map((r) => r.status).sort();
  assert.equal(statuses.filter((s) => s === 200).length, 30, statuses.join(' '));
  assert.equal(statuses.filter((s) => s === 429).length, 30, statuses.join(' '));

  // Failed logins: concurrent guesses cannot all be tried before the first failure is counted.
  const { email, password } = server.users.iago;
  const guesses = await Promise.all(Array.from({ length: 20 }, (_, i) => server.anon().post('/fetch_api_key', { username: email, password: `guess ${i}` }, { localAddress: `127.0.1.${i + 1}` })));
  const tried = guesses.filter((r) => r.status === 401).length;
  assert.equal(tried, 3, guesses.map((r) => r.status).join(' '));
  assert.equal(guesses.filter((r) => r.status === 429).length, 17);
  assert.equal((await server.anon().post('/fetch_api_key', { username: email, password }, { localAddress: '127.0.2.1' })).status, 429);
});
