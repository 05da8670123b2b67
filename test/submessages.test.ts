// Submessages and the /poll and /todo widgets, as the mobile app renders and votes in them: the widget
// submessage a message starts with, POST /submessage, the `submessage` event and `submessages` on messages.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { assertError, assertSuccess } from './helpers/assertions.js';
import { Listeners } from './helpers/events.js';
import { validateEvent } from './helpers/openapi-events.js';
import { validateResponse } from './helpers/openapi-messages.js';
import { createChannel, sendDm, sendToChannel, takeUntil } from './helpers/messages.js';

let server: TestServer;
let denmark: number;
let secret: number;
before(async () => {
  server = await startTestServer();
  denmark = await createChannel(server, 'iago', ['hamlet', 'cordelia', 'iago']);
  secret = await createChannel(server, 'iago', ['iago'], { invite_only: true });
});
after(() => server.close());

const submessagesOf = async (who: 'hamlet' | 'cordelia', id: number) => {
  const body = assertSuccess(await server.as(who).get('/messages', { message_ids: JSON.stringify([id]) }));
  assert.deepEqual(validateResponse('GET /messages', body), []);
  return body.messages[0].submessages as { id: number; message_id: number; sender_id: number; msg_type: string; content: string }[];
};
const submit = (who: 'hamlet' | 'cordelia' | 'iago', id: number, content: unknown) =>
  server.as(who).post('/submessage', { message_id: id, msg_type: 'widget', content: JSON.stringify(content) });

test('a /poll message starts its widget; votes and options reach the readers as submessage events', async () => {
  const l = await Listeners.open(server, ['hamlet', 'cordelia', 'shiva']);
  const id = await sendToChannel(server, 'hamlet', denmark, 'lunch', '/poll Where shall we eat?\n- Pizza\n* Soup\n\nNoodles ✓');
  const [event] = await takeUntil(l, 'cordelia', 'message', (e) => e.message.id === id);
  assert.deepEqual(validateEvent(event), []);
  const widget = {
    widget_type: 'poll',
    extra_data: { question: 'Where shall we eat?', options: ['Pizza', 'Soup', 'Noodles ✓'] },
  };
  assert.equal(event.message.submessages.length, 1);
  const [first] = event.message.submessages;
  assert.deepEqual({ ...first, id: 0 }, { id: 0, message_id: id, sender_id: server.users.hamlet.id, msg_type: 'widget', content: '{"widget_type": "poll", "extra_data": {"question": "Where shall we eat?", "options": ["Pizza", "Soup", "Noodles \\u2713"]}}' });
  assert.deepEqual(JSON.parse(first.content), widget);
  assert.deepEqual(await submessagesOf('cordelia', id), [first]);

  const vote = { type: 'vote', key: 'canned,1', vote: 1 };
  assertSuccess(await submit('cordelia', id, vote));
  assertSuccess(await submit('cordelia', id, { type: 'new_option', idx: 1, option: 'Salad' }));
  assertSuccess(await submit('hamlet', id, { type: 'question', question: 'Where and when?' }));
  const events = await takeUntil(l, 'hamlet', 'submessage', (e) => e.content.includes('Where and when'));
  assert.equal(events.length, 3);
  for (const e of events) assert.deepEqual(validateEvent(e), []);
  assert.deepEqual({ ...events[0], id: 0, submessage_id: 0 }, {
    id: 0, type: 'submessage', msg_type: 'widget', message_id: id, submessage_id: 0, sender_id: server.users.cordelia.id, content: JSON.stringify(vote),
  });
  assert.equal((await l.take('cordelia', 'submessage')).length, 3);
  assert.deepEqual(await l.take('shiva', 'submessage'), [], 'not a subscriber, holds no row');
  const all = await submessagesOf('hamlet', id);
  assert.deepEqual(all.map((s) => s.id), [first.id, ...events.map((e) => e.submessage_id)]);
});

