import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { Listeners } from './helpers/events.js';
import { assertError, assertSuccess } from './helpers/assertions.js';
import { assertMatchesSchema } from './helpers/openapi.js';
import { validateRegisterResponse } from './helpers/openapi-register.js';

let server: TestServer;
let denmark: number;
before(async () => {
  server = await startTestServer({ env: { PARLANCE_SCHEDULED_POLL_MS: '200' } });
  await server.as('hamlet').post('/users/me/subscriptions', { subscriptions: [{ name: 'Denmark' }], principals: [server.users.hamlet.id, server.users.cordelia.id] });
  denmark = (await server.as('hamlet').get('/get_stream_id', { stream: 'Denmark' })).body.stream_id;
});
after(() => server.close());

const soon = (s: number) => Math.floor(Date.now() / 1000) + s;
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('schedule, list, edit, delete, with events', async () => {
  const l = await Listeners.open(server, ['hamlet']);
  const h = server.as('hamlet');
  const res = await h.post('/scheduled_messages', { type: 'stream', to: denmark, topic: 'later', content: 'Hello *later*', scheduled_delivery_timestamp: soon(3600) });
  assertMatchesSchema('/scheduled_messages', 'post', assertSuccess(res));
  const id = res.body.scheduled_message_id;
  const [add] = await l.take('hamlet', 'scheduled_messages');
  assert.equal(add.op, 'add');
  assert.deepEqual(add.scheduled_messages[0], {
    scheduled_message_id: id, type: 'stream', to: denmark, topic: 'later', content: 'Hello *later*',
    rendered_content: '<p>Hello <em>later</em></p>', scheduled_delivery_timestamp: add.scheduled_messages[0].scheduled_delivery_timestamp, failed: false,
  });
  const list = await h.get('/scheduled_messages');
  assertMatchesSchema('/scheduled_messages', 'get', assertSuccess(list));
  assert.equal(list.body.scheduled_messages.length, 1);
  const edit = await h.patch(`/scheduled_messages/${id}`, { type: 'direct', to: [server.users.cordelia.id], content: 'psst' });
  assertMatchesSchema('/scheduled_messages/{scheduled_message_id}', 'patch', assertSuccess(edit));
  const [upd] = await l.take('hamlet', 'scheduled_messages');
  assert.deepEqual([upd.op, upd.scheduled_message.type, upd.scheduled_message.to], ['update', 'private', [server.users.cordelia.id]]);
  assert.ok(!('topic' in upd.scheduled_message));
  const reg = await h.post('/register', { fetch_event_types: ['scheduled_messages'] });
  assert.deepEqual(validateRegisterResponse(assertSuccess(reg)), []);
  assert.equal(reg.body.scheduled_messages[0].content, 'psst');
  // The topic of a direct message is ignored.
  assertSuccess(await h.patch(`/scheduled_messages/${id}`, { topic: 'ignored' }));
  assert.ok(!('topic' in (await h.get('/scheduled_messages')).body.scheduled_messages[0]));
  await l.clear();
  assertMatchesSchema('/scheduled_messages/{scheduled_message_id}', 'delete', assertSuccess(await h.delete(`/scheduled_messages/${id}`)));
  const [rem] = await l.take('hamlet', 'scheduled_messages');
  assert.deepEqual([rem.op, rem.scheduled_message_id], ['remove', id]);
});

