import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import type { ParamValue } from './helpers/client.js';
import { startTestServer, type SeedName, type TestServer } from './helpers/server.js';
import { Listeners } from './helpers/events.js';
import { ageMessages, setRealmSettings } from './helpers/direct-db.js';

let server: TestServer;
let denmark: number;
before(async () => {
  server = await startTestServer();
  const u = server.users;
  await server.as('hamlet').post('/users/me/subscriptions', { subscriptions: [{ name: 'Denmark' }], principals: [u.hamlet.id, u.cordelia.id, u.iago.id] });
  denmark = await streamId('Denmark');
});
after(() => server.close());

async function streamId(name: string): Promise<number> {
  return (await server.as('iago').get('/get_stream_id', { stream: name })).body.stream_id;
}

async function send(who: SeedName, topic: string, content = 'hello', to: string | number = 'Denmark'): Promise<number> {
  const res = await server.as(who).post('/messages', { type: 'stream', to, topic, content });
  assert.equal(res.status, 200, res.text);
  return res.body.id;
}

async function fetch(who: SeedName, id: number) {
  const res = await server.as(who).get(`/messages/${id}`);
  assert.equal(res.status, 200, res.text);
  return res.body.message;
}

// Without the new-topic breadcrumb unless asked for (the notices are tested in message-notices.test.ts).
async function edit(who: SeedName, id: number, params: Record<string, ParamValue>) {
  return server.as(who).patch(`/messages/${id}`, { send_notification_to_new_thread: false, ...params });
}

function assertError(res: { status: number; body: any; text: string }, msg: string, code = 'BAD_REQUEST') {
  assert.equal(res.status, 400, res.text);
  assert.equal(res.body.msg, msg);
  assert.equal(res.body.code, code);
}

const CORDELIA_MENTION = "hi @**Cordelia, Lear's daughter**";

test('a content edit re-renders, records history, updates mention flags and tells the recipients', async () => {
  const l = await Listeners.open(server, ['hamlet', 'cordelia', 'shiva']);
  const id = await send('hamlet', 'edits');
  await l.clear();
  const res = await edit('hamlet', id, { content: CORDELIA_MENTION });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body.detached_uploads, []);

  const [ev] = await l.take('cordelia', 'update_message');
  assert.equal(typeof ev.edit_timestamp, 'number');
  const rendered = `<p>hi <span class="user-mention" data-user-id="${server.users.cordelia.id}">@Cordelia, Lear's daughter</span></p>`;
  assert.deepEqual({ ...ev, id: 0, edit_timestamp: 0 }, {
    type: 'update_message', id: 0, user_id: server.users.hamlet.id, edit_timestamp: 0, message_id: id, message_ids: [id], rendering_only: false,
    stream_name: 'Denmark', stream_id: denmark, orig_content: 'hello', orig_rendered_content: '<p>hello</p>', content: CORDELIA_MENTION,
    rendered_content: rendered, is_me_message: false, flags: ['mentioned'],
  });
  const [mine] = await l.take('hamlet', 'update_message');
  assert.deepEqual(mine.flags, ['read']);
  assert.deepEqual(await l.take('shiva', 'update_message'), []);

  const m = await fetch('cordelia', id);
  assert.equal(m.content, rendered);
  assert.ok(m.flags.includes('mentioned'));
  assert.equal(m.last_edit_timestamp, ev.edit_timestamp);
  assert.ok(!('last_moved_timestamp' in m));
  assert.deepEqual(m.edit_history, [{ user_id: server.users.hamlet.id, timestamp: ev.edit_timestamp, prev_content: 'hello', prev_rendered_content: '<p>hello</p>' }]);

  assert.equal((await edit('hamlet', id, { content: 'no mention now' })).status, 200);
  const again = await fetch('cordelia', id);
  assert.ok(!again.flags.includes('mentioned'));
  assert.equal(again.edit_history.length, 2);
  assert.equal(again.edit_history[0].prev_content, CORDELIA_MENTION);

  assert.equal((await edit('hamlet', id, { content: '  ' })).status, 200);
  assert.equal((await fetch('hamlet', id)).content, '<p>(deleted)</p>');
});

