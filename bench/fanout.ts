// B2: one message to a channel of 5,000 subscribers, 500 of them with a parked poll: from the start of the send
// to the last of the 500 deliveries. Messages go one at a time, each after the previous one reached everyone.
// Usage: node --import tsx bench/fanout.ts [--quick]   (DATABASE_URL selects PostgreSQL)
import { startAgent } from './agents.js';
import { ms, percentiles, report, type Row } from './report.js';
import { credentials, seedUsersAndChannel } from './seed.js';
import { cpuMs, startBenchServer, stopServer, waitIdle } from './server.js';

const quick = process.argv.includes('--quick');
const SUBSCRIBERS = 5000;
const POLLING = 500;
const MESSAGES = quick ? 20 : 100;

const server = await startBenchServer();
const [sender, pollers] = await Promise.all([startAgent(), startAgent()]);
const rows: Row[] = [];
try {
  const pid = server.proc!.pid!;
  const { users } = await seedUsersAndChannel(server, SUBSCRIBERS, 'everyone');
  const creds = credentials(users);
  await pollers.call('startPollers', { url: server.url, users: creds.slice(0, POLLING), register: { event_types: '["message"]', fetch_event_types: '[]' } });
  const spans: number[] = [];
  const sends: number[] = [];
  let cpu = 0;
  for (let i = 0; i < MESSAGES + 3; i++) {
    await waitIdle(pid, 100);
    const cpu0 = cpuMs(pid);
    const s = await sender.call('sendOne', { url: server.url, auth: creds[POLLING], stream: 'everyone', topic: 'announcements', content: `Announcement ${i}: the **benchmark** reaches everyone.` });
    const { last } = await pollers.call('pollerWait', { key: `m${s.id}`, count: POLLING, timeoutMs: 60_000 });
    if (i < 3) continue; // warm-up
    cpu += cpuMs(pid) - cpu0;
    spans.push(last - s.t0);
    sends.push(s.t1 - s.t0);
  }
  await pollers.call('stopPollers', {});
  const p = percentiles(spans);
  const q = percentiles(sends);
  rows.push({ id: 'B2', figure: `one message to ${SUBSCRIBERS.toLocaleString('en')} subscribers, ${POLLING} parked polls: send start to last delivery, median / p99`, target: 'p99 ≤ 100 ms', result: `${ms(p.p50)} / ${ms(p.p99)}`, met: p.p99 <= 100 });
  rows.push({ id: 'B2', figure: 'the send alone (POST /messages answered), median / p99; server CPU per message', result: `${ms(q.p50)} / ${ms(q.p99)}; ${ms(cpu / MESSAGES)}` });
} finally {
  await Promise.all([sender.stop(), pollers.stop()]);
  await stopServer(server);
}
report(rows);
process.exit(0);