test('errors', async () => {
  const h = server.as('hamlet');
  const cases: [Record<string, unknown>, string, string?, Record<string, unknown>?][] = [
    [{ type: 'stream', to: 999999, topic: 't', content: 'x', scheduled_delivery_timestamp: soon(60) }, "Channel with ID '999999' does not exist", 'STREAM_DOES_NOT_EXIST', { stream_id: 999999 }],
    [{ type: 'direct', to: [10000], content: 'x', scheduled_delivery_timestamp: soon(60) }, 'Invalid user ID 10000'],
    [{ type: 'stream', to: denmark, topic: 't', content: 'x', scheduled_delivery_timestamp: soon(-10) }, 'Scheduled delivery time must be in the future.'],
  ];
  for (const [params, msg, code, extra] of cases) {
    const res = await h.post('/scheduled_messages', params);
    assert.equal(res.status, 400, JSON.stringify(params));
    assert.equal(res.body.msg, msg);
    assert.equal(res.body.code, code ?? 'BAD_REQUEST');
    for (const [k, v] of Object.entries(extra ?? {})) assert.equal(res.body[k], v);
  }
  assertError(await h.post('/scheduled_messages', { type: 'stream', to: denmark, content: 'x', scheduled_delivery_timestamp: soon(60) }), 400, 'BAD_REQUEST', 'Missing topic');
  assertError(await h.post('/scheduled_messages', { type: 'direct', to: [server.users.cordelia.id], content: ' ', scheduled_delivery_timestamp: soon(60) }), 400, 'BAD_REQUEST', 'Message must not be empty');
  const id = (await h.post('/scheduled_messages', { type: 'direct', to: [server.users.cordelia.id], content: 'x', scheduled_delivery_timestamp: soon(600) })).body.scheduled_message_id;
  assertError(await h.patch(`/scheduled_messages/${id}`, { to: [10000] }), 400, 'BAD_REQUEST', 'Invalid user ID 10000');
  assertError(await h.patch(`/scheduled_messages/${id}`, { scheduled_delivery_timestamp: soon(-5) }), 400, 'BAD_REQUEST', 'Scheduled delivery time must be in the future.');
  assert.equal((await h.patch(`/scheduled_messages/${id}`, { type: 'stream' })).body.msg, 'Recipient required when updating type of scheduled message.');
  assert.equal((await h.patch(`/scheduled_messages/${id}`, { type: 'stream', to: denmark })).body.msg, 'Topic required when updating scheduled message type to channel.');
  assert.equal((await h.patch(`/scheduled_messages/${id}`, {})).body.msg, 'Nothing to change');
  const bad = await h.patch(`/scheduled_messages/${id}`, { type: 'stream', to: 999999, topic: 't' });
  assert.deepEqual([bad.body.code, bad.body.stream_id], ['STREAM_DOES_NOT_EXIST', 999999]);
  for (const res of [await h.patch('/scheduled_messages/999999', { content: 'y' }), await server.as('cordelia').delete(`/scheduled_messages/${id}`)]) {
    assert.equal(res.status, 404);
    assert.deepEqual(res.body, { result: 'error', msg: 'Scheduled message does not exist', code: 'BAD_REQUEST' });
  }
});