test('a direct message edit reaches its participants only', async () => {
  const l = await Listeners.open(server, ['hamlet', 'cordelia', 'iago']);
  const id = (await server.as('hamlet').post('/messages', { type: 'private', to: [server.users.cordelia.id], content: 'psst' })).body.id;
  await l.clear();
  assert.equal((await edit('hamlet', id, { content: 'psst!' })).status, 200);
  const [ev] = await l.take('cordelia', 'update_message');
  assert.equal(ev.content, 'psst!');
  assert.ok(!('stream_id' in ev) && !('stream_name' in ev) && !('propagate_mode' in ev));
  assert.deepEqual(ev.flags, []);
  assert.equal((await l.take('hamlet', 'update_message')).length, 1);
  assert.deepEqual(await l.take('iago', 'update_message'), []);
  assertError(await edit('hamlet', id, { topic: 'x' }), 'Direct messages cannot have topics.');
  assertError(await edit('hamlet', id, { stream_id: denmark }), 'Direct messages cannot be moved to channels.');
  assertError(await edit('iago', id, { content: 'x' }), 'Invalid message(s)');
});

test('topic moves follow propagate_mode', async () => {
  const l = await Listeners.open(server, ['cordelia']);
  const [a1, a2, a3, a4] = [await send('hamlet', 'alpha'), await send('cordelia', 'alpha'), await send('hamlet', 'alpha'), await send('cordelia', 'alpha')];
  await l.clear();
  const topicOf = async (id: number) => (await fetch('hamlet', id)).subject;

  assert.equal((await edit('hamlet', a2, { topic: 'beta' })).status, 200);
  assert.deepEqual([await topicOf(a1), await topicOf(a2), await topicOf(a3)], ['alpha', 'beta', 'alpha']);
  const [one] = await l.take('cordelia', 'update_message');
  assert.deepEqual([one.message_ids, one.orig_subject, one.subject, one.propagate_mode, one.topic_links, one.flags], [[a2], 'alpha', 'beta', 'change_one', [], ['read']]);
  assert.ok(!('content' in one) && !('new_stream_id' in one));
  const moved = await fetch('hamlet', a2);
  assert.equal(moved.last_moved_timestamp, one.edit_timestamp);
  assert.ok(!('last_edit_timestamp' in moved));
  assert.deepEqual(moved.edit_history, [{ user_id: server.users.hamlet.id, timestamp: one.edit_timestamp, prev_topic: 'alpha', topic: 'beta' }]);

  assert.equal((await edit('hamlet', a3, { topic: 'gamma', propagate_mode: 'change_later' })).status, 200);
  assert.deepEqual([await topicOf(a1), await topicOf(a3), await topicOf(a4)], ['alpha', 'gamma', 'gamma']);
  assert.deepEqual((await l.take('cordelia', 'update_message'))[0].message_ids, [a3, a4]);

  assert.equal((await edit('cordelia', a4, { topic: 'Delta', propagate_mode: 'change_all' })).status, 200);
  assert.deepEqual([await topicOf(a3), await topicOf(a4)], ['Delta', 'Delta']);
  const [all] = await l.take('cordelia', 'update_message');
  assert.deepEqual([all.message_ids, all.propagate_mode, all.user_id], [[a3, a4], 'change_all', server.users.cordelia.id]);
  assert.deepEqual((await fetch('hamlet', a4)).edit_history.map((e: any) => e.topic), ['Delta', 'gamma']);

  // Topics match case-insensitively; a topic that is unchanged is nothing to change.
  assert.equal((await edit('hamlet', a3, { topic: 'delta', propagate_mode: 'change_all' })).status, 200);
  assert.equal(await topicOf(a4), 'delta');
  assertError(await edit('hamlet', a3, { topic: 'delta' }), 'Nothing to change');
});

