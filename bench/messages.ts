// B1: POST /messages to a 100-subscriber channel while all 100 subscribers long-poll, from two load processes
// (one sending, one polling): first as fast as 8 concurrent senders go, then paced at 500 messages a second (issue
// 20's condition for the send's p99).
// Usage: node --import tsx bench/messages.ts [--quick]   (DATABASE_URL selects PostgreSQL)
import { startAgent } from './agents.js';
import { fanOutStats, ms, report, type Row } from './report.js';
import { credentials, seedUsersAndChannel } from './seed.js';
import { cpuMs, startBenchServer, stopServer, waitIdle } from './server.js';

const quick = process.argv.includes('--quick');
const SUBSCRIBERS = 100;
const CONCURRENCY = 8;
const TOTAL = quick ? 1000 : 5000;
const PACED = 500; // messages a second

const server = await startBenchServer();
const [senders, pollers] = await Promise.all([startAgent(), startAgent()]);
const rows: Row[] = [];
try {
  const pid = server.proc!.pid!;
  const { users } = await seedUsersAndChannel(server, SUBSCRIBERS, 'bench');
  const creds = credentials(users);
  await pollers.call('startPollers', { url: server.url, users: creds, register: { event_types: '["message"]', fetch_event_types: '[]' } });
  // Warm-up, then the measured run.
  await senders.call('send', { url: server.url, auth: creds[0], total: 200, concurrency: CONCURRENCY, stream: 'bench', topics: 10 });
  await waitIdle(pid, 300);
  const cpu0 = cpuMs(pid);
  const { sent, cpuMs: senderCpu } = await senders.call('send', { url: server.url, auth: creds[0], total: TOTAL, concurrency: CONCURRENCY, stream: 'bench', topics: 10 });
  await pollers.call('pollerWaitAll', { keys: sent.map(([id]) => `m${id}`), count: SUBSCRIBERS, timeoutMs: 60_000 });
  const serverCpu = cpuMs(pid) - cpu0;
  const first = await pollers.call('pollerCounts', {});

  // Paced: every message starts on schedule, so a slow answer delays no later send (no coordinated omission).
  await waitIdle(pid, 300);
  const before = await pollers.call('pollerCounts', {});
  const cpu1 = cpuMs(pid);
  const paced = await senders.call('send', { url: server.url, auth: creds[0], total: TOTAL, concurrency: CONCURRENCY, stream: 'bench', topics: 10, perSecond: PACED });
  await pollers.call('pollerWaitAll', { keys: paced.sent.map(([id]) => `m${id}`), count: SUBSCRIBERS, timeoutMs: 60_000 });
  const pacedCpu = cpuMs(pid) - cpu1;
  const { received, errors, polls } = await pollers.call('stopPollers', {});
  if (errors.length) throw new Error(`pollers failed: ${errors.slice(0, 3).join('; ')}`);

  const { rate, send, delivery: d, missing } = fanOutStats(sent, (key) => received.get(key) ?? [], SUBSCRIBERS);
  rows.push({ id: 'B1', figure: `POST /messages to ${SUBSCRIBERS} subscribers, all long-polling, ${CONCURRENCY} concurrent senders: messages/s`, target: '≥ 2,000', result: `${rate.toFixed(0)}`, met: rate >= 2000, rate });
  rows.push({ id: 'B1', figure: 'POST /messages latency: median / p99', target: 'p99 ≤ 20 ms', result: `${ms(send.p50)} / ${ms(send.p99)}`, met: send.p99 <= 20 });
  rows.push({ id: 'B1', figure: `send to delivery, every subscriber: median / p99${missing ? ` (${missing} deliveries missing)` : ''}`, result: `${ms(d.p50)} / ${ms(d.p99)}` });
  rows.push({ id: 'B1', figure: 'CPU per message: server / sending process / polling process; poll answers per message', result: `${ms(serverCpu / TOTAL)} / ${ms(senderCpu / TOTAL)} / ${ms(first.cpuMs / TOTAL)}; ${(first.polls / TOTAL).toFixed(1)}` });
  const p = fanOutStats(paced.sent, (key) => received.get(key) ?? [], SUBSCRIBERS);
  rows.push({ id: 'B1', figure: `paced at ${PACED} messages/s (${TOTAL} messages): POST /messages latency, median / p99 (rate reached)`, target: 'p99 ≤ 20 ms', result: `${ms(p.send.p50)} / ${ms(p.send.p99)} (${p.rate.toFixed(0)}/s)`, met: p.send.p99 <= 20 });
  rows.push({ id: 'B1', figure: `paced at ${PACED} messages/s: send to delivery, every subscriber, median / p99${p.missing ? ` (${p.missing} deliveries missing)` : ''}; server CPU per message; poll answers per message`, result: `${ms(p.delivery.p50)} / ${ms(p.delivery.p99)}; ${ms(pacedCpu / TOTAL)}; ${((polls - before.polls) / TOTAL).toFixed(1)}` });
} finally {
  await Promise.all([senders.stop(), pollers.stop()]);
  await stopServer(server);
}
report(rows);
process.exit(0);