test('delivered once at its time, also across a restart; failures are marked', async () => {
  const l = await Listeners.open(server, ['cordelia']);
  const h = server.as('hamlet');
  const first = await h.post('/scheduled_messages', { type: 'stream', to: denmark, topic: 'soon', content: 'on time', scheduled_delivery_timestamp: soon(2) });
  assert.equal(first.status, 200, first.text);
  await wait(3500);
  const got = (await l.take('cordelia', 'message')).map((e) => e.message.content);
  assert.deepEqual(got, ['on time']);
  assert.ok(!(await h.get('/scheduled_messages')).body.scheduled_messages.some((m: { content: string }) => m.content === 'on time'));

  // Due while the server is down: sent once after it comes back.
  await h.post('/scheduled_messages', { type: 'stream', to: denmark, topic: 'soon', content: 'after restart', scheduled_delivery_timestamp: soon(3) });
  await server.stop('SIGTERM');
  await wait(3500);
  await server.start();
  await wait(1500);
  const msgs = await server.as('cordelia').get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: [['channel', 'Denmark'], ['topic', 'soon']] });
  assert.equal(msgs.status, 200, msgs.text);
  assert.deepEqual(msgs.body.messages.map((m: { content: string }) => m.content), ['<p>on time</p>', '<p>after restart</p>']);

  // Not allowed any more at delivery time: failed, kept for the sender, then rescheduled.
  await h.post('/users/me/subscriptions', { subscriptions: [{ name: 'Inner circle' }], invite_only: true });
  const inner = (await h.get('/get_stream_id', { stream: 'Inner circle' })).body.stream_id;
  const lh = await Listeners.open(server, ['hamlet']);
  const doomed = (await h.post('/scheduled_messages', { type: 'stream', to: inner, topic: 'plans', content: 'too late', scheduled_delivery_timestamp: soon(3) })).body.scheduled_message_id;
  await server.as('iago').delete('/users/me/subscriptions', { subscriptions: ['Inner circle'], principals: [server.users.hamlet.id] });
  await wait(4500);
  const seen = await lh.take('hamlet');
  const failed = seen.filter((e) => e.type === 'scheduled_messages' && e.op === 'update');
  assert.equal(failed.length, 1);
  assert.equal(failed[0].scheduled_message.failed, true);
  // The reason reaches the sender as a direct message from the Notification Bot.
  const [notice] = seen.filter((e) => e.type === 'message').map((e) => e.message);
  assert.equal(notice.sender_full_name, 'Notification Bot');
  assert.equal(notice.type, 'private');
  assert.match(notice.content, /was not sent because of the following error:\n> Not authorized to send to channel 'Inner circle'/);
  const kept = (await h.get('/scheduled_messages')).body.scheduled_messages.find((m: { scheduled_message_id: number }) => m.scheduled_message_id === doomed);
  assert.equal(kept.failed, true);
  assert.equal((await h.patch(`/scheduled_messages/${doomed}`, { content: 'again' })).body.msg, 'Scheduled delivery time must be in the future.');
  const retry = await h.patch(`/scheduled_messages/${doomed}`, { to: denmark, topic: 'plans', scheduled_delivery_timestamp: soon(3600) });
  assert.equal(retry.status, 200, retry.text);
  const after = (await h.get('/scheduled_messages')).body.scheduled_messages.find((m: { scheduled_message_id: number }) => m.scheduled_message_id === doomed);
  assert.equal(after.failed, false);
});

test('per role: what a send would allow, scheduling allows', async () => {
  for (const who of ['desdemona', 'iago', 'shiva', 'cordelia', 'bot'] as const) {
    const res = await server.as(who).post('/scheduled_messages', { type: 'direct', to: [server.users.hamlet.id], content: `from ${who}`, scheduled_delivery_timestamp: soon(3600) });
    assertSuccess(res);
    const mine = (await server.as(who).get('/scheduled_messages')).body.scheduled_messages as { scheduled_message_id: number }[];
    assert.ok(mine.some((m) => m.scheduled_message_id === res.body.scheduled_message_id), who);
    assert.ok(!((await server.as('hamlet').get('/scheduled_messages')).body.scheduled_messages as { scheduled_message_id: number }[]).some((m) => m.scheduled_message_id === res.body.scheduled_message_id));
  }
  // A guest may not post to a public channel they are not subscribed to, so may not schedule there either.
  const guest = await server.as('polonius').post('/scheduled_messages', { type: 'stream', to: denmark, topic: 't', content: 'x', scheduled_delivery_timestamp: soon(60) });
  assertError(guest, 400, 'STREAM_DOES_NOT_EXIST', `Channel with ID '${denmark}' does not exist`, { stream_id: denmark });
  // The topic is stored as the send reads it: `(no topic)` is the empty topic.
  const empty = await server.as('hamlet').post('/scheduled_messages', { type: 'channel', to: denmark, topic: '(no topic)', content: 'x', scheduled_delivery_timestamp: soon(3600) });
  const stored = ((await server.as('hamlet').get('/scheduled_messages')).body.scheduled_messages as Record<string, unknown>[]).find((m) => m.scheduled_message_id === empty.body.scheduled_message_id)!;
  assert.deepEqual([stored.type, stored.topic], ['stream', '']);
});
