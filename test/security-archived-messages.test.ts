// Issue 23: messages of an archived channel can still be read, but no longer edited, moved, deleted or reacted
// to; the reference server refuses those as for a message the caller cannot access.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { assertError, createChannel, sendToChannel } from './helpers/messages.js';

let server: TestServer;
let message: number;
let elsewhere: number;
before(async () => {
  server = await startTestServer();
  const archived = await createChannel(server, 'iago', ['iago', 'hamlet', 'cordelia']);
  elsewhere = await createChannel(server, 'iago', ['iago', 'hamlet', 'cordelia']);
  message = await sendToChannel(server, 'hamlet', archived, 'old news', 'before the archive');
  assert.equal((await server.as('cordelia').post(`/messages/${message}/reactions`, { emoji_name: 'octopus' })).status, 200);
  const res = await server.as('iago').delete(`/streams/${archived}`);
  assert.equal(res.status, 200, res.text);
});
after(() => server.close());

const INVALID = 'Invalid message(s)';

test('editing, moving, deleting and reacting are refused', async () => {
  const h = server.as('hamlet');
  assertError(await h.patch(`/messages/${message}`, { content: 'rewritten' }), INVALID);
  assertError(await h.patch(`/messages/${message}`, { topic: 'renamed' }), INVALID);
  assertError(await server.as('iago').patch(`/messages/${message}`, { topic: 'renamed', propagate_mode: 'change_all' }), INVALID);
  assertError(await server.as('iago').patch(`/messages/${message}`, { stream_id: elsewhere }), INVALID);
  assertError(await h.delete(`/messages/${message}`), INVALID);
  assertError(await server.as('iago').delete(`/messages/${message}`), INVALID);
  assertError(await h.post(`/messages/${message}/reactions`, { emoji_name: 'tada' }), INVALID);
  assertError(await server.as('cordelia').delete(`/messages/${message}/reactions`, { emoji_name: 'octopus' }), INVALID);
  assertError(await h.post(`/messages/${message}/typing`, { op: 'start' }), INVALID);
});

test('the message is unchanged and still readable, with its history, and flags still change', async () => {
  const res = await server.as('cordelia').get(`/messages/${message}`);
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.raw_content, 'before the archive');
  assert.equal(res.body.message.subject, 'old news');
  assert.deepEqual(res.body.message.reactions.map((r: { emoji_name: string }) => r.emoji_name), ['octopus']);
  assert.equal((await server.as('cordelia').get(`/messages/${message}/history`)).status, 200);
  const star = await server.as('cordelia').post('/messages/flags', { messages: [message], op: 'add', flag: 'starred' });
  assert.equal(star.status, 200, star.text);
});
