// Channel typing notifications stop past a channel size (the reference's MAX_STREAM_SIZE_FOR_TYPING_NOTIFICATIONS,
// here PARLANCE_MAX_CHANNEL_SIZE_FOR_TYPING, 100 by default): the size counts active subscribers only, as the
// reference's does, and is counted, not listed, so that typing in a channel of 50,000 costs what it costs in one
// of ten.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { Listeners } from './helpers/events.js';

let server: TestServer;
let crowd: number;
before(async () => {
  server = await startTestServer({ env: { PARLANCE_MAX_CHANNEL_SIZE_FOR_TYPING: '3' } });
  const principals = ['hamlet', 'cordelia', 'iago', 'shiva'].map((m) => server.users[m as 'hamlet'].id);
  assert.equal((await server.as('iago').post('/users/me/subscriptions', { subscriptions: [{ name: 'Crowd' }], principals })).status, 200);
  crowd = (await server.as('iago').get('/get_stream_id', { stream: 'Crowd' })).body.stream_id;
});
after(() => server.close());

const caps = { client_capabilities: JSON.stringify({ stream_typing_notifications: true }) };

test('no channel typing past the size limit; deactivated subscribers do not count', async () => {
  const l = await Listeners.open(server, ['cordelia'], caps);
  const typing = () => server.as('hamlet').post('/typing', { op: 'start', type: 'channel', stream_id: crowd, topic: 'plans' });
  const edit = async () => {
    const sent = await server.as('hamlet').post('/messages', { type: 'stream', to: crowd, topic: 'plans', content: 'draft' });
    return server.as('hamlet').post(`/messages/${sent.body.id}/typing`, { op: 'start' });
  };
  // Four subscribers, one more than the limit: accepted, and nobody is told.
  assert.equal((await typing()).status, 200);
  assert.equal((await edit()).status, 200);
  const typingEvents = async () => (await l.take('cordelia')).filter((e) => e.type === 'typing' || e.type === 'typing_edit_message').map((e) => e.type);
  assert.deepEqual(await typingEvents(), []);
  // Shiva deactivated: three active subscribers, within the limit.
  assert.equal((await server.as('desdemona').delete(`/users/${server.users.shiva.id}`)).status, 200);
  assert.equal((await typing()).status, 200);
  assert.equal((await edit()).status, 200);
  assert.deepEqual(await typingEvents(), ['typing', 'typing_edit_message']);
});
