// The event-loop monitor: a stall of the serving process's event loop longer than PARLANCE_EVENT_LOOP_WARN_MS is
// logged (warn) with the requests that were running. The stall is made by a test-only module loaded into the
// server process (test/helpers/stall-preload.mjs), never by the server's code.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTestServer, type TestServer } from './helpers/server.js';
import { assertSuccess } from './helpers/assertions.js';

const PRELOAD = path.join(path.dirname(fileURLToPath(import.meta.url)), 'helpers/stall-preload.mjs');
const servers: TestServer[] = [];
after(() => Promise.all(servers.map((s) => s.close())));

// A server whose process loads the stall module (PARLANCE_SERVER_NODE_ARGS is read when it starts).
async function stallableServer(env: Record<string, string>): Promise<TestServer> {
  const before = process.env.PARLANCE_SERVER_NODE_ARGS;
  process.env.PARLANCE_SERVER_NODE_ARGS = `${before ?? ''} --import ${PRELOAD}`.trim();
  try {
    const server = await startTestServer({ env });
    servers.push(server);
    return server;
  } finally {
    if (before === undefined) delete process.env.PARLANCE_SERVER_NODE_ARGS;
    else process.env.PARLANCE_SERVER_NODE_ARGS = before;
  }
}

const warnings = (server: TestServer) =>
  server.stdout.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l)).filter((l) => /^event loop blocked/.test(l.msg ?? ''));

async function waitFor<T>(what: () => T | undefined, ms = 5000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = what();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

test('a stall over the threshold is logged as a warning naming the request that ran: method, route, user, time so far', async () => {
  const server = await stallableServer({ PARLANCE_EVENT_LOOP_WARN_MS: '100' });
  const hamlet = server.as('hamlet');
  assertSuccess(await hamlet.get('/users/me'));
  // A parked long-poll is in flight meanwhile: it is listed after the request that worked.
  const queue = assertSuccess(await server.as('cordelia').post('/register', { event_types: JSON.stringify(['message']) }));
  const poll = server.as('cordelia').get('/events', { queue_id: queue.queue_id, last_event_id: -1 });
  await new Promise((r) => setTimeout(r, 200));
  assertSuccess(await hamlet.request('GET', '/users/me', {}, { headers: { 'x-test-stall-ms': '400' } }));
  // The one about this request (on a busy machine, the process may also be kept waiting at other times).
  const stalled = (w: { requests: { route: string }[] }) => w.requests.some((r) => r.route === '/api/v1/users/me');
  const warning = await waitFor(() => warnings(server).find(stalled));
  assert.equal(warning.level, 40); // pino's warn
  assert.match(warning.msg, /^event loop blocked for \d+ ms$/);
  assert.ok(warning.event_loop_delay_ms > 100, JSON.stringify(warning));
  const requests: { method: string; route: string; user_id: number | null; running_ms: number }[] = warning.requests;
  const me = requests.findIndex((r) => r.route === '/api/v1/users/me');
  assert.deepEqual([requests[me].method, requests[me].user_id], ['GET', server.users.hamlet.id]);
  assert.ok(requests[me].running_ms >= 0);
  const parked = requests.findIndex((r) => r.route === '/api/v1/events' && r.user_id === server.users.cordelia.id);
  assert.ok(parked > me, JSON.stringify(warning));
  assert.ok(warning.requests_in_flight >= 2, JSON.stringify(warning));
  await server.as('hamlet').post('/messages', { type: 'private', to: JSON.stringify([server.users.cordelia.id]), content: 'wake up' });
  assertSuccess(await poll);
});

test('PARLANCE_EVENT_LOOP_WARN_MS=0 turns the check off', async () => {
  const server = await stallableServer({ PARLANCE_EVENT_LOOP_WARN_MS: '0' });
  assertSuccess(await server.as('hamlet').request('GET', '/users/me', {}, { headers: { 'x-test-stall-ms': '400' } }));
  assertSuccess(await server.as('hamlet').get('/users/me')); // a turn of the loop after the stall
  await new Promise((r) => setTimeout(r, 300));
  assert.deepEqual(warnings(server), []);
});
