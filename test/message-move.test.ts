import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import type { ParamValue } from './helpers/client.js';
import { startTestServer, type SeedName, type TestServer } from './helpers/server.js';
import { Listeners } from './helpers/events.js';
import { ageMessages, setRealmSettings } from './helpers/direct-db.js';

let server: TestServer;
let denmark: number;
let verona: number;
let secret: number;
before(async () => {
  server = await startTestServer();
  denmark = await channel('Denmark', ['hamlet', 'cordelia', 'iago', 'polonius']);
  verona = await channel('Verona', ['hamlet', 'shiva']);
  secret = await channel('Secret', ['hamlet', 'iago'], { invite_only: true });
  await send('hamlet', 'first'); // so that Denmark's first message never moves
});
after(() => server.close());

async function channel(name: string, members: SeedName[], extra: Record<string, unknown> = {}): Promise<number> {
  const res = await server.as('iago').post('/users/me/subscriptions', { subscriptions: [{ name }], principals: members.map((m) => server.users[m].id), ...extra });
  assert.equal(res.status, 200, res.text);
  return (await server.as('iago').get('/get_stream_id', { stream: name })).body.stream_id;
}

async function send(who: SeedName, topic: string, to: number | string = 'Denmark'): Promise<number> {
  const res = await server.as(who).post('/messages', { type: 'stream', to, topic, content: `from ${who}` });
  assert.equal(res.status, 200, res.text);
  return res.body.id;
}

// Without the new-topic breadcrumb unless asked for (the notices are tested in message-notices.test.ts).
const move = (who: SeedName, id: number, params: Record<string, ParamValue>) =>
  server.as(who).patch(`/messages/${id}`, { send_notification_to_new_thread: false, ...params });

function assertError(res: { status: number; body: any; text: string }, msg: string) {
  assert.equal(res.status, 400, res.text);
  assert.deepEqual([res.body.msg, res.body.code], [msg, 'BAD_REQUEST']);
}

const bulk = { client_capabilities: JSON.stringify({ bulk_message_deletion: true }) };

test('moving to a public channel: guests lose access, the new subscribers read the messages from its history (no rows, as in the reference), everyone else is told', async () => {
  const l = await Listeners.open(server, ['hamlet', 'cordelia', 'polonius', 'shiva'], bulk);
  const [m1, m2] = [await send('hamlet', 'travel'), await send('cordelia', 'travel')];
  await l.clear();
  const res = await move('hamlet', m2, { stream_id: verona, propagate_mode: 'change_all' });
  assert.equal(res.status, 200, res.text);

  assert.deepEqual((await l.take('polonius')).map((e) => ({ ...e, id: 0 })), [
    { type: 'delete_message', id: 0, message_ids: [m1, m2], message_type: 'stream', stream_id: denmark, topic: 'travel' },
  ]);
  assertError(await server.as('polonius').get(`/messages/${m1}`), 'Invalid message(s)');

  const [ev] = await l.take('cordelia', 'update_message');
  assert.deepEqual([ev.message_id, ev.message_ids, ev.stream_id, ev.stream_name, ev.new_stream_id, ev.orig_subject, ev.propagate_mode], [m2, [m1, m2], denmark, 'Denmark', verona, 'travel', 'change_all']);
  assert.ok(!('subject' in ev) && !('content' in ev));
  assert.deepEqual(ev.flags, ['read']); // cordelia sent m2
  assert.equal((await l.take('shiva', 'update_message')).length, 1);
  assert.deepEqual((await server.as('shiva').get(`/messages/${m1}`)).body.message.flags, ['read', 'historical']);
  assert.equal((await server.as('cordelia').get(`/messages/${m1}`)).status, 200, 'a public channel stays readable');

  const firsts = (await l.take('hamlet', 'stream')).filter((e) => e.property === 'first_message_id');
  assert.deepEqual(firsts.map((e) => [e.stream_id, e.value]), [[verona, m1]]);

  const m = (await server.as('hamlet').get(`/messages/${m1}`)).body.message;
  assert.deepEqual([m.stream_id, m.display_recipient, m.subject, m.last_moved_timestamp], [verona, 'Verona', 'travel', ev.edit_timestamp]);
  assert.deepEqual(m.edit_history, [{ user_id: server.users.hamlet.id, timestamp: ev.edit_timestamp, prev_stream: denmark, stream: verona }]);
  const history = (await server.as('hamlet').get(`/messages/${m1}/history`)).body.message_history;
  assert.deepEqual([history[1].prev_stream, history[1].stream, history[1].topic], [denmark, verona, 'travel']);
});

