// No acknowledged write is lost on kill -9: while 20 clients send 2,000 messages (to a channel and as group
// direct messages), the server is killed once a random number of sends has been acknowledged. After a restart
// every acknowledged message is there; every stored message is whole (one row per recipient, exactly one event
// in the log naming the same recipients); unread counts agree; and a queue registered before the crash receives
// every stored message once, then a restart event.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { consistencyProblems } from './helpers/consistency.js';
import { startTestServer, type SeedName, type TestServer } from './helpers/server.js';
import { withDb } from './helpers/direct-db.js';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

const CLIENTS = 20;
const PER_CLIENT = 100;

test('kill -9 at a random moment while 20 clients send 2,000 messages', async (t) => {
  const senders: SeedName[] = ['hamlet', 'cordelia', 'shiva', 'iago'];
  const channelMembers: SeedName[] = [...senders, 'desdemona'];
  const dmMembers: SeedName[] = ['shiva', 'desdemona', 'cordelia'];
  const id = (n: SeedName) => server.users[n].id;
  await server.as('hamlet').post('/users/me/subscriptions', { subscriptions: [{ name: 'Crash' }], principals: channelMembers.map(id) });
  const reg = await server.as('desdemona').post('/register', { event_types: ['message', 'restart'], fetch_event_types: [] });

  // The kill comes once this many sends are acknowledged: anywhere from early to nearly the end.
  const killAt = 50 + Math.floor(Math.random() * (CLIENTS * PER_CLIENT - 100));
  t.diagnostic(`killing after ${killAt} acknowledged sends`);
  const acked: number[] = [];
  const ackedBy: number[][] = Array.from({ length: CLIENTS }, () => []);
  let killed = false;
  const failures: string[] = [];
  const client = async (c: number) => {
    const dm = c % 4 === 3; // every fourth client sends group direct messages
    for (let i = 0; i < PER_CLIENT && !killed; i++) {
      const params = dm
        ? { type: 'direct', to: [id('desdemona'), id('cordelia')], content: `client ${c} dm ${i}` }
        : { type: 'stream', to: 'Crash', topic: `t${c}`, content: `client ${c} message ${i}` };
      const res = await server.as(dm ? 'shiva' : senders[c % senders.length]).post('/messages', params).catch(() => null);
      if (!res) return; // connection refused or reset: not acknowledged
      if (res.status !== 200) {
        if (!killed) failures.push(`${res.status} ${res.text}`);
        return;
      }
      acked.push(res.body.id);
      ackedBy[c].push(res.body.id);
      if (acked.length >= killAt && !killed) {
        killed = true;
        server.proc!.kill('SIGKILL');
      }
    }
  };

  await Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c)));
  assert.deepEqual(failures, [], 'sends refused before the kill');
  assert.ok(killed, 'the server was killed while clients were sending');
  await server.stop('SIGKILL');
  await server.start();

  // Every acknowledged message is there, for every recipient, with its own row (never "historical").
  const seen = new Map<SeedName, Set<number>>();
  for (const who of new Set([...channelMembers, ...dmMembers])) {
    const res = await server.as(who).get('/messages', { anchor: 'newest', num_before: 5000, num_after: 0, narrow: [] });
    assert.equal(res.status, 200, res.text);
    for (const m of res.body.messages) assert.ok(!m.flags.includes('historical'), `${who} has no row for ${m.id}`);
    seen.set(who, new Set(res.body.messages.map((m: { id: number }) => m.id)));
  }
  const all = seen.get('desdemona')!;
  for (const msg of acked) assert.ok(all.has(msg), `acknowledged message ${msg} lost`);

  // Nothing half-written: rows and logged events agree with each message's recipients.
  await withDb(server, async (db) => {
    const messages = await db.selectFrom('messages').select(['id', 'stream_id']).execute();
    const rows = await db.selectFrom('user_messages').select(['message_id', 'user_id']).execute();
    const events = (await db.selectFrom('events').select(['event', 'users']).execute())
      .map((e) => ({ event: JSON.parse(e.event), users: JSON.parse(e.users ?? 'null') }))
      .filter((e) => e.event.type === 'message');
    const stored = new Set(messages.map((m) => Number(m.id)));
    const recipients = new Map<number, number[]>();
    for (const r of rows) {
      assert.ok(stored.has(Number(r.message_id)), `row for missing message ${r.message_id}`);
      recipients.set(Number(r.message_id), [...(recipients.get(Number(r.message_id)) ?? []), Number(r.user_id)]);
    }
    const logged = new Map<number, number[]>();
    for (const e of events) {
      assert.ok(!logged.has(e.event.message.id), `two events for message ${e.event.message.id}`);
      logged.set(e.event.message.id, e.users.map((u: number | { id: number }) => (typeof u === 'number' ? u : u.id)));
    }
    for (const m of messages) {
      const expected = (m.stream_id === null ? dmMembers : channelMembers).map(id).sort((a, b) => a - b);
      assert.deepEqual([...(recipients.get(Number(m.id)) ?? [])].sort((a, b) => a - b), expected, `rows of message ${m.id}`);
      assert.deepEqual([...(logged.get(Number(m.id)) ?? [])].sort((a, b) => a - b), expected, `event of message ${m.id}`);
    }
    assert.equal(logged.size, messages.length, 'an event without its message');
  });

  assert.deepEqual(await consistencyProblems(server), []);

  // Unread state agrees: desdemona sent none of them and read none.
  const state = await server.as('desdemona').post('/register', { fetch_event_types: ['message', 'update_message_flags'], event_types: ['message'] });
  assert.equal(state.body.unread_msgs.count, all.size);

  // A queue from before the crash gets every message, once, then a restart event. Concurrent senders' messages
  // may commit out of id order; each client's messages arrive in the order it sent them.
  const events = await server.as('desdemona').get('/events', { queue_id: reg.body.queue_id, last_event_id: -1, dont_block: true });
  assert.equal(events.status, 200, events.text);
  const delivered = events.body.events.filter((e: { type: string }) => e.type === 'message').map((e: { message: { id: number } }) => e.message.id);
  assert.deepEqual([...delivered].sort((a, b) => a - b), [...all].sort((a, b) => a - b));
  assert.equal(new Set(delivered).size, delivered.length, 'a message delivered twice');
  for (const mine of ackedBy) assert.deepEqual(delivered.filter((m: number) => mine.includes(m)), mine);
  assert.equal(events.body.events.at(-1).type, 'restart');
});
