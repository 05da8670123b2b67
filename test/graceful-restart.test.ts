// Graceful restart under load: SIGTERM while clients long-poll and send. Requests in flight complete, the server
// comes back on the same port and data, and the clients carry on with their old queue_id and last_event_id
// without registering again: every acknowledged message reaches every recipient's queue exactly once, in order
// (a `restart` event is allowed), and nothing else does.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { consistencyProblems } from './helpers/consistency.js';
import { startTestServer, type SeedName, type TestServer } from './helpers/server.js';
import type { Reply } from './helpers/client.js';

let server: TestServer;
before(async () => {
  server = await startTestServer({ env: { PARLANCE_SHUTDOWN_GRACE_SECONDS: '10', PARLANCE_HEARTBEAT_SECONDS: '2' } });
});
after(() => server.close());

// Each request on its own connection, as a client does after its kept-alive connection was closed: a request
// then either reaches the server or is refused at connect time.
const fresh = { connection: 'close' };
const DOWN = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE']);

// Sends the headers and half the body of a message send, and the rest when told: a request in flight.
async function slowSend(who: SeedName, content: string): Promise<{ finish(): void; reply: Promise<Reply> }> {
  const body = new URLSearchParams({ type: 'stream', to: 'Restart', topic: 'slow', content }).toString();
  const client = server.as(who);
  const req = http.request(new URL('/api/v1/messages', server.url), {
    method: 'POST', agent: false,
    headers: client.headers({ 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(body.length), expect: '100-continue', ...fresh }),
  });
  const reply = new Promise<Reply>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (c: string) => (text += c)).on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(text), text }));
    });
    req.on('error', reject);
  });
  const continued = new Promise<void>((resolve) => req.once('continue', resolve));
  req.flushHeaders();
  await continued;
  req.write(body.slice(0, 10));
  return { finish: () => req.end(body.slice(10)), reply };
}

