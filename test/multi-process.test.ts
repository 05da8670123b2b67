// Two server processes over one database, as behind a load balancer without sticky routing: events made on
// either reach queues polled on either, a queue may be polled on any process, one process killed loses nothing
// for the other, and the work that must happen once (scheduled messages) happens once. Each way processes learn
// of new events is exercised: reading the log (SQLite), PostgreSQL's LISTEN/NOTIFY, and Redis when REDIS_URL
// is set. The log is read only every 60 s here, so a prompt delivery proves the notice worked.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type SeedName, type TestServer } from './helpers/server.js';
import { eventually } from './helpers/events.js';
import { createChannel, sendToChannel } from './helpers/messages.js';
import { fetchFile, uploaded } from './helpers/uploads.js';

const postgres = !!process.env.DATABASE_URL;
const buses: { name: string; env: Record<string, string>; notices: boolean }[] = [
  { name: 'the event log read every 250 ms', env: { REDIS_URL: '', PARLANCE_EVENT_LOG_POLL_MS: '250' }, notices: false },
  ...(postgres ? [{ name: 'PostgreSQL notices', env: { REDIS_URL: '', PARLANCE_EVENT_LOG_POLL_MS: '60000' }, notices: true }] : []),
  ...(process.env.REDIS_URL ? [{ name: 'Redis notices', env: { PARLANCE_EVENT_LOG_POLL_MS: '60000' }, notices: true }] : []),
];

interface Queue {
  id: string;
  last: number;
}

async function register(server: TestServer, who: SeedName, params: Record<string, unknown> = {}): Promise<Queue> {
  const res = await server.as(who).post('/register', { event_types: ['message'], fetch_event_types: [], ...params });
  assert.equal(res.status, 200, res.text);
  return { id: res.body.queue_id, last: res.body.last_event_id };
}

// Polls `server` for the queue (blocking), acknowledging what earlier polls returned, until `found`.
async function pollUntil(server: TestServer, who: SeedName, q: Queue, found: (events: Record<string, any>[]) => boolean, ms = 5000): Promise<Record<string, any>[]> {
  const seen: Record<string, any>[] = [];
  const end = Date.now() + ms;
  while (!found(seen)) {
    assert.ok(Date.now() < end, `not within ${ms} ms; got ${JSON.stringify(seen.map((e) => e.type))}`);
    const res = await server.as(who).get('/events', { queue_id: q.id, last_event_id: q.last });
    assert.equal(res.status, 200, res.text);
    const events = res.body.events as Record<string, any>[];
    if (events.length) q.last = events.at(-1)!.id;
    seen.push(...events.filter((e) => e.type !== 'heartbeat'));
  }
  return seen;
}

const messages = (events: Record<string, any>[]) => events.filter((e) => e.type === 'message').map((e) => e.message.content as string);