test('moving to a private channel: non-subscribers lose the messages, in single form without bulk_message_deletion', async () => {
  const l = await Listeners.open(server, ['hamlet', 'cordelia']);
  const bulkL = await Listeners.open(server, ['polonius'], bulk);
  const [s1, s2] = [await send('hamlet', 'plans'), await send('cordelia', 'plans')];
  await l.clear();
  await bulkL.clear();
  const res = await move('iago', s1, { stream_id: secret, topic: 'the plans', propagate_mode: 'change_later' });
  assert.equal(res.status, 200, res.text);

  const deletions = (await l.take('cordelia')).map((e) => ({ ...e, id: 0 }));
  assert.deepEqual(deletions, [s1, s2].map((id) => ({ type: 'delete_message', id: 0, message_id: id, message_type: 'stream', stream_id: denmark, topic: 'plans' })));
  assert.deepEqual((await bulkL.take('polonius', 'delete_message')).map((e) => e.message_ids), [[s1, s2]]);
  assertError(await server.as('cordelia').get(`/messages/${s2}`), 'Invalid message(s)');
  assertError(await move('cordelia', s2, { content: 'mine' }), 'Invalid message(s)');

  const [ev] = await l.take('hamlet', 'update_message');
  assert.deepEqual([ev.new_stream_id, ev.orig_subject, ev.subject, ev.message_ids], [secret, 'plans', 'the plans', [s1, s2]]);
  const m = (await server.as('hamlet').get(`/messages/${s2}`)).body.message;
  assert.deepEqual([m.stream_id, m.subject], [secret, 'the plans']);
  assert.deepEqual(m.edit_history[0], { user_id: server.users.iago.id, timestamp: ev.edit_timestamp, prev_topic: 'plans', topic: 'the plans', prev_stream: denmark, stream: secret });
});

test('the destination must be a channel the mover can read and post to', async () => {
  const id = await send('cordelia', 'where');
  assertError(await move('cordelia', id, { stream_id: secret }), 'Invalid channel ID');
  assertError(await move('cordelia', id, { stream_id: 999999 }), 'Invalid channel ID');
  const announce = await channel('Announce', ['hamlet', 'cordelia'], {
    can_send_message_group: JSON.stringify({ direct_members: [server.users.iago.id], direct_subgroups: [] }),
  });
  assertError(await move('cordelia', id, { stream_id: announce }), 'You do not have permission to post in this channel.');
  assert.equal((await move('iago', id, { stream_id: announce })).status, 200);
  // Moving to the channel a message is in changes nothing.
  assertError(await move('iago', id, { stream_id: announce }), 'Nothing to change');
});

test('moving between channels: who may, and the time limit', async () => {
  const id = await send('hamlet', 'who');
  const harbor = await channel('Harbor', ['hamlet', 'polonius'], {
    can_move_messages_out_of_channel_group: JSON.stringify({ direct_members: [server.users.hamlet.id], direct_subgroups: [] }),
  });
  const p = await send('polonius', 'guest', harbor);
  await setRealmSettings(server, { can_move_messages_between_channels_group: 'role:administrators' });
  try {
    assertError(await move('hamlet', id, { stream_id: verona }), "You don't have permission to move this message");
    assertError(await move('polonius', p, { stream_id: denmark }), "You don't have permission to move this message");
    // The channel's setting lets hamlet move messages out of Harbor.
    assert.equal((await move('hamlet', p, { stream_id: verona })).status, 200);
    assert.equal((await move('iago', id, { stream_id: verona })).status, 200);
  } finally {
    await setRealmSettings(server, { can_move_messages_between_channels_group: undefined });
  }

  const old = await send('hamlet', 'old');
  await ageMessages(server, [old], 200);
  await setRealmSettings(server, { move_messages_between_streams_limit_seconds: 60 });
  try {
    assertError(await move('hamlet', old, { stream_id: verona }), "The time limit for editing this message's channel has passed");
    assert.equal((await move('shiva', old, { stream_id: verona })).status, 200, 'moderators have no limit');
  } finally {
    await setRealmSettings(server, { move_messages_between_streams_limit_seconds: undefined });
  }
});