test('resolving and unresolving a topic is recorded but is not a move', async () => {
  const [r1, r2] = [await send('hamlet', 'bug'), await send('cordelia', 'bug')];
  assert.equal((await edit('cordelia', r1, { topic: '✔ bug', propagate_mode: 'change_all' })).status, 200);
  for (const id of [r1, r2]) {
    const m = await fetch('hamlet', id);
    assert.equal(m.subject, '✔ bug');
    assert.ok(!('last_moved_timestamp' in m) && !('last_edit_timestamp' in m));
    assert.deepEqual([m.edit_history[0].prev_topic, m.edit_history[0].topic], ['bug', '✔ bug']);
  }
  assert.equal((await edit('hamlet', r2, { topic: 'bug', propagate_mode: 'change_all' })).status, 200);
  assert.equal((await fetch('hamlet', r1)).subject, 'bug');
  assertError(await edit('hamlet', r1, { topic: '✔' }), 'General chat cannot be marked as resolved');
  assertError(await edit('hamlet', r1, { topic: '✔ general chat' }), 'General chat cannot be marked as resolved');

  await setRealmSettings(server, { can_resolve_topics_group: 'role:administrators' });
  try {
    assertError(await edit('hamlet', r1, { topic: '✔ bug' }), "You don't have permission to resolve topics in this channel.");
    // A rename is governed by the topic-moving setting, not the resolving one.
    assert.equal((await edit('hamlet', r1, { topic: '✔ bug, renamed' })).status, 200);
    assert.equal((await edit('iago', r2, { topic: '✔ bug' })).status, 200);
  } finally {
    await setRealmSettings(server, { can_resolve_topics_group: undefined });
  }
});

test('request errors', async () => {
  const id = await send('hamlet', 'errors');
  assertError(await edit('hamlet', 999999, { content: 'x' }), 'Invalid message(s)');
  assertError(await edit('hamlet', id, {}), 'Nothing to change');
  const bad = await edit('hamlet', id, { topic: 'x', propagate_mode: 'change_some' });
  assertError(bad, 'Invalid propagate_mode');
  assert.equal(bad.body.var_name, 'propagate_mode');
  assertError(await edit('hamlet', id, { content: 'x', propagate_mode: 'change_all' }), 'Invalid propagate_mode without topic edit');
  assertError(await edit('hamlet', id, { content: 'x', stream_id: await streamIdOrCreate('Elsinore') }), 'Cannot change message content while changing channel');
  assertError(await edit('cordelia', id, { content: 'x' }), "You don't have permission to edit this message");
});

async function streamIdOrCreate(name: string, extra: Record<string, unknown> = {}, members: SeedName[] = ['hamlet', 'cordelia']): Promise<number> {
  const res = await server.as('iago').post('/users/me/subscriptions', { subscriptions: [{ name }], principals: members.map((m) => server.users[m].id), ...extra });
  assert.equal(res.status, 200, res.text);
  return streamId(name);
}

test('content edits: organization switch and time limit', async () => {
  const id = await send('hamlet', 'limits');
  await setRealmSettings(server, { allow_message_editing: false });
  try {
    assertError(await edit('hamlet', id, { content: 'x' }), 'Your organization has turned off message editing');
  } finally {
    await setRealmSettings(server, { allow_message_editing: undefined });
  }
  await ageMessages(server, [id], 615);
  assert.equal((await edit('hamlet', id, { content: 'within the grace period' })).status, 200);
  await ageMessages(server, [id], 10);
  assertError(await edit('hamlet', id, { content: 'x' }), 'The time limit for editing this message has past');
  // Administrators have no exception for content; the limit can be lifted.
  await setRealmSettings(server, { message_content_edit_limit_seconds: null });
  try {
    assert.equal((await edit('hamlet', id, { content: 'no limit' })).status, 200);
  } finally {
    await setRealmSettings(server, { message_content_edit_limit_seconds: undefined });
  }
});

