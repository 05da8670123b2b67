// Content of channels a user may not read never reaches their queues, whatever they registered with.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { Listeners } from './helpers/events.js';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

test('all_public_streams and narrows reach public channels only for users who may read them', async () => {
  await server.as('hamlet').post('/users/me/subscriptions', { subscriptions: [{ name: 'Open' }] });
  await server.as('hamlet').post('/users/me/subscriptions', { subscriptions: [{ name: 'Closed' }], invite_only: true });
  const all = await Listeners.open(server, ['polonius', 'cordelia'], { all_public_streams: true, event_types: ['message'] });
  const narrowed = await Listeners.open(server, ['polonius', 'cordelia'], { narrow: [['channel', 'Open']], event_types: ['message'] });
  await server.as('hamlet').post('/messages', { type: 'stream', to: 'Open', topic: 't', content: 'public' });
  await server.as('hamlet').post('/messages', { type: 'stream', to: 'Closed', topic: 't', content: 'private' });
  await new Promise((r) => setTimeout(r, 200));
  assert.deepEqual((await all.take('cordelia', 'message')).map((e) => e.message.content), ['public']);
  assert.deepEqual((await narrowed.take('cordelia', 'message')).map((e) => e.message.content), ['public']);
  assert.deepEqual(await all.take('polonius', 'message'), [], 'a guest does not read unsubscribed public channels');
  assert.deepEqual(await narrowed.take('polonius', 'message'), []);
});
