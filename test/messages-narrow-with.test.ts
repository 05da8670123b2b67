// The `with` narrow operator: a message id standing for the conversation the message is in now, in GET /messages,
// GET /messages/matches_narrow, POST /messages/flags/narrow and a queue's narrow.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { assertError, assertSuccess } from './helpers/assertions.js';
import { validateResponse } from './helpers/openapi-messages.js';
import { Listeners } from './helpers/events.js';
import { createChannel, fetchMessages, ids, sendDm, sendToChannel, takeUntil } from './helpers/messages.js';

let server: TestServer;
let denmark: number;
let secret: number;
before(async () => {
  server = await startTestServer();
  denmark = await createChannel(server, 'iago', ['hamlet', 'cordelia', 'iago']);
  secret = await createChannel(server, 'iago', ['iago'], { invite_only: true });
});
after(() => server.close());

const narrowWith = (id: number | string, extra: unknown[] = []) => JSON.stringify([{ operator: 'with', operand: id }, ...extra]);

test('a channel message: its current channel and topic, even after a move', async () => {
  const first = await sendToChannel(server, 'hamlet', denmark, 'castle', 'first');
  const second = await sendToChannel(server, 'cordelia', denmark, 'castle', 'second');
  await sendToChannel(server, 'cordelia', denmark, 'elsewhere', 'not in the conversation');
  assertSuccess(await server.as('iago').patch(`/messages/${first}`, { topic: 'ramparts', propagate_mode: 'change_all', send_notification_to_old_thread: false, send_notification_to_new_thread: false }));
  const body = await fetchMessages(server, 'hamlet', { narrow: narrowWith(second) });
  assert.deepEqual(validateResponse('GET /messages', body), []);
  assert.deepEqual(ids(body), [first, second]);
  // Conversation terms that no longer name it are replaced; other terms stay.
  const stale = await fetchMessages(server, 'hamlet', { narrow: narrowWith(second, [{ operator: 'topic', operand: 'castle' }, { operator: 'sender', operand: server.users.hamlet.id }]) });
  assert.deepEqual(ids(stale), [first]);
  const matches = assertSuccess(await server.as('hamlet').get('/messages/matches_narrow', { msg_ids: JSON.stringify([first, second]), narrow: narrowWith(first) }));
  assert.deepEqual(Object.keys(matches.messages).map(Number).sort(), [first, second].sort());
  const flagged = assertSuccess(await server.as('cordelia').post('/messages/flags/narrow', { anchor: 'oldest', num_before: 0, num_after: 100, narrow: narrowWith(first), op: 'add', flag: 'read' }));
  assert.equal(flagged.processed_count, 2);
});

test('a direct message: its conversation', async () => {
  const dm = await sendDm(server, 'hamlet', ['cordelia'], 'just us');
  const reply = await sendDm(server, 'cordelia', ['hamlet'], 'indeed');
  await sendDm(server, 'hamlet', ['cordelia', 'iago'], 'a group');
  assert.deepEqual(ids(await fetchMessages(server, 'hamlet', { narrow: narrowWith(dm) })), [dm, reply]);
  assert.deepEqual(ids(await fetchMessages(server, 'cordelia', { narrow: narrowWith(String(reply)) })), [dm, reply]);
});

test('a message the caller may not read: the narrow as given if it names a conversation, else an error', async () => {
  const hidden = await sendToChannel(server, 'iago', secret, 'plans', 'secret');
  const visible = await sendToChannel(server, 'hamlet', denmark, 'open', 'visible');
  const named = await fetchMessages(server, 'hamlet', { narrow: narrowWith(hidden, [{ operator: 'channel', operand: denmark }, { operator: 'topic', operand: 'open' }]) });
  assert.deepEqual(ids(named), [visible]);
  const invalid = "Invalid narrow operator: Invalid 'with' operator";
  assertError(await server.as('hamlet').get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: narrowWith(hidden) }), 400, 'BAD_NARROW', invalid);
  assertError(await server.as('hamlet').get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: narrowWith(999999) }), 400, 'BAD_NARROW', invalid);
  assertError(await server.as('hamlet').get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: narrowWith('castle') }), 400, 'BAD_NARROW', invalid);
  const twice = JSON.stringify([{ operator: 'with', operand: visible }, { operator: 'with', operand: visible }]);
  assertError(await server.as('hamlet').get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: twice }), 400, 'BAD_NARROW', "Duplicate 'with' operators.");
});

test("a queue's narrow", async () => {
  const seed = await sendToChannel(server, 'hamlet', denmark, 'queue topic', 'seed');
  const l = await Listeners.open(server, ['cordelia'], { event_types: JSON.stringify(['message']), narrow: JSON.stringify([['with', String(seed)]]) });
  await sendToChannel(server, 'hamlet', denmark, 'another topic', 'not this one');
  const inside = await sendToChannel(server, 'hamlet', denmark, 'queue topic', 'this one');
  const events = await takeUntil(l, 'cordelia', 'message', (e) => e.message.id === inside);
  assert.deepEqual(events.map((e) => e.message.id), [inside]);
});
