// B9 (issue 20): an organization of 50,000 users — 2,000 channels, #general with every user, the others of 30–400
// members, 10,000 users active (presence of the last minutes), 100,000 messages — made by `parlance populate`
// (bench/populated-db.ts; kept between runs, each run works on a copy). A probe user calls GET /users/me every
// 20 ms from a process of its own, so that each figure comes with how long anyone else waited meanwhile.
// Run only when asked: `npm run bench -- --only B9`.
// Usage: node --import tsx bench/org.ts [--quick] [--rows REGEX]   (DATABASE_URL selects PostgreSQL)
import { startAgent } from './agents.js';
import type { BatchRequest } from './probe.js';
import { populatedDb, scratchCopy, withDb, type PopulateSpec } from './populated-db.js';
import { ms, percentiles, report, type Row, loadAverage, probeRunRow } from './report.js';
import { cpuMs, rssMiB, startServerOver, stopServer, waitIdle } from './server.js';

const quick = process.argv.includes('--quick');
const rowsArg = process.argv.indexOf('--rows');
const rowFilter = rowsArg >= 0 ? new RegExp(process.argv[rowsArg + 1], 'i') : null;
const SPEC: PopulateSpec = { users: 50_000, channels: 2000, seed: 1, unreadDms: 0, bigTopics: 0, allUserChannels: 1, activeUsers: 10_000 };
const MESSAGES = 100_000;
const POLLERS = 5000;
const PINGS_PER_SECOND = SPEC.activeUsers! / 60; // each active user once a minute
const log = (s: string) => console.error(`B9: ${s}`);
const n = (x: number) => x.toLocaleString('en');
const kib = (bytes: number) => (bytes >= 1 << 20 ? `${(bytes / (1 << 20)).toFixed(1)} MiB` : `${(bytes / 1024).toFixed(0)} KiB`);
// The probe keeps the server slightly busy: settle for a while rather than wait for it to be fully idle.
const settle = (pid: number, quietMs: number) => waitIdle(pid, quietMs, 3000).catch(() => {});

const pristine = await populatedDb(MESSAGES, log, SPEC);
const db = await scratchCopy(pristine, log);

// The active users' keys, #general and a channel of a few hundred members, read before the server starts.
const facts = await withDb(db, async (app) => {
  const active = await app.db.selectFrom('users').innerJoin('user_presence as p', 'p.user_id', 'users.id').select(['email', 'api_key'])
    .orderBy('users.id').execute();
  const seq = await app.db.selectFrom('presence_sequence').select('last_update_id').executeTakeFirstOrThrow();
  const counts = await app.db.selectFrom('subscriptions').select(['stream_id', (eb) => eb.fn.countAll<number>().as('n')]).where('active', '=', 1)
    .groupBy('stream_id').execute();
  const streams = await app.db.selectFrom('streams').select(['id', 'name', 'invite_only']).execute();
  const size = new Map(counts.map((c) => [c.stream_id, Number(c.n)]));
  const general = streams.find((s) => s.name === 'general')!;
  const small = streams.filter((s) => !s.invite_only && s.id !== general.id).sort((a, b) => size.get(b.id)! - size.get(a.id)!)[0];
  const subscribedTo = async (streamId: number) => (await app.db.selectFrom('messages').select('id').where('stream_id', '=', streamId).orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow()).id;
  return {
    active: active.map((u) => ({ email: u.email, apiKey: u.api_key })),
    presenceSeq: Number(seq.last_update_id),
    general: { id: general.id, name: general.name, subscribers: size.get(general.id)!, lastMessage: await subscribedTo(general.id) },
    small: { id: small.id, name: small.name, subscribers: size.get(small.id)!, lastMessage: await subscribedTo(small.id) },
    renamer: await app.db.selectFrom('users').select(['email', 'api_key']).where('is_bot', '=', 0).where('is_active', '=', 1).orderBy('id', 'desc').executeTakeFirstOrThrow(),
    smallMember: await app.db.selectFrom('subscriptions as s').innerJoin('users as u', 'u.id', 's.user_id').select(['u.email', 'u.api_key', 'u.full_name'])
      .where('s.stream_id', '=', small.id).where('s.active', '=', 1).orderBy('u.id').executeTakeFirstOrThrow(),
  };
});

