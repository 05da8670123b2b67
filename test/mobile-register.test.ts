// POST /register as the official mobile app (zulip-flutter) calls it: every value JSON-encoded, strings too
// (`idle_queue_timeout="mobile"` arrives with its quotes), and the register blocks it requires.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { assertError, assertSuccess } from './helpers/assertions.js';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

test('idle_queue_timeout takes a number of seconds or "mobile" (12 hours), JSON-encoded or raw', async () => {
  const reg = (value: unknown) => server.as('hamlet').post('/register', { fetch_event_types: [], idle_queue_timeout: value });
  assert.equal(assertSuccess(await reg('"mobile"')).idle_queue_timeout_secs, 12 * 3600);
  assert.equal(assertSuccess(await reg('mobile')).idle_queue_timeout_secs, 12 * 3600);
  assert.equal(assertSuccess(await reg(900)).idle_queue_timeout_secs, 900);
  assertError(await reg('"desktop"'), 400, 'BAD_REQUEST', 'Invalid idle_queue_timeout');
  assertError(await reg('1.5'), 400, 'BAD_REQUEST', 'Invalid idle_queue_timeout');
  assertError(await reg(8 * 24 * 3600), 400, 'BAD_REQUEST', 'idle_queue_timeout must be between 1 and 604800 seconds');
  // GET /events without a queue registers one with the same parameters.
  const events = await server.as('hamlet').get('/events', { dont_block: true, idle_queue_timeout: '"mobile"', event_types: ['message'] });
  assertSuccess(events);
});
