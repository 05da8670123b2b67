// Event-queue figures (issue 3; rows B3, B4 and B8 of the benchmark table): GET /events with an event waiting,
// delivery latency to a parked poll, 10,000 parked polls in one process, and idle memory.
// Usage: node --import tsx bench/events.ts [--quick]   (DATABASE_URL selects PostgreSQL)
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { startTestServer } from '../test/helpers/server.js';
import { basic, percentile, request } from './load.js';

const quick = process.argv.includes('--quick');
const PARKED = quick ? 2_000 : 10_000;

function rssMiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

const server = await startTestServer({ env: { PARLANCE_HEARTBEAT_SECONDS: '600', PARLANCE_LOG_LEVEL: 'error' } });
const rows: [string, string][] = [];
try {
  await new Promise((r) => setTimeout(r, 1000));
  rows.push(['B8 idle RSS after start-up', `${rssMiB(server.proc!.pid!).toFixed(0)} MiB`]);

  const hamlet = server.users.hamlet;
  const auth = basic(hamlet.email, hamlet.apiKey);
  const admin = basic(server.users.iago.email, server.users.iago.apiKey);
  let n = 0;
  const makeEvent = () => request(server.url, admin, 'POST', '/users', { email: `b${++n}@zulip.example.com`, password: 'secret123', full_name: `Bench ${n}` });

  // B4: the event stays unacknowledged, so every poll finds it waiting.
  const reg = await request(server.url, auth, 'POST', '/register', { event_types: '["realm_user"]', fetch_event_types: '[]' });
  await makeEvent();
  const times: number[] = [];
  for (let i = 0; i < (quick ? 500 : 3000); i++) {
    const t = performance.now();
    const res = await request(server.url, auth, 'GET', '/events', { queue_id: reg.body.queue_id, last_event_id: '-1' });
    times.push(performance.now() - t);
    if (res.body.events.length !== 1) throw new Error('expected one waiting event');
  }
  times.sort((a, b) => a - b);
  rows.push(['B4 GET /events, event waiting: median / p99', `${percentile(times, 50).toFixed(2)} ms / ${percentile(times, 99).toFixed(2)} ms`]);

  // Delivery latency: a poll is parked; the poll's answer is timed against the answer of the request whose
  // commit produced the event (the commit precedes that answer).
  const lat: number[] = [];
  for (let i = 0; i < (quick ? 20 : 100); i++) {
    const q = await request(server.url, auth, 'POST', '/register', { event_types: '["realm_user"]', fetch_event_types: '[]' });
    const polled = request(server.url, auth, 'GET', '/events', { queue_id: q.body.queue_id, last_event_id: '-1' }).then(() => performance.now());
    await new Promise((r) => setTimeout(r, 5));
    const sent = await makeEvent().then(() => performance.now());
    lat.push((await polled) - sent);
    await request(server.url, auth, 'DELETE', '/events', { queue_id: q.body.queue_id });
  }
  lat.sort((a, b) => a - b);
  rows.push(['event delivery: poll answer minus send answer, median / max', `${percentile(lat, 50).toFixed(2)} ms / ${lat[lat.length - 1].toFixed(2)} ms`]);

  // B3: many parked polls, then one event for all of them.
  const queues: string[] = [];
  for (let i = 0; i < PARKED; i += 200) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(200, PARKED - i) }, () =>
        request(server.url, auth, 'POST', '/register', { event_types: '["realm_user"]', fetch_event_types: '[]' }),
      ),
    );
    queues.push(...batch.map((r) => r.body.queue_id));
  }
  const parked = queues.map((queue_id) => request(server.url, auth, 'GET', '/events', { queue_id, last_event_id: '-1' }).then(() => performance.now()));
  // Every poll must be parked before the event: each first passes authentication, which takes a while for 10,000.
  await new Promise((r) => setTimeout(r, quick ? 3000 : 15000));
  const rss = rssMiB(server.proc!.pid!);
  const t0 = performance.now();
  await makeEvent();
  const sendMs = performance.now() - t0;
  const done = await Promise.all(parked);
  rows.push([`B3 ${PARKED} parked polls: server RSS`, `${rss.toFixed(0)} MiB`]);
  rows.push([`B3 one event to all ${PARKED}: last delivery after send`, `${(Math.max(...done) - t0).toFixed(0)} ms (the send itself: ${sendMs.toFixed(0)} ms)`]);
} finally {
  await server.close();
}

const db = process.env.DATABASE_URL ? 'PostgreSQL' : 'SQLite';
console.log(`\n| figure (${db}) | result |\n|---|---|`);
for (const [k, v] of rows) console.log(`| ${k} | ${v} |`);
process.exit(0);
