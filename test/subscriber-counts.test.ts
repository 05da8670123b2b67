// subscriber_count in register's stream and subscription blocks and in GET /streams: counted once per register
// and kept between requests (src/store/subscriptions.ts subscriberCounts), so it must follow every change —
// subscribing, unsubscribing, and a subscriber's deactivation (deactivated users are not counted).
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';

let server: TestServer;
let id: number;
before(async () => {
  server = await startTestServer();
  const principals = [server.users.hamlet.id, server.users.cordelia.id, server.users.shiva.id];
  assert.equal((await server.as('iago').post('/users/me/subscriptions', { subscriptions: [{ name: 'Counted' }], principals })).status, 200);
  id = (await server.as('iago').get('/get_stream_id', { stream: 'Counted' })).body.stream_id;
});
after(() => server.close());

async function counts(): Promise<number[]> {
  const reg = await server.as('hamlet').post('/register', { fetch_event_types: JSON.stringify(['stream', 'subscription']) });
  assert.equal(reg.status, 200, reg.text);
  const streams = await server.as('hamlet').get('/streams');
  return [
    reg.body.streams.find((s: { stream_id: number }) => s.stream_id === id).subscriber_count,
    reg.body.subscriptions.find((s: { stream_id: number }) => s.stream_id === id).subscriber_count,
    streams.body.streams.find((s: { stream_id: number }) => s.stream_id === id).subscriber_count,
  ];
}

test('subscriber counts follow subscriptions and deactivations', async () => {
  assert.deepEqual(await counts(), [3, 3, 3]);
  assert.equal((await server.as('iago').post('/users/me/subscriptions', { subscriptions: [{ name: 'Counted' }] })).status, 200);
  assert.deepEqual(await counts(), [4, 4, 4]);
  assert.equal((await server.as('cordelia').delete('/users/me/subscriptions', { subscriptions: ['Counted'] })).status, 200);
  assert.deepEqual(await counts(), [3, 3, 3]);
  assert.equal((await server.as('desdemona').delete(`/users/${server.users.shiva.id}`)).status, 200);
  assert.deepEqual(await counts(), [2, 2, 2]);
});