for (const bus of buses) {
  describe(`two processes, ${bus.name}`, () => {
    let a: TestServer;
    let b: TestServer;
    before(async () => {
      a = await startTestServer({ env: { ...bus.env, PARLANCE_HEARTBEAT_SECONDS: '5' } });
      b = await a.startPeer();
    });
    after(async () => {
      await b?.stop('SIGKILL');
      await a?.close();
    });

    test('a message sent on one process reaches parked polls on both', async () => {
      const channel = await createChannel(a, 'iago', ['iago', 'hamlet', 'cordelia']);
      const onA = await register(a, 'hamlet');
      const onB = await register(b, 'cordelia');
      const started = Date.now();
      const polls = [pollUntil(a, 'hamlet', onA, (e) => messages(e).length > 0), pollUntil(b, 'cordelia', onB, (e) => messages(e).length > 0)];
      await new Promise((r) => setTimeout(r, 100)); // both parked
      await sendToChannel(b, 'iago', channel, 'both', 'from B');
      const [gotA, gotB] = await Promise.all(polls);
      assert.deepEqual(messages(gotA), ['from B']);
      assert.deepEqual(messages(gotB), ['from B']);
      if (bus.notices) assert.ok(Date.now() - started < 3000, 'delivered by the notice, not by the minute-long log read');
      assert.equal(gotA[0].id, gotB[0].id, 'an event has the same id on every process');
    });

    test('a queue registered on one process is polled on the other, back and forth, without losses or repeats', async () => {
      const channel = await createChannel(a, 'iago', ['iago', 'hamlet']);
      const q = await register(a, 'hamlet');
      const got: string[] = [];
      for (let i = 0; i < 6; i++) {
        const sender = i % 2 ? a : b;
        const poller = i % 3 ? a : b;
        await sendToChannel(sender, 'iago', channel, 'alternating', `message ${i}`);
        got.push(...messages(await pollUntil(poller, 'hamlet', q, (e) => messages(e).length > 0)));
      }
      assert.deepEqual(got, [0, 1, 2, 3, 4, 5].map((i) => `message ${i}`));
      // Nothing is left over on either process once everything is acknowledged.
      for (const server of [a, b]) {
        const rest = await server.as('hamlet').get('/events', { queue_id: q.id, last_event_id: q.last, dont_block: true });
        assert.deepEqual(rest.body.events, [], rest.text);
      }
    });

    test('another user cannot poll a queue through the other process', async () => {
      const q = await register(a, 'hamlet');
      const res = await b.as('cordelia').get('/events', { queue_id: q.id, last_event_id: q.last, dont_block: true });
      assert.equal(res.status, 400);
      assert.equal(res.body.code, 'BAD_EVENT_QUEUE_ID');
      assert.equal(res.body.msg, `Bad event queue ID: ${q.id}`);
    });

    test('a queue deleted on one process is gone on the other', async () => {
      const q = await register(a, 'hamlet');
      assert.equal((await a.as('hamlet').get('/events', { queue_id: q.id, last_event_id: q.last, dont_block: true })).status, 200);
      assert.equal((await b.as('hamlet').delete('/events', { queue_id: q.id })).status, 200);
      await eventually(async () => {
        const res = await a.as('hamlet').get('/events', { queue_id: q.id, last_event_id: q.last, dont_block: true });
        return res.body.code === 'BAD_EVENT_QUEUE_ID' ? true : undefined;
      });
    });

    test('a scheduled message is sent once, though both processes look for due ones', async () => {
      const channel = await createChannel(a, 'iago', ['iago']);
      const content = `scheduled once ${Date.now()}`;
      const res = await a.as('iago').post('/scheduled_messages', {
        type: 'stream', to: channel, topic: 'once', content, scheduled_delivery_timestamp: Math.floor(Date.now() / 1000) + 2,
      });
      assert.equal(res.status, 200, res.text);
      const sent = await eventually(async () => {
        const found = await b.as('iago').get('/messages', { anchor: 'newest', num_before: 20, num_after: 0, narrow: [{ operator: 'channel', operand: channel }] });
        const copies = (found.body.messages as { content: string }[]).filter((m) => m.content.includes(content));
        return copies.length ? copies : undefined;
      });
      await new Promise((r) => setTimeout(r, 2500)); // both workers have looked again
      const again = await a.as('iago').get('/messages', { anchor: 'newest', num_before: 20, num_after: 0, narrow: [{ operator: 'channel', operand: channel }] });
      assert.equal((again.body.messages as { content: string }[]).filter((m) => m.content.includes(content)).length, 1);
      assert.equal(sent.length, 1);
    });

    test('a file uploaded through one process is served by the other', async () => {
      const url = await uploaded(a, 'hamlet', 'shared.txt', 'one directory for all');
      const res = await fetchFile(b, 'hamlet', url);
      assert.equal(res.status, 200);
      assert.equal(res.text, 'one directory for all');
    });

    test('a process killed with SIGKILL: its clients carry on with the other, and nothing acknowledged is lost', async () => {
      const c = await a.startPeer(); // the process to kill
      const channel = await createChannel(c, 'iago', ['iago', 'hamlet']);
      const q = await register(c, 'hamlet');
      const first = await sendToChannel(c, 'iago', channel, 'crash', 'before the crash');
      assert.deepEqual(messages(await pollUntil(c, 'hamlet', q, (e) => messages(e).length > 0)), ['before the crash']);
      const unread = await sendToChannel(c, 'iago', channel, 'crash', 'sent, not yet polled');
      await c.stop('SIGKILL');
      await sendToChannel(b, 'iago', channel, 'crash', 'after the crash');
      // The client polls the survivor with the queue and position it had: the queue continues there.
      const rest = await pollUntil(b, 'hamlet', q, (e) => messages(e).length >= 2);
      assert.deepEqual(messages(rest), ['sent, not yet polled', 'after the crash']);
      assert.ok(!rest.some((e) => e.type === 'restart'), 'the survivor did not restart');
      const history = await b.as('hamlet').get('/messages', { anchor: first, num_before: 0, num_after: 5, narrow: [{ operator: 'channel', operand: channel }] });
      assert.deepEqual((history.body.messages as { id: number }[]).map((m) => m.id).slice(0, 2), [first, unread]);
    });
  });
}

describe('rate limits across processes', { skip: !process.env.REDIS_URL && 'needs REDIS_URL' }, () => {
  let a: TestServer;
  let b: TestServer;
  before(async () => {
    a = await startTestServer({ env: { PARLANCE_RATE_LIMIT: '6' } });
    b = await a.startPeer();
  });
  after(async () => {
    await b?.stop('SIGKILL');
    await a?.close();
  });

  test('requests to either process count against one allowance', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await (i % 2 ? a : b).as('cordelia').get('/users/me')).status);
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 200, 429, 429]);
  });
});