test('SIGTERM under load: in-flight requests complete, queues carry on after the restart, no event lost or doubled', async () => {
  const senders: SeedName[] = ['hamlet', 'cordelia', 'iago', 'shiva'];
  const readers: SeedName[] = ['desdemona', 'hamlet', 'cordelia', 'polonius'];
  const everyone = [...new Set([...senders, ...readers])].map((n) => server.users[n].id);
  assert.equal((await server.as('desdemona').post('/users/me/subscriptions', { subscriptions: [{ name: 'Restart' }], principals: everyone })).status, 200);

  const acked: number[] = [];
  const ackedBy = new Map<SeedName, number[]>(senders.map((n) => [n, []]));
  let unknownOutcome = 0; // sends whose connection broke: they may or may not have been written
  let sending = true;
  const failures: string[] = [];
  const sender = async (who: SeedName, n: number) => {
    for (let i = 0; sending; i++) {
      const res = await server.as(who).post('/messages', { type: 'stream', to: 'Restart', topic: `t${n}`, content: `${who} ${i}` }, { headers: fresh })
        .catch((err: NodeJS.ErrnoException) => err.code ?? String(err));
      if (typeof res === 'string') {
        if (!DOWN.has(res)) failures.push(`send: ${res}`);
        if (res !== 'ECONNREFUSED') unknownOutcome++;
        await sleep(50);
      } else if (res.status === 200) {
        acked.push(res.body.id);
        ackedBy.get(who)!.push(res.body.id);
      }
      else if (res.status === 503) await sleep(50);
      else failures.push(`send: ${res.status} ${res.text}`);
    }
  };

  // Each reader long-polls its one queue, through the restart, never registering again.
  const received = new Map<SeedName, { ids: number[]; eventIds: number[]; restarts: number }>();
  let polling = true;
  const poller = async (who: SeedName) => {
    const reg = await server.as(who).post('/register', { event_types: ['message', 'restart'], fetch_event_types: [] });
    assert.equal(reg.status, 200, reg.text);
    const seen = { ids: [] as number[], eventIds: [] as number[], restarts: 0 };
    received.set(who, seen);
    let last = reg.body.last_event_id;
    const queue = reg.body.queue_id;
    return async () => {
      while (polling) {
        const res = await server.as(who).get('/events', { queue_id: queue, last_event_id: last }, { headers: fresh }).catch((err: NodeJS.ErrnoException) => err.code ?? String(err));
        if (typeof res === 'string' || res.status === 503) {
          if (typeof res === 'string' && !DOWN.has(res)) failures.push(`poll: ${res}`);
          await sleep(50);
          continue;
        }
        if (res.status !== 200) {
          failures.push(`${who} poll: ${res.status} ${res.text}`);
          return;
        }
        for (const e of res.body.events) {
          seen.eventIds.push(e.id);
          if (e.type === 'message') seen.ids.push(e.message.id);
          if (e.type === 'restart') seen.restarts++;
        }
        if (res.body.events.length) last = res.body.events.at(-1).id;
      }
    };
  };
  const polls = await Promise.all(readers.map(poller));
  const pollLoops = polls.map((p) => p());
  const sendLoops = senders.map((who, n) => sender(who, n));

  // Enough traffic on each side of the restart, however fast the machine is (bounded).
  const traffic = async (n: number) => {
    const target = acked.length + n;
    for (const deadline = Date.now() + 15_000; acked.length < target && Date.now() < deadline; ) await sleep(20);
  };
  await traffic(40);
  const inFlight = await slowSend('hamlet', 'in flight at SIGTERM');
  const exited = server.stop('SIGTERM');
  await sleep(300); // the server is closing: new connections are refused, the slow request is still open
  inFlight.finish();
  const slow = await inFlight.reply;
  assert.equal(slow.status, 200, slow.text);
  acked.push(slow.body.id);
  ackedBy.get('hamlet')!.push(slow.body.id);
  assert.equal(await exited, 0);

  server.stdout = '';
  await server.start(); // same port, same data
  await traffic(40);
  sending = false;
  await Promise.all(sendLoops);

  // Wait until every queue has everything acknowledged (bounded), then stop polling.
  const want = new Set(acked);
  for (const deadline = Date.now() + 15_000; Date.now() < deadline; await sleep(100)) {
    if ([...received.values()].every((r) => [...want].every((id) => r.ids.includes(id)))) break;
  }
  polling = false;
  await Promise.all(pollLoops);

  assert.deepEqual(failures, []);
  assert.ok(acked.length > 40, `only ${acked.length} sends acknowledged`);
  const stored = await server.as('desdemona').get('/messages', { anchor: 'newest', num_before: 5000, num_after: 0, narrow: [['channel', 'Restart']] });
  const storedIds = stored.body.messages.map((m: { id: number }) => m.id) as number[];
  for (const id of acked) assert.ok(storedIds.includes(id), `acknowledged message ${id} is not stored`);
  assert.ok(storedIds.length - acked.length <= unknownOutcome, `${storedIds.length - acked.length} stored sends were never acknowledged`);
  assert.deepEqual(await consistencyProblems(server), []);

  // Concurrent senders' messages may commit out of id order, but every queue sees the one order of the event log,
  // and each sender's messages in the order they were sent.
  const first = received.get(readers[0])!.ids;
  for (const [who, r] of received) {
    assert.deepEqual([...r.ids].sort((a, b) => a - b), storedIds, `${who}: every stored message`);
    assert.deepEqual(r.ids, first, `${who}: the same order as ${readers[0]}`);
    assert.equal(new Set(r.ids).size, r.ids.length, `${who}: a message twice`);
    for (const mine of ackedBy.values()) assert.deepEqual(r.ids.filter((id) => mine.includes(id)), mine, `${who}: a sender's messages out of order`);
    assert.ok(r.eventIds.every((id, i) => i === 0 || id > r.eventIds[i - 1]), `${who}: event ids increase`);
    assert.ok(r.restarts <= 1, `${who}: ${r.restarts} restart events`);
  }
});
