import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type SeedName, type TestServer } from './helpers/server.js';
import { Listeners } from './helpers/events.js';

let server: TestServer;
let denmark: number;
let secret: number;
before(async () => {
  server = await startTestServer();
  denmark = await channel('Denmark', ['hamlet', 'cordelia', 'iago']);
  secret = await channel('Secret', ['hamlet', 'iago'], { invite_only: true });
});
after(() => server.close());

async function channel(name: string, members: SeedName[], extra: Record<string, unknown> = {}): Promise<number> {
  const res = await server.as('iago').post('/users/me/subscriptions', { subscriptions: [{ name }], principals: members.map((m) => server.users[m].id), ...extra });
  assert.equal(res.status, 200, res.text);
  return (await server.as('iago').get('/get_stream_id', { stream: name })).body.stream_id;
}

const who = (name: SeedName) => ({ user_id: server.users[name].id, email: server.users[name].email });
const strip = (events: Record<string, any>[]) => events.map(({ id: _id, ...e }) => e);
const streamCaps = { client_capabilities: JSON.stringify({ stream_typing_notifications: true, empty_topic_name: true }) };

function assertError(res: { status: number; body: any; text: string }, msg: string, code = 'BAD_REQUEST') {
  assert.equal(res.status, 400, res.text);
  assert.deepEqual([res.body.msg, res.body.code], [msg, code]);
}

test('direct typing reaches the conversation, the typist included', async () => {
  const l = await Listeners.open(server, ['hamlet', 'cordelia', 'iago']);
  for (const op of ['start', 'stop']) {
    const res = await server.as('hamlet').post('/typing', { op, to: JSON.stringify([server.users.cordelia.id]) });
    assert.equal(res.status, 200, res.text);
    const expected = [{ type: 'typing', message_type: 'direct', op, sender: who('hamlet'), recipients: [who('cordelia'), who('hamlet')] }];
    assert.deepEqual(strip(await l.take('cordelia')), expected);
    assert.deepEqual(strip(await l.take('hamlet')), expected);
    assert.deepEqual(await l.take('iago'), []);
  }
});

test('channel typing reaches subscribers whose clients handle it', async () => {
  const capable = await Listeners.open(server, ['cordelia'], streamCaps);
  const plain = await Listeners.open(server, ['iago']);
  const res = await server.as('hamlet').post('/typing', { op: 'start', type: 'stream', stream_id: denmark, topic: 'plans' });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(strip(await capable.take('cordelia')), [{ type: 'typing', message_type: 'stream', op: 'start', sender: who('hamlet'), stream_id: denmark, topic: 'plans' }]);
  assert.deepEqual(await plain.take('iago'), []);

  // "channel" is a synonym; the general chat is the empty topic, shown by name to clients without empty_topic_name.
  const old = await Listeners.open(server, ['cordelia'], { client_capabilities: JSON.stringify({ stream_typing_notifications: true }) });
  assert.equal((await server.as('hamlet').post('/typing', { op: 'stop', type: 'channel', stream_id: denmark, topic: 'general chat' })).status, 200);
  assert.equal((await capable.take('cordelia'))[0].topic, '');
  assert.equal((await old.take('cordelia'))[0].topic, 'general chat');
});

test('typing errors', async () => {
  const h = server.as('hamlet');
  assertError(await h.post('/typing', {}), "Missing 'op' argument", 'REQUEST_VARIABLE_MISSING');
  assertError(await h.post('/typing', { op: 'begin', to: '[1]' }), 'Invalid op');
  assertError(await h.post('/typing', { op: 'start', type: 'private', to: '[1]' }), 'Invalid type');
  assertError(await h.post('/typing', { op: 'start' }), "Missing 'to' argument");
  assertError(await h.post('/typing', { op: 'start', to: '[]' }), "Empty 'to' list");
  assertError(await h.post('/typing', { op: 'start', to: '[999999]' }), 'Invalid user ID 999999');
  assertError(await h.post('/typing', { op: 'start', type: 'stream', topic: 't' }), "Missing 'stream_id' argument");
  assertError(await h.post('/typing', { op: 'start', type: 'stream', stream_id: denmark }), 'Missing topic');
  assertError(await server.as('cordelia').post('/typing', { op: 'start', type: 'stream', stream_id: secret, topic: 't' }), 'Invalid channel ID');
  assertError(await h.post('/typing', { op: 'start', type: 'stream', stream_id: 999999, topic: 't' }), 'Invalid channel ID');
});

test('personal settings: not sending, not receiving', async () => {
  const l = await Listeners.open(server, ['hamlet', 'cordelia'], streamCaps);
  const c = server.as('cordelia');
  assert.equal((await c.patch('/settings', { receives_typing_notifications: false })).status, 200);
  try {
    assert.equal((await server.as('hamlet').post('/typing', { op: 'start', to: JSON.stringify([server.users.cordelia.id]) })).status, 200);
    assert.deepEqual(await l.take('cordelia', 'typing'), []);
    assert.equal((await l.take('hamlet', 'typing')).length, 1);
  } finally {
    await c.patch('/settings', { receives_typing_notifications: true });
  }
  assert.equal((await c.patch('/settings', { send_private_typing_notifications: false, send_stream_typing_notifications: false })).status, 200);
  try {
    assertError(await c.post('/typing', { op: 'start', to: JSON.stringify([server.users.hamlet.id]) }), 'User has disabled typing notifications for direct messages');
    assertError(await c.post('/typing', { op: 'start', type: 'stream', stream_id: denmark, topic: 't' }), 'User has disabled typing notifications for channel messages');
  } finally {
    await c.patch('/settings', { send_private_typing_notifications: true, send_stream_typing_notifications: true });
  }
});

test('typing while editing a message', async () => {
  const l = await Listeners.open(server, ['hamlet', 'cordelia', 'iago'], streamCaps);
  const h = server.as('hamlet');
  const id = (await h.post('/messages', { type: 'stream', to: 'Denmark', topic: 'edits', content: 'x' })).body.id;
  await l.clear();
  assert.equal((await h.post(`/messages/${id}/typing`, { op: 'start' })).status, 200);
  const expected = [{ type: 'typing_edit_message', op: 'start', sender_id: server.users.hamlet.id, message_id: id, recipient: { type: 'channel', channel_id: denmark, topic: 'edits' } }];
  for (const name of ['hamlet', 'cordelia', 'iago'] as const) assert.deepEqual(strip(await l.take(name)), expected);

  const dm = (await h.post('/messages', { type: 'private', to: [server.users.cordelia.id], content: 'y' })).body.id;
  await l.clear();
  assert.equal((await h.post(`/messages/${dm}/typing`, { op: 'stop' })).status, 200);
  const [ev] = strip(await l.take('cordelia'));
  assert.deepEqual({ ...ev, recipient: { ...ev.recipient, user_ids: [...ev.recipient.user_ids].sort() } }, {
    type: 'typing_edit_message', op: 'stop', sender_id: server.users.hamlet.id, message_id: dm,
    recipient: { type: 'direct', user_ids: [server.users.hamlet.id, server.users.cordelia.id].sort() },
  });
  assert.deepEqual(await l.take('iago'), []);

  assertError(await server.as('cordelia').post(`/messages/${id}/typing`, { op: 'start' }), "You don't have permission to edit this message");
  assertError(await server.as('cordelia').post(`/messages/999999/typing`, { op: 'start' }), 'Invalid message(s)');
  assertError(await h.post(`/messages/${id}/typing`, { op: 'go' }), 'Invalid op');
});
