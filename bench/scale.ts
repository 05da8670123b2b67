// Two server processes over one database, as behind a load balancer (issue 10): B1 and B3 with half of the
// clients on each process. Messages are sent to both processes alike; each reaches the pollers of the other
// through the event log and the notices (Redis when REDIS_URL is set, else PostgreSQL's LISTEN/NOTIFY).
// Usage: node --import tsx bench/scale.ts [--quick]   (DATABASE_URL selects PostgreSQL; SQLite works too)
import { startAgent, type Agent } from './agents.js';
import { basic, timedRequest } from './load.js';
import { fanOutStats, ms, report, type Row } from './report.js';
import { credentials, seedUsersAndChannel } from './seed.js';
import { cpuMs, startBenchServer, stopServer, waitIdle } from './server.js';

const quick = process.argv.includes('--quick');
const SUBSCRIBERS = 100;
const CONCURRENCY = 4; // per process: 8 in all, as in B1
const TOTAL = quick ? 1000 : 5000;
const PARKED = quick ? 2_000 : 10_000;
const MESSAGE = { event_types: '["message"]', fetch_event_types: '[]' };
const label = process.env.REDIS_URL ? 'Redis notices' : process.env.DATABASE_URL ? 'PostgreSQL notices' : 'the log read every 250 ms';

const a = await startBenchServer();
const b = await a.startPeer();
const agents: Agent[] = await Promise.all([startAgent(), startAgent(), startAgent(), startAgent()]);
const [sendA, sendB, pollA, pollB] = agents;
const servers = [a, b];
const pids = servers.map((s) => s.proc!.pid!);
const cpu = () => pids.reduce((sum, pid) => sum + cpuMs(pid), 0);
const idle = (quietMs: number) => Promise.all(pids.map((pid) => waitIdle(pid, quietMs)));
const rows: Row[] = [];
try {
  const { users } = await seedUsersAndChannel(a, SUBSCRIBERS, 'bench');
  const creds = credentials(users);
  const half = SUBSCRIBERS / 2;
  await pollA.call('startPollers', { url: a.url, users: creds.slice(0, half), register: MESSAGE });
  await pollB.call('startPollers', { url: b.url, users: creds.slice(half), register: MESSAGE });
  const sendBoth = (total: number) => Promise.all([
    sendA.call('send', { url: a.url, auth: creds[0], total: total / 2, concurrency: CONCURRENCY, stream: 'bench', topics: 10 }),
    sendB.call('send', { url: b.url, auth: creds[1], total: total / 2, concurrency: CONCURRENCY, stream: 'bench', topics: 10 }),
  ]);
  await sendBoth(200);
  await idle(300);
  const cpu0 = cpu();
  const sent = (await sendBoth(TOTAL)).flatMap((r) => r.sent);
  await Promise.all([pollA, pollB].map((p) => p.call('pollerWaitAll', { keys: sent.map(([id]) => `m${id}`), count: half, timeoutMs: 60_000 })));
  const serverCpu = cpu() - cpu0;
  const stopped = await Promise.all([pollA, pollB].map((p) => p.call('stopPollers', {})));
  const errors = stopped.flatMap((s) => s.errors);
  if (errors.length) throw new Error(`pollers failed: ${errors.slice(0, 3).join('; ')}`);
  const { rate, send: latency, delivery: d, missing } = fanOutStats(sent, (key) => stopped.flatMap((s) => s.received.get(key) ?? []), SUBSCRIBERS);
  rows.push({ id: 'B1', figure: `two processes (${label}): POST /messages to ${SUBSCRIBERS} subscribers, half polling each process, ${CONCURRENCY} senders on each: messages/s`, target: '≥ 2,000', result: `${rate.toFixed(0)}`, met: rate >= 2000, rate });
  rows.push({ id: 'B1', figure: 'two processes: POST /messages latency, median / p99', target: 'p99 ≤ 20 ms', result: `${ms(latency.p50)} / ${ms(latency.p99)}`, met: latency.p99 <= 20 });
  rows.push({ id: 'B1', figure: `two processes: send to delivery, every subscriber, median / p99${missing ? ` (${missing} missing)` : ''}; CPU of both servers per message`, result: `${ms(d.p50)} / ${ms(d.p99)}; ${ms(serverCpu / TOTAL)}` });

  // B3: parked polls, half on each process, all of one user; one event (a new user) made on the first.
  const hamlet = { email: a.users.hamlet.email, apiKey: a.users.hamlet.apiKey };
  const realmUser = { event_types: '["realm_user"]', fetch_event_types: '[]' };
  await pollA.call('startPollers', { url: a.url, users: Array.from({ length: PARKED / 2 }, () => hamlet), register: realmUser, once: true });
  await pollB.call('startPollers', { url: b.url, users: Array.from({ length: PARKED / 2 }, () => hamlet), register: realmUser, once: true });
  await idle(1000);
  const made = await timedRequest(a.url, basic(a.users.iago.email, a.users.iago.apiKey), 'POST', '/users', { email: `scale${Date.now()}@zulip.example.com`, password: 'secret123', full_name: 'Scale bench' });
  if (made.status !== 200) throw new Error(`POST /users: ${made.text}`);
  const arrivals = await Promise.all([pollA, pollB].map((p) => p.call('pollerWait', { key: '*', count: PARKED / 2, timeoutMs: 60_000 })));
  await Promise.all([pollA, pollB].map((p) => p.call('stopPollers', {})));
  const [lastA, lastB] = arrivals.map((r) => r.last - made.t0);
  rows.push({ id: 'B3', figure: `two processes: one event to ${PARKED.toLocaleString('en')} parked polls, half on each: last delivery after the send began, on the sending process / on the other`, target: '≤ 2 s', result: `${ms(lastA)} / ${ms(lastB)}`, met: Math.max(lastA, lastB) <= 2000 });
} finally {
  await Promise.all(agents.map((g) => g.stop()));
  await b.stop('SIGTERM');
  await stopServer(a);
}
report(rows);
process.exit(0);
