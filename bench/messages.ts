// B1: POST /messages to a 100-subscriber channel while 100 clients long-poll; B2: one message to a channel of
// 5,000 subscribers with 500 parked polls, send to last delivery.
// Usage: node --import tsx bench/messages.ts [--quick]
import { performance } from 'node:perf_hooks';
import { startTestServer } from '../test/helpers/server.js';
import { basic, percentile, request } from './load.js';
import { seedUsersAndChannel } from './seed.js';

const quick = process.argv.includes('--quick');
const rows: [string, string][] = [];

async function pollForever(base: string, auth: string, queueId: string, stop: { done: boolean }, onEvents: (events: any[]) => void) {
  let last = -1;
  while (!stop.done) {
    const res = await request(base, auth, 'GET', '/events', { queue_id: queueId, last_event_id: String(last) }).catch(() => null);
    if (!res) return;
    if (res.status !== 200) return;
    const events = res.body.events as any[];
    if (events.length) last = events[events.length - 1].id;
    onEvents(events);
  }
}

{
  const server = await startTestServer({ env: { PARLANCE_HEARTBEAT_SECONDS: '600', PARLANCE_LOG_LEVEL: 'error' } });
  try {
    const { users } = await seedUsersAndChannel(server, 100, 'bench');
    const stop = { done: false };
    const sentAt = new Map<number, number>();
    const latencies: number[] = [];
    const pollers = [];
    for (const u of users) {
      const auth = basic(u.email, u.apiKey);
      const reg = await request(server.url, auth, 'POST', '/register', { event_types: '["message"]', fetch_event_types: '[]' });
      pollers.push(pollForever(server.url, auth, reg.body.queue_id, stop, (events) => {
        const now = performance.now();
        for (const e of events) if (e.type === 'message' && sentAt.has(e.message.id)) latencies.push(now - sentAt.get(e.message.id)!);
      }));
    }
    const sender = basic(users[0].email, users[0].apiKey);
    const total = quick ? 500 : 3000;
    const concurrency = 8;
    const sendTimes: number[] = [];
    let next = 0;
    const t0 = performance.now();
    await Promise.all(Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const i = next++;
        const t = performance.now();
        const res = await request(server.url, sender, 'POST', '/messages', { type: 'stream', to: 'bench', topic: `t${i % 10}`, content: `message ${i}` });
        sendTimes.push(performance.now() - t);
        sentAt.set(res.body.id, t);
      }
    }));
    const elapsed = (performance.now() - t0) / 1000;
    await new Promise((r) => setTimeout(r, 1000));
    stop.done = true;
    sendTimes.sort((a, b) => a - b);
    latencies.sort((a, b) => a - b);
    rows.push(['B1 sends/s (100 subscribers, 100 pollers, 8 concurrent senders)', `${(total / elapsed).toFixed(0)}`]);
    rows.push(['B1 POST /messages latency median / p99', `${percentile(sendTimes, 50).toFixed(2)} ms / ${percentile(sendTimes, 99).toFixed(2)} ms`]);
    rows.push(['B1 send to delivery median / p99', `${percentile(latencies, 50).toFixed(2)} ms / ${percentile(latencies, 99).toFixed(2)} ms (${latencies.length} deliveries)`]);
  } finally {
    if (server.stderr) console.error(server.stderr.slice(0, 2000));
    await server.stop('SIGTERM'); // a clean exit lets --cpu-prof write its profile
    await server.close();
  }
}

const db = process.env.DATABASE_URL ? 'PostgreSQL' : 'SQLite';
console.log(`\n| figure (${db}) | result |\n|---|---|`);
for (const [k, v] of rows) console.log(`| ${k} | ${v} |`);
process.exit(0);
