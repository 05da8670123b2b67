// Soak (not in CI): thousands of long-pollers and a steady stream of messages for minutes, reporting errors,
// latency percentiles and the server's RSS over time (which should be flat once warmed up).
// Usage: npm run soak [-- --duration=300 --pollers=2000 --rate=200 --fanout=5]   (DATABASE_URL selects PostgreSQL)
import fs from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { startTestServer } from '../test/helpers/server.js';
import { basic, percentile, request } from './load.js';
import { seed } from './seed.js';

const arg = (name: string, fallback: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const DURATION = arg('duration', 300); // seconds
const POLLERS = arg('pollers', 2000); // one user and one queue each
const RATE = arg('rate', 200); // messages per second
const FANOUT = arg('fanout', 5); // subscribers per channel: each message wakes this many pollers
const MAX_OUTSTANDING = 256; // sends in flight before the sender counts itself behind

const rssMiB = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
const ms = (v: number) => `${v.toFixed(1)} ms`;
// CPU seconds the process has used (user + system), to tell a slow server from a starved one on a shared machine.
const cpuSeconds = (pid: number) => {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};

const server = await startTestServer({ env: { PARLANCE_LOG_LEVEL: 'error' } });
const errors = new Map<string, number>();
let running = true;
const fail = (what: string) => errors.set(what, (errors.get(what) ?? 0) + 1);
try {
  console.log(`seeding ${POLLERS} users in channels of ${FANOUT}…`);
  const { users } = await seed(server, POLLERS, (all) =>
    Array.from({ length: Math.ceil(all.length / FANOUT) }, (_, c) => ({ name: `soak ${c}`, userIds: all.slice(c * FANOUT, (c + 1) * FANOUT).map((u) => u.id) })));
  const auths = users.map((u) => basic(u.email, u.apiKey));

  const sentAt = new Map<number, number>(); // sequence number → when its send began
  const delivery: number[] = [];
  const sendLatency: number[] = [];
  let polls = 0;
  const poll = async (auth: string) => {
    const reg = await request(server.url, auth, 'POST', '/register', { event_types: '["message"]', fetch_event_types: '[]' });
    if (reg.status !== 200) return fail(`register ${reg.status}`);
    let last = -1;
    while (running) {
      const res = await request(server.url, auth, 'GET', '/events', { queue_id: reg.body.queue_id, last_event_id: String(last) }).catch((e: Error) => ({ status: 0, body: e.message }));
      if (res.status !== 200) {
        fail(`poll ${res.status} ${String(res.body?.msg ?? res.body).slice(0, 80)}`);
        if (res.status === 400) return; // the queue is gone
        await new Promise((r) => setTimeout(r, 1000));
        continue;
      }
      polls++;
      const now = performance.now();
      for (const e of res.body.events) {
        if (e.type !== 'message') continue;
        const seq = Number(/soak (\d+)/.exec(e.message.content)?.[1]);
        if (sentAt.has(seq)) delivery.push(now - sentAt.get(seq)!);
      }
      if (res.body.events.length) last = res.body.events.at(-1).id;
    }
  };
  console.log(`registering ${POLLERS} long-pollers…`);
  const pollers: Promise<unknown>[] = [];
  for (let i = 0; i < users.length; i += 100) {
    const batch = auths.slice(i, i + 100).map((a) => {
      const p = poll(a);
      pollers.push(p);
      return p;
    });
    await Promise.race([Promise.all(batch), new Promise((r) => setTimeout(r, 200))]);
  }

  console.log(`sending ${RATE} messages/s for ${DURATION} s…`);
  const samples: { t: number; rss: number; sent: number; polls: number }[] = [];
  let seq = 0;
  let outstanding = 0;
  let behind = 0;
  const slowest: string[] = []; // sends that took over 10 s
  const t0 = performance.now();
  const cpu0 = cpuSeconds(server.proc!.pid!);
  const load0 = os.loadavg()[0];
  const sampler = setInterval(() => {
    samples.push({ t: Math.round((performance.now() - t0) / 1000), rss: rssMiB(server.proc!.pid!), sent: seq, polls });
    const s = samples.at(-1)!;
    console.log(`  t=${s.t}s rss=${s.rss.toFixed(0)} MiB sent=${s.sent} polls=${s.polls} errors=${[...errors.values()].reduce((a, b) => a + b, 0)}`);
  }, 10_000);
  await new Promise<void>((resolve) => {
    const tick = setInterval(() => {
      const due = Math.floor(((performance.now() - t0) / 1000) * RATE);
      while (seq < due) {
        if (outstanding >= MAX_OUTSTANDING) {
          behind += due - seq;
          seq = due;
          break;
        }
        const n = seq++;
        const c = n % Math.ceil(users.length / FANOUT);
        const sender = auths[c * FANOUT + (n % FANOUT)] ?? auths[c * FANOUT];
        const t = performance.now();
        sentAt.set(n, t);
        outstanding++;
        request(server.url, sender, 'POST', '/messages', { type: 'stream', to: `soak ${c}`, topic: `t${n % 7}`, content: `soak ${n}` })
          .then((res) => {
            if (res.status !== 200) return fail(`send ${res.status}`);
            const took = performance.now() - t;
            sendLatency.push(took);
            if (took > 10_000) slowest.push(`#${n} began at ${((t - t0) / 1000).toFixed(0)} s, took ${(took / 1000).toFixed(1)} s`);
          }, () => fail('send network'))
          .finally(() => outstanding--);
      }
      if (performance.now() - t0 >= DURATION * 1000) {
        clearInterval(tick);
        resolve();
      }
    }, 5);
  });
  await new Promise((r) => setTimeout(r, 2000));
  clearInterval(sampler);
  running = false;
  const elapsed = (performance.now() - t0) / 1000;
  const cpu = cpuSeconds(server.proc!.pid!) - cpu0;

  sendLatency.sort((a, b) => a - b);
  delivery.sort((a, b) => a - b);
  const warm = samples.filter((s) => s.t >= Math.min(60, DURATION / 5));
  const rss = warm.map((s) => s.rss);
  const db = process.env.DATABASE_URL ? 'PostgreSQL' : 'SQLite';
  console.log(`\n| soak figure (${db}, ${DURATION} s) | result |\n|---|---|`);
  console.log(`| long-pollers / fan-out per message | ${POLLERS} / ${FANOUT} |`);
  console.log(`| messages sent / asked for | ${sendLatency.length} in ${elapsed.toFixed(0)} s (${(sendLatency.length / elapsed).toFixed(0)}/s; target ${RATE}/s; ${behind} skipped while ${MAX_OUTSTANDING} were in flight) |`);
  console.log(`| errors | ${errors.size ? [...errors].map(([k, v]) => `${k}: ${v}`).join('; ') : 'none'} |`);
  console.log(`| POST /messages latency median / p95 / p99 / max | ${ms(percentile(sendLatency, 50))} / ${ms(percentile(sendLatency, 95))} / ${ms(percentile(sendLatency, 99))} / ${ms(sendLatency.at(-1) ?? 0)} |`);
  console.log(`| send to delivery median / p95 / p99 (${delivery.length} deliveries) | ${ms(percentile(delivery, 50))} / ${ms(percentile(delivery, 95))} / ${ms(percentile(delivery, 99))} |`);
  console.log(`| server RSS after warm-up: first / min / max / last | ${rss[0]?.toFixed(0)} / ${Math.min(...rss).toFixed(0)} / ${Math.max(...rss).toFixed(0)} / ${rss.at(-1)?.toFixed(0)} MiB |`);
  console.log(`| server CPU / machine load average (start, end) | ${((cpu / elapsed) * 100).toFixed(0)}% of a core / ${load0.toFixed(1)}, ${os.loadavg()[0].toFixed(1)} |`);
  slowest.sort((a, b) => Number(/took ([\d.]+)/.exec(b)![1]) - Number(/took ([\d.]+)/.exec(a)![1]));
  if (slowest.length) console.log(`| sends over 10 s (slowest first) | ${slowest.length}: ${slowest.slice(0, 5).join('; ')} |`);
  console.log(`| RSS every 10 s (MiB) | ${samples.map((s) => s.rss.toFixed(0)).join(' ')} |`);
  process.exitCode = errors.size ? 1 : 0;
} finally {
  running = false;
  await server.close();
}
process.exit();