test('poll submessages are checked as the reference checks them', async () => {
  const id = await sendToChannel(server, 'hamlet', denmark, 'lunch', '/poll');
  const cases: [unknown, string][] = [
    [{ type: 'question', question: 'Mine now?' }, "You can't edit a question unless you are the author."],
    [{ type: 'vote', key: 'canned,0', vote: 2 }, 'Invalid poll data["vote"]'],
    [{ type: 'vote', key: 'canned,0' }, 'poll data["vote"] is missing'],
    [{ type: 'vote', key: 'canned,0', vote: 1, extra: true }, 'Unexpected arguments: extra'],
    [{ type: 'new_option', idx: 1001, option: 'Too far' }, 'poll data["idx"] is too large'],
    [{ type: 'shout' }, 'Unknown type for poll data: shout'],
    [['vote'], 'poll data is not a dict'],
  ];
  for (const [content, msg] of cases) assertError(await submit('cordelia', id, content), 400, 'BAD_REQUEST', msg);
  const raw = await server.as('cordelia').post('/submessage', { message_id: id, msg_type: 'widget', content: '{not json' });
  assertError(raw, 400, 'BAD_REQUEST', 'Invalid json for submessage');
  assert.deepEqual((await submessagesOf('hamlet', id)).length, 1);
});

test('a /todo message: its title and tasks, new tasks and strikes', async () => {
  const id = await sendDm(server, 'hamlet', ['cordelia'], '/todo Chores\n- Dishes: after dinner\n- Laundry');
  const [widget] = await submessagesOf('cordelia', id);
  assert.deepEqual(JSON.parse(widget.content), {
    widget_type: 'todo',
    extra_data: { task_list_title: 'Chores', tasks: [{ task: 'Dishes', desc: 'after dinner' }, { task: 'Laundry', desc: '' }] },
  });
  assertSuccess(await submit('cordelia', id, { type: 'new_task', key: 2, task: 'Sweep', desc: '', completed: false }));
  assertSuccess(await submit('cordelia', id, { type: 'strike', key: '0,canned' }));
  assertError(await submit('cordelia', id, { type: 'new_task_list_title', title: 'Mine' }), 400, 'BAD_REQUEST', "You can't edit the task list title unless you are the author.");
  assertError(await submit('cordelia', id, { type: 'new_task', key: 'two', task: 'x', desc: '', completed: false }), 400, 'BAD_REQUEST', 'todo data["key"] is not an integer');
  assertSuccess(await submit('hamlet', id, { type: 'new_task_list_title', title: 'Weekend chores' }));
  assert.equal((await submessagesOf('hamlet', id)).length, 4);
});

test('only the sender starts submessages; the message must be readable', async () => {
  const plain = await sendToChannel(server, 'hamlet', denmark, 'plain', 'no widget here');
  assertError(await submit('cordelia', plain, { type: 'vote', key: 'x', vote: 1 }), 400, 'BAD_REQUEST', 'You cannot attach a submessage to this message.');
  // The sender may attach anything: a message without a widget takes any JSON.
  assertSuccess(await submit('hamlet', plain, { anything: ['goes'] }));
  assertSuccess(await submit('cordelia', plain, { now: 'others may too' }));
  const hidden = await sendToChannel(server, 'iago', secret, 'poll', '/poll Secret?');
  assertError(await submit('hamlet', hidden, { type: 'vote', key: 'canned,0', vote: 1 }), 400, 'BAD_REQUEST', 'Invalid message(s)');
  assertError(await submit('hamlet', 999999, { type: 'vote', key: 'canned,0', vote: 1 }), 400, 'BAD_REQUEST', 'Invalid message(s)');
  assertError(await server.as('hamlet').post('/submessage', { message_id: plain, msg_type: 'widget' }), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'content' argument");
  // Submessages go with their message.
  assertSuccess(await server.as('iago').delete(`/messages/${plain}`));
  assertError(await submit('hamlet', plain, { after: 'deletion' }), 400, 'BAD_REQUEST', 'Invalid message(s)');
});