test('topic moves: permissions by role and group, and time limits', async () => {
  const id = await send('hamlet', 'perm');
  await setRealmSettings(server, { can_move_messages_between_topics_group: 'role:moderators' });
  try {
    assertError(await edit('cordelia', id, { topic: 'perm2' }), "You don't have permission to edit this message");
    assert.equal((await edit('shiva', id, { topic: 'perm2' })).status, 200);
    assert.equal((await edit('iago', id, { topic: 'perm3' })).status, 200);
    // The channel's own setting grants it too.
    const ch = await streamIdOrCreate('Kronborg', { can_move_messages_within_channel_group: JSON.stringify({ direct_members: [server.users.cordelia.id], direct_subgroups: [] }) });
    const k = await send('hamlet', 'perm', 'hello', ch);
    assert.equal((await edit('cordelia', k, { topic: 'perm2' })).status, 200);
    assertError(await edit('hamlet', k, { topic: 'perm3' }), "You don't have permission to edit this message");
  } finally {
    await setRealmSettings(server, { can_move_messages_between_topics_group: undefined });
  }

  await setRealmSettings(server, { move_messages_within_stream_limit_seconds: 60 });
  try {
    await ageMessages(server, [id], 200);
    assertError(await edit('cordelia', id, { topic: 'late' }), "The time limit for editing this message's topic has passed.");
    assert.equal((await edit('iago', id, { topic: 'late' })).status, 200);
    // Resolving has no time limit.
    assert.equal((await edit('cordelia', id, { topic: '✔ late' })).status, 200);

    // The topic holds the old message, the Notification Bot's resolve notice and a fresh one.
    const fresh = await send('hamlet', '✔ late');
    const res = await edit('cordelia', fresh, { topic: 'later', propagate_mode: 'change_all' });
    assertError(res, 'You only have permission to move the 2/3 most recent messages in this topic.', 'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED');
    assert.deepEqual([res.body.first_message_id_allowed_to_move, res.body.total_messages_in_topic, res.body.total_messages_allowed_to_move], [fresh - 1, 3, 2]);
    assert.equal((await edit('cordelia', fresh, { topic: 'later', propagate_mode: 'change_later' })).status, 200);
  } finally {
    await setRealmSettings(server, { move_messages_within_stream_limit_seconds: undefined });
  }
});

test('topic policies and topic creation apply to the destination', async () => {
  const id = await send('hamlet', 'policy');
  await setRealmSettings(server, { topics_policy: 'disable_empty_topic' });
  try {
    assertError(await edit('hamlet', id, { topic: '' }), 'Sending messages to the general chat is not allowed in this channel.');
  } finally {
    await setRealmSettings(server, { topics_policy: undefined });
  }
  assert.equal((await edit('hamlet', id, { topic: 'general chat' })).status, 200);
  assert.equal((await server.as('hamlet').get(`/messages/${id}`, { allow_empty_topic_name: true })).body.message.subject, '');

  const ch = await streamIdOrCreate('Closed', { can_create_topic_group: JSON.stringify({ direct_members: [server.users.iago.id], direct_subgroups: [] }) });
  await send('iago', 'existing', 'hi', ch);
  const c = await send('hamlet', 'existing', 'hi', ch);
  assertError(await edit('hamlet', c, { topic: 'brand new' }), 'You do not have permission to create new topics in this channel.');
});

test('events name the empty topic by its display name for clients without empty_topic_name', async () => {
  const modern = await Listeners.open(server, ['hamlet'], { client_capabilities: JSON.stringify({ empty_topic_name: true }) });
  const legacy = await Listeners.open(server, ['cordelia']);
  const id = await send('hamlet', 'named');
  await modern.clear();
  await legacy.clear();
  assert.equal((await edit('hamlet', id, { topic: '' })).status, 200);
  assert.deepEqual((await modern.take('hamlet', 'update_message')).map((e) => [e.orig_subject, e.subject]), [['named', '']]);
  assert.deepEqual((await legacy.take('cordelia', 'update_message')).map((e) => [e.orig_subject, e.subject]), [['named', 'general chat']]);
});
