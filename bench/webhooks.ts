// B12 (issue 24): 1,000 incoming-webhook posts per second to one channel — a GitHub push (the reference's
// fixture, test/fixtures/webhooks/github/) posted by an incoming-webhook bot to a channel of 5 subscribers —
// from a load process posting on a fixed schedule. Reports the posts' p50/p99 latency and the throughput the
// server kept up with. Usage: node --import tsx bench/webhooks.ts [--quick]   (DATABASE_URL selects PostgreSQL)
import { fork } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ms, percentiles, report, type Row } from './report.js';
import { cpuMs, startBenchServer, stopServer, waitIdle } from './server.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const quick = process.argv.includes('--quick');
const RATE = 1000;
const SECONDS = quick ? 3 : 20;
const SUBSCRIBERS = 5; // the seeded people: iago, hamlet, cordelia, desdemona, shiva

// The per-user rate limit is off under the bench server (the test helper's default).
const server = await startBenchServer({ PARLANCE_LOG_LEVEL: 'warn' }); // warn: the event-loop monitor's reports
const load = fork(path.join(here, 'webhook-load.ts'), [], { execArgv: ['--import', 'tsx'] });
const rows: Row[] = [];
try {
  const iago = server.as('iago');
  const bot = await iago.post('/bots', { full_name: 'Bench hook', short_name: 'benchhook', bot_type: 2 });
  if (bot.status !== 200) throw new Error(`creating the bot: ${bot.text}`);
  const members = ['iago', 'hamlet', 'cordelia', 'desdemona', 'shiva'] as const;
  const subscribed = await iago.post('/users/me/subscriptions', { subscriptions: [{ name: 'webhooks' }], principals: members.slice(0, SUBSCRIBERS).map((m) => server.users[m].id) });
  if (subscribed.status !== 200) throw new Error(`creating the channel: ${subscribed.text}`);
  const body = fs.readFileSync(path.join(here, '../test/fixtures/webhooks/github/push__force_1_commit.json'), 'utf8');
  const url = new URL('/api/v1/external/github', server.url);
  url.searchParams.set('api_key', bot.body.api_key);
  url.searchParams.set('stream', 'webhooks');
  const run = (rate: number, seconds: number) =>
    new Promise<{ elapsedMs: number; latencies: number[]; statuses: number[] }>((resolve) => {
      load.once('message', resolve as (m: unknown) => void);
      load.send({ url: url.href, body, headers: { 'X-GitHub-Event': 'push' }, rate, seconds });
    });
  await run(200, 1); // warm-up
  const pid = server.proc!.pid!;
  await waitIdle(pid, 300);
  const cpu0 = cpuMs(pid);
  const r = await run(RATE, SECONDS);
  const serverCpu = cpuMs(pid) - cpu0;
  const failed = r.statuses.filter((s) => s !== 200).length;
  const lat = percentiles(r.latencies);
  const throughput = (r.latencies.length - failed) / (r.elapsedMs / 1000);
  rows.push({ id: 'B12', figure: `incoming webhooks (GitHub push) offered at ${RATE}/s for ${SECONDS} s to one channel: posts/s answered${failed ? ` (${failed} failed)` : ''}`, target: '1,000/s', result: throughput.toFixed(0), met: throughput >= RATE * 0.98 && failed === 0, rate: throughput });
  rows.push({ id: 'B12', figure: 'incoming webhook latency: median / p99 / max', target: 'p99 ≤ 50 ms', result: `${ms(lat.p50)} / ${ms(lat.p99)} / ${ms(lat.max)}`, met: lat.p99 <= 50 });
  rows.push({ id: 'B12', figure: 'server CPU per webhook post', result: ms(serverCpu / r.latencies.length) });
  // What held the server's event loop, as its monitor logged it: the cause of a long tail.
  const stalls = server.stdout.split('\n').filter((l) => l.includes('event loop blocked')).map((l) => JSON.parse(l) as { event_loop_delay_ms: number; requests?: unknown[] });
  for (const s of stalls.slice(0, 3)) console.error(`B12: server stall: ${s.event_loop_delay_ms} ms during ${JSON.stringify(s.requests ?? []).slice(0, 300)}`);
  rows.push({ id: 'B12', figure: 'event-loop stalls over 100 ms the server logged (longest)', result: `${stalls.length} (${ms(Math.max(0, ...stalls.map((s) => s.event_loop_delay_ms)))})` });
} finally {
  load.disconnect();
  await stopServer(server);
}
report(rows);
process.exit(0);
