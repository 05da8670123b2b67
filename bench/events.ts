// Event queues (issue 3; rows B3, B4 and B8 of issue 8): idle memory, GET /events with an event waiting, delivery
// to a parked poll, and 10,000 parked polls in one server process.
// Usage: node --import tsx bench/events.ts [--quick]   (DATABASE_URL selects PostgreSQL)
import { startAgent } from './agents.js';
import { basic, request, timedRequest } from './load.js';
import { ms, percentiles, report, type Row } from './report.js';
import { cpuMs, rssMiB, startBenchServer, stopServer, waitIdle } from './server.js';

const quick = process.argv.includes('--quick');
const PARKED = quick ? 2_000 : 10_000;
const REALM_USER = { event_types: '["realm_user"]', fetch_event_types: '[]' };

const server = await startBenchServer();
const agent = await startAgent();
const rows: Row[] = [];
try {
  const pid = server.proc!.pid!;
  await new Promise((r) => setTimeout(r, 1000));
  const rss = rssMiB(pid);
  rows.push({ id: 'B8', figure: 'idle server after start-up: RSS', target: '≤ 150 MB', result: `${rss.toFixed(0)} MiB`, met: rss * 1.048576 <= 150 });

  const hamlet = { email: server.users.hamlet.email, apiKey: server.users.hamlet.apiKey };
  const admin = basic(server.users.iago.email, server.users.iago.apiKey);
  let n = 0;
  // An event for everyone: a new user (realm_user add). Resolves with the time its answer arrived.
  const makeEvent = async () => {
    const r = await timedRequest(server.url, admin, 'POST', '/users', { email: `b${++n}@zulip.example.com`, password: 'secret123', full_name: `Bench ${n}` });
    if (r.status !== 200) throw new Error(`POST /users: ${r.text}`);
    return r;
  };

  // B4: the event stays unacknowledged (last_event_id -1), so every poll finds it waiting.
  const reg = await request(server.url, basic(hamlet.email, hamlet.apiKey), 'POST', '/register', REALM_USER);
  await makeEvent();
  const count = quick ? 1000 : 5000;
  const cpu0 = cpuMs(pid);
  const b4 = await agent.call('timed', {
    url: server.url, auth: hamlet, method: 'GET', path: '/events', params: { queue_id: reg.body.queue_id, last_event_id: '-1' },
    count, warmup: 200, expect: { key: 'events', length: 1 },
  });
  const b4cpu = (cpuMs(pid) - cpu0) / (count + 200);
  const p4 = percentiles(b4.latencies);
  rows.push({ id: 'B4', figure: 'GET /events with an event waiting: median (p99; server CPU per request)', target: 'median ≤ 1 ms', result: `${ms(p4.p50)} (${ms(p4.p99)}; ${ms(b4cpu)})`, met: p4.p50 <= 1 });

  // Delivery: a poll is parked; its arrival is timed against the answer of the request whose commit made the
  // event (the commit precedes that answer).
  const lat: number[] = [];
  for (let i = 0; i < (quick ? 20 : 100); i++) {
    await agent.call('startPollers', { url: server.url, users: [hamlet], register: REALM_USER });
    await waitIdle(pid, 50);
    const sent = await makeEvent();
    const { last } = await agent.call('pollerWait', { key: '*', count: 1, timeoutMs: 10_000 });
    await agent.call('stopPollers', {});
    lat.push(last - sent.t1);
  }
  const pl = percentiles(lat);
  rows.push({ id: 'I3', figure: 'an event reaches a parked poll: arrival minus the answer to the request that made it, median / max', target: '≤ 5 ms after commit', result: `${ms(pl.p50)} / ${ms(pl.max)}`, met: pl.max <= 5 });

  // B3: many parked polls (all of one user, as many tabs would be), then one event for all of them; each
  // client stops once it has it (the figure is the delivery, not the next round of polls).
  await agent.call('startPollers', { url: server.url, users: Array.from({ length: PARKED }, () => hamlet), register: REALM_USER, once: true });
  await waitIdle(pid, 1000);
  const rss3 = rssMiB(pid);
  const sent = await makeEvent();
  const all = await agent.call('pollerWait', { key: '*', count: PARKED, timeoutMs: 60_000 });
  await agent.call('stopPollers', {});
  rows.push({ id: 'B3', figure: `${PARKED.toLocaleString('en')} parked GET /events: server RSS`, target: '≤ 1 GiB', result: `${rss3.toFixed(0)} MiB`, met: rss3 <= 1024 });
  const spread = all.last - sent.t0;
  rows.push({ id: 'B3', figure: `one event to all ${PARKED.toLocaleString('en')}: last delivery after the send began (the send's own answer)`, target: '≤ 2 s', result: `${ms(spread)} (${ms(sent.t1 - sent.t0)})`, met: spread <= 2000 });
} finally {
  await agent.stop();
  await stopServer(server);
}
report(rows);
process.exit(0);