const server = await startServerOver(db, { PARLANCE_LOG_LEVEL: 'warn' });
const pid = server.proc!.pid!;
const [load, prober, pollers] = await Promise.all([startAgent(), startAgent(), startAgent()]);
const rows: Row[] = [];
const loadBefore = loadAverage();
try {
  const url = server.url;
  const [owner, first] = [pristine.owner, pristine.members[0]];
  await prober.call('startProbe', { url, auth: pristine.members[9], everyMs: 20 });
  const wanted = (figure: string) => !rowFilter || rowFilter.test(figure);
  // Requests one at a time: each one's time, the server's CPU for it, the answer's size and the probe's longest wait.
  // `measured`: which of them count (the others prepare the next, e.g. a change it follows).
  const alone = async (count: number, request: (k: number) => BatchRequest, measured = (_k: number) => true) => {
    const times: number[] = [];
    let probe = 0;
    let bytes = 0;
    let cpu = 0;
    let failed: string | undefined;
    for (let k = 0; k < count; k++) {
      const cpu0 = cpuMs(pid);
      const [r] = await load.call('batch', { url, requests: [request(k)] });
      failed ??= r.error;
      if (!measured(k)) continue;
      cpu += cpuMs(pid) - cpu0;
      probe = Math.max(probe, (await prober.call('probeWaits', { from: r.t0, to: r.t1 })).max);
      times.push(r.t1 - r.t0);
      bytes = r.bytes;
    }
    return { ...percentiles(times), cpu: cpu / times.length, probe, bytes, failed };
  };
  const push = (row: Row) => {
    rows.push(row);
    log(`${row.figure}: ${row.result}`);
  };

  // POST /register for one member: with every block and what older clients ask for, then with the options the
  // reference documents for large organizations (the mobile app's capabilities with user_list_incomplete,
  // include_subscribers=false, slim_presence).
  const caps = { notification_settings_null: true, bulk_message_deletion: true, user_avatar_url_field_optional: true, stream_typing_notifications: true, user_settings_object: true };
  const registers: [string, Record<string, string>, boolean][] = [
    ['every block, include_subscribers=true, legacy presence, without user_list_incomplete', { client_capabilities: JSON.stringify(caps), include_subscribers: 'true' }, false],
    ['the large-organization options (user_list_incomplete, include_subscribers=false, slim_presence=true)', { client_capabilities: JSON.stringify({ ...caps, user_list_incomplete: true }), include_subscribers: 'false', slim_presence: 'true' }, true],
  ];
  for (const [what, params, goal] of registers) {
    const figure = `POST /register by a member, ${what}: median / max (server CPU; answer size); the probe's longest wait`;
    if (!wanted(figure)) continue;
    await load.call('batch', { url, requests: [{ auth: first, method: 'POST', path: '/register', params, deleteQueue: true }] }); // warm-up
    const r = await alone(quick ? 3 : 5, () => ({ auth: first, method: 'POST', path: '/register', params, deleteQueue: true }));
    push({ id: 'B9', figure, target: goal ? 'median ≤ 500 ms' : undefined, met: goal ? r.p50 <= 500 && !r.failed : undefined,
      result: `${ms(r.p50)} / ${ms(r.max)} (${ms(r.cpu)}; ${kib(r.bytes)}); probe ${ms(r.probe)}${r.failed ? `; failed: ${r.failed}` : ''}` });
  }

  // Presence: every active user pings once a minute with the last_update_id of their previous answer. First the
  // opening minute, each user's first ping (answers hold what changed since the seeding: 0 growing to all); then
  // the steady state: the first window's users ping again a minute later, every active user having pinged in
  // between, so each answer holds a minute's changes, as it does for as long as the organization stays so.
  const seconds = quick ? 10 : 30;
  const windowUsers = facts.active.slice(0, Math.round(PINGS_PER_SECOND * seconds));
  const restOfMinute = facts.active.slice(windowUsers.length);
  const rate = `${PINGS_PER_SECOND.toFixed(0)}/s for ${seconds} s, with last_update_id`;
  const pingFigure = `POST /users/me/presence, ${n(SPEC.activeUsers!)} active users each once a minute (${rate}): server CPU (cores); median / p99; answer size`;
  const steadyFigure = `POST /users/me/presence, steady state: the same users' next pings a minute later (${rate} of the previous answer): server CPU (cores); median / p99; answer size`;
  if (wanted(pingFigure) || wanted(steadyFigure)) {
    const pings = async (users: typeof facts.active, lastUpdateId: number | number[]) => {
      const cpu0 = cpuMs(pid);
      const r = await load.call('presencePings', { url, users, perSecond: PINGS_PER_SECOND, seconds: users.length / PINGS_PER_SECOND, lastUpdateId });
      // From the CPU per ping rather than over the wall-clock time, which a pause of the machine's other work
      // (SIGSTOP) would stretch.
      const perPing = (cpuMs(pid) - cpu0) / (r.latencies.length + r.failed);
      const cores = (perPing * PINGS_PER_SECOND) / 1000;
      const p = percentiles(r.latencies);
      return { r, met: cores <= 0.1 && !r.failed,
        result: `${cores.toFixed(3)} cores (${ms(perPing)} per ping; ${r.seconds.toFixed(0)} s in all); ${ms(p.p50)} / ${ms(p.p99)}; ${r.bytesPerPing.toFixed(0)} B (${r.entriesPerPing.toFixed(0)} entries)${r.failed ? `; ${r.failed} failed: ${r.errors[0]}` : ''}` };
    };
    await settle(pid, 300);
    const opening = await pings(windowUsers, facts.presenceSeq);
    push({ id: 'B9', figure: pingFigure, target: '≤ 0.1 core', met: opening.met, result: opening.result });
    if (wanted(steadyFigure)) {
      await pings(restOfMinute, facts.presenceSeq);
      const steady = await pings(windowUsers, opening.r.lastSeen);
      push({ id: 'B9', figure: steadyFigure, target: '≤ 0.1 core', met: steady.met, result: steady.result });
    }
    const realm = await alone(quick ? 3 : 10, () => ({ auth: first, method: 'GET', path: '/realm/presence', params: {} }));
    push({ id: 'B9', figure: `GET /realm/presence (${n(SPEC.activeUsers!)} active users, the whole legacy map as the reference sends it): median / max (server CPU; size); the probe's longest wait`,
      result: `${ms(realm.p50)} / ${ms(realm.max)} (${ms(realm.cpu)}; ${kib(realm.bytes)}); probe ${ms(realm.probe)}` });
  }

  // Typing and reactions in #general (every user) against a channel of a few hundred.
  const smallMember = { email: facts.smallMember.email, apiKey: facts.smallMember.api_key };
  for (const [c, auth] of [[facts.general, first], [facts.small, smallMember]] as const) {
    const typing = `POST /typing (start) in a topic of #${c.name} (${n(c.subscribers)} subscribers): median / max (server CPU per call); the probe's longest wait`;
    if (wanted(typing)) {
      const r = await alone(quick ? 10 : 50, () => ({ auth, method: 'POST', path: '/typing', params: { type: 'channel', op: 'start', stream_id: String(c.id), topic: 'typing here' } }));
      push({ id: 'B9', figure: typing, result: `${ms(r.p50)} / ${ms(r.max)} (${ms(r.cpu)}); probe ${ms(r.probe)}${r.failed ? `; failed: ${r.failed}` : ''}` });
    }
    const reaction = `POST then DELETE /messages/{id}/reactions on a message of #${c.name} (${n(c.subscribers)} subscribers): median / max (server CPU per call); the probe's longest wait`;
    if (wanted(reaction)) {
      const r = await alone(quick ? 10 : 40, (k) => ({ auth, method: k % 2 ? 'DELETE' : 'POST', path: `/messages/${c.lastMessage}/reactions`, params: { emoji_name: 'octopus' } }));
      push({ id: 'B9', figure: reaction, result: `${ms(r.p50)} / ${ms(r.max)} (${ms(r.cpu)}); probe ${ms(r.probe)}${r.failed ? `; failed: ${r.failed}` : ''}` });
    }
  }

  // A message that mentions someone by name, in the channel of a few hundred: the name is looked up among 50,000.
  const mention = `POST /messages to #${facts.small.name} (${n(facts.small.subscribers)} subscribers) mentioning a member by name: median / max (server CPU per message); the probe's longest wait`;
  if (wanted(mention)) {
    const r = await alone(quick ? 10 : 40, (k) => ({ auth: smallMember, method: 'POST', path: '/messages',
      params: { type: 'stream', to: facts.small.name, topic: 'mentions', content: `@**${facts.smallMember.full_name}** have a look at item ${k}` } }));
    push({ id: 'B9', figure: mention, result: `${ms(r.p50)} / ${ms(r.max)} (${ms(r.cpu)}); probe ${ms(r.probe)}${r.failed ? `; failed: ${r.failed}` : ''}` });
  }
  // The same right after someone else changed their name: the organization's user list has changed.
  const afterChange = `the same, each right after another member changed their name: median / max (server CPU per message); the probe's longest wait`;
  if (wanted(afterChange)) {
    const renamer = { email: facts.renamer.email, apiKey: facts.renamer.api_key };
    const r = await alone(quick ? 10 : 20, (k): BatchRequest => (k % 2
      ? { auth: smallMember, method: 'POST', path: '/messages', params: { type: 'stream', to: facts.small.name, topic: 'mentions', content: `@**${facts.smallMember.full_name}** after a change ${k}` } }
      : { auth: renamer, method: 'PATCH', path: '/settings', params: { full_name: `Renamed ${k}` } }), (k) => k % 2 === 1);
    push({ id: 'B9', figure: afterChange, result: `${ms(r.p50)} / ${ms(r.max)} (${ms(r.cpu)}); probe ${ms(r.probe)}${r.failed ? `; failed: ${r.failed}` : ''}` });
  }

  // A message to #general with 5,000 parked polls (each a different member), sent one at a time.
  const fanout = `one message to #general (${n(facts.general.subscribers)} subscribers) with ${n(POLLERS)} parked GET /events: send start to last delivery, median / p99; the send alone; server CPU per message`;
  if (wanted(fanout)) {
    const users = facts.active.slice(10, 10 + POLLERS);
    await pollers.call('startPollers', { url, users, register: { event_types: '["message"]', fetch_event_types: '[]' } });
    await settle(pid, 300);
    const spans: number[] = [];
    const sends: number[] = [];
    let cpu = 0;
    let probe = 0;
    let rss = rssMiB(pid);
    const count = quick ? 5 : 20;
    for (let i = 0; i < count + 2; i++) {
      await settle(pid, 100);
      const cpu0 = cpuMs(pid);
      const s = await load.call('sendOne', { url, auth: first, stream: 'general', topic: 'announcements', content: `Announcement ${i}: the **benchmark** reaches everyone.` });
      const { last } = await pollers.call('pollerWait', { key: `m${s.id}`, count: POLLERS, timeoutMs: 120_000 });
      rss = Math.max(rss, rssMiB(pid));
      if (i < 2) continue; // warm-up
      cpu += cpuMs(pid) - cpu0;
      spans.push(last - s.t0);
      sends.push(s.t1 - s.t0);
      probe = Math.max(probe, (await prober.call('probeWaits', { from: s.t0, to: last })).max);
    }
    await pollers.call('stopPollers', {});
    const p = percentiles(spans);
    const q = percentiles(sends);
    push({ id: 'B9', figure: fanout, target: 'p99 ≤ 1 s', met: p.p99 <= 1000, result: `${ms(p.p50)} / ${ms(p.p99)}; ${ms(q.p50)} / ${ms(q.p99)}; ${ms(cpu / count)}; probe ${ms(probe)}` });
    push({ id: 'B9', figure: `server RSS, ${n(POLLERS)} parked polls in the organization, at most during the sends`, target: '≤ 1 GiB', met: rss <= 1024, result: `${rss.toFixed(0)} MiB` });
  }

  const probe = await prober.call('stopProbe', {});
  rows.push(probeRunRow('B9', server.stdout, probe, loadBefore, log));
  rows.push({ id: 'B9', figure: `the organization: ${n(SPEC.users)} users, ${n(SPEC.channels)} channels, ${n(MESSAGES)} messages, populated in`, result: `${pristine.seconds} s` });
} finally {
  await Promise.all([load.stop(), prober.stop(), pollers.stop()]);
  await stopServer(server);
  await db.drop();
}
report(rows);
process.exit(0);
