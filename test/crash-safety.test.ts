// No acknowledged write is lost on kill -9: every send that got a success answer is there after a restart,
// with its per-recipient rows, and queues registered before the crash still receive it.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

test('kill -9 while 20 clients send 2,000 messages', async () => {
  const senders = ['hamlet', 'cordelia', 'shiva', 'iago'] as const;
  await server.as('hamlet').post('/users/me/subscriptions', {
    subscriptions: [{ name: 'Crash' }],
    principals: [server.users.hamlet.id, server.users.cordelia.id, server.users.shiva.id, server.users.iago.id, server.users.desdemona.id],
  });
  const reg = await server.as('desdemona').post('/register', { event_types: ['message', 'restart'], fetch_event_types: [] });
  const acked: number[] = [];
  let stopped = false;
  const client = async (c: number) => {
    for (let i = 0; i < 100 && !stopped; i++) {
      const who = senders[c % senders.length];
      const res = await server.as(who).post('/messages', { type: 'stream', to: 'Crash', topic: `t${c}`, content: `client ${c} message ${i}` }).catch(() => null);
      if (!res) return; // connection refused or reset: not acknowledged
      if (res.status === 200) acked.push(res.body.id);
    }
  };
  const clients = Array.from({ length: 20 }, (_, c) => client(c));
  await new Promise((r) => setTimeout(r, 400 + Math.random() * 800));
  await server.stop('SIGKILL');
  stopped = true;
  await Promise.all(clients);
  assert.ok(acked.length > 0, 'some sends were acknowledged before the kill');
  await server.start();

  const fetched = await server.as('cordelia').get('/messages', { anchor: 'newest', num_before: 5000, narrow: [['channel', 'Crash']] });
  assert.equal(fetched.status, 200, fetched.text);
  const present = new Set<number>(fetched.body.messages.map((m: { id: number }) => m.id));
  for (const id of acked) assert.ok(present.has(id), `acknowledged message ${id} lost`);
  // Every stored message is whole: each subscriber has its row (no "historical" reads), with the same set.
  const viewers = ['hamlet', 'shiva', 'desdemona'] as const;
  for (const who of viewers) {
    const res = await server.as(who).get('/messages', { anchor: 'newest', num_before: 5000, narrow: [['channel', 'Crash']] });
    const ids = res.body.messages.map((m: { id: number }) => m.id);
    assert.deepEqual(ids, [...present], who);
    for (const m of res.body.messages) assert.ok(!m.flags.includes('historical'), `${who} has no row for ${m.id}`);
  }
  // A queue from before the crash gets every message, once, then a restart event.
  const events = await server.as('desdemona').get('/events', { queue_id: reg.body.queue_id, last_event_id: -1, dont_block: true });
  assert.equal(events.status, 200, events.text);
  const delivered = events.body.events.filter((e: { type: string }) => e.type === 'message').map((e: { message: { id: number } }) => e.message.id);
  assert.deepEqual([...delivered].sort((a, b) => a - b), [...present].sort((a, b) => a - b));
  assert.equal(events.body.events.at(-1).type, 'restart');
});
