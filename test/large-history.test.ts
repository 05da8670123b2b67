// Work of any size on a large history: a cross-channel move of a topic far larger than one batch, and a
// register for a user with 50,000 unread direct messages. What they cost is measured by the benchmark (B11); this
// checks they complete with the same outcome and events a small one has.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { startTestServer, type SeedName, type TestServer } from './helpers/server.js';
import { Listeners } from './helpers/events.js';
import { createChannel, sendDm, sendToChannel } from './helpers/messages.js';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

async function sendMany(who: SeedName, channel: number, topic: string, n: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < n; i += 20) {
    const batch = Array.from({ length: Math.min(20, n - i) }, (_, j) => sendToChannel(server, who, channel, topic, `message ${i + j}`));
    ids.push(...(await Promise.all(batch)));
  }
  return ids.sort((a, b) => a - b);
}

test('a topic of 450 messages moves to a private channel with protected history: every message, its rows, one notice', async () => {
  const from = await createChannel(server, 'iago', ['hamlet', 'cordelia', 'iago']);
  const to = await createChannel(server, 'iago', ['iago', 'shiva'], { invite_only: true, history_public_to_subscribers: false });
  const ids = await sendMany('hamlet', from, 'big', 450);
  const l = await Listeners.open(server, ['iago', 'cordelia', 'shiva'], { client_capabilities: JSON.stringify({ bulk_message_deletion: true }) });
  const res = await server.as('iago').patch(`/messages/${ids[0]}`, { stream_id: to, topic: 'moved', propagate_mode: 'change_all', send_notification_to_new_thread: true });
  assert.equal(res.status, 200, res.text);

  // Iago (subscribed to both) is told of every message, in update_message events that together name them all.
  const updates = await l.take('iago', 'update_message');
  assert.deepEqual(updates.flatMap((e) => e.message_ids).sort((a, b) => a - b), ids);
  for (const e of updates) assert.deepEqual([e.message_id, e.new_stream_id, e.orig_subject, e.subject], [ids[0], to, 'big', 'moved']);
  // Cordelia, not subscribed to the private channel, loses them all.
  const deleted = (await l.take('cordelia', 'delete_message')).flatMap((e) => e.message_ids);
  assert.deepEqual(deleted.sort((a, b) => a - b), ids);
  assert.equal((await server.as('cordelia').get(`/messages/${ids[200]}`)).status, 400);
  // Shiva, subscribed to the protected channel only, gained a row for each (that is what grants access there).
  const shiva = await server.as('shiva').get('/messages', { anchor: 'oldest', num_before: 0, num_after: 1000, narrow: JSON.stringify([['channel', to], ['topic', 'moved']]) });
  assert.deepEqual(shiva.body.messages.map((m: { id: number }) => m.id).filter((id: number) => ids.includes(id)), ids);
  for (const m of shiva.body.messages) if (ids.includes(m.id)) assert.deepEqual(m.flags, ['read']);
  // One notice, counting all of them.
  const notice = shiva.body.messages.find((m: { id: number }) => !ids.includes(m.id));
  assert.match(notice.content, /This topic was moved here from/);
  const left = await server.as('iago').get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: JSON.stringify([['channel', from], ['topic', 'big']]) });
  assert.deepEqual(left.body.messages.filter((m: { sender_id: number }) => m.sender_id === server.users.hamlet.id), []);
});

test('register for a user with 50,000 unread group direct messages lists every one of them', async () => {
  const first = await sendDm(server, 'iago', ['hamlet', 'cordelia'], 'the first');
  const n = 50_000;
  // Written in bulk as sends would leave them: the message, and each recipient's row (unread for hamlet and
  // cordelia) with the internal bit of direct messages.
  await server.withApp(async (app) => {
    const series = app.dialect === 'postgres'
      ? sql`generate_series(1, ${n - 1}) as n(i)`
      : sql`(with recursive n(i) as (select 1 union all select i + 1 from n where i < ${n - 1}) select i from n) as n`;
    await sql`insert into messages (realm_id, sender_id, recipient_id, stream_id, topic, topic_key, content, rendered_content, date_sent)
      select m.realm_id, m.sender_id, m.recipient_id, m.stream_id, m.topic, m.topic_key, m.content, m.rendered_content, m.date_sent + n.i
      from ${series} cross join (select * from messages where id = ${first}) as m`.execute(app.db);
    await sql`insert into user_messages (user_id, message_id, flags)
      select um.user_id, m.id, um.flags from messages m cross join user_messages um
      where um.message_id = ${first} and m.recipient_id = (select recipient_id from messages where id = ${first}) and m.id > ${first}`.execute(app.db);
  });
  const res = await server.as('hamlet').post('/register', { fetch_event_types: JSON.stringify(['message', 'update_message_flags', 'recent_private_conversations']) });
  assert.equal(res.status, 200, res.text);
  const huddles = res.body.unread_msgs.huddles;
  assert.equal(huddles.length, 1);
  const u = server.users;
  assert.equal(huddles[0].user_ids_string, [u.iago.id, u.hamlet.id, u.cordelia.id].sort((a, b) => a - b).join(','));
  assert.equal(huddles[0].unread_message_ids.length, n);
  assert.equal(res.body.unread_msgs.count, n);
  assert.equal(res.body.unread_msgs.old_unreads_missing, true);
  assert.deepEqual(res.body.recent_private_conversations[0].user_ids.sort(), [u.iago.id, u.cordelia.id].sort());
});
