// B11 (issue 25): nobody waits on anyone in an organization of realistic size — 1,000 users, 200 channels,
// 1,000,000 channel messages (100,000 with --quick), a member with 50,000 unread group DMs — made by
// `parlance populate` (bench/populated-db.ts; kept between runs, each run works on a copy). A probe user calls
// GET /users/me every 20 ms from a process of its own; each request type is sent alone, then ten at once, from
// another process, and reported with the probe's longest wait while it ran.
// Usage: node --import tsx bench/million.ts [--quick] [--rows REGEX]   (DATABASE_URL selects PostgreSQL; --rows
// measures only the request types whose description matches, e.g. when profiling one of them)
import { sql } from 'kysely';
import { startAgent } from './agents.js';
import type { BatchRequest } from './probe.js';
import { populatedDb, scratchCopy, withDb } from './populated-db.js';
import { ms, percentiles, report, type Row, loadAverage, probeRunRow } from './report.js';
import { startServerOver, stopServer } from './server.js';
import type { Credentials } from './tasks.js';

const quick = process.argv.includes('--quick');
const rowsArg = process.argv.indexOf('--rows');
const rowFilter = rowsArg >= 0 ? new RegExp(process.argv[rowsArg + 1], 'i') : null;
const SIZE = quick ? 100_000 : 1_000_000;
const COMMON_WORD = 'deploy'; // in about 6% of the messages
const MOVE_TARGET = 'engineering'; // a channel of every user, the second largest
const log = (s: string) => console.error(`B11: ${s}`);

const pristine = await populatedDb(SIZE, log);
const db = await scratchCopy(pristine, log);
const [first] = pristine.members; // half of their channel messages unread, and 50,000 unread group DMs
const owner = pristine.owner;

// What the requests need, read before the server starts: channels, some members' keys, the big topics.
const facts = await withDb(db, async (app) => {
  const streams = await app.db.selectFrom('streams').select(['id', 'name', 'invite_only']).orderBy('id').execute();
  const counts = new Map((await app.db.selectFrom('messages').select(['stream_id', (eb) => eb.fn.countAll<number>().as('n')]).groupBy('stream_id').execute())
    .map((r) => [r.stream_id, Number(r.n)]));
  const subscribers = new Map((await app.db.selectFrom('subscriptions').select(['stream_id', (eb) => eb.fn.countAll<number>().as('n')]).where('active', '=', 1).groupBy('stream_id').execute())
    .map((r) => [r.stream_id, Number(r.n)]));
  const channel = (s: (typeof streams)[number]) => ({ id: s.id, name: s.name, messages: counts.get(s.id) ?? 0, subscribers: subscribers.get(s.id) ?? 0 });
  // The largest public channel that not everyone is in, and ten of its members.
  const small = streams.slice(20).filter((s) => !s.invite_only).map(channel).sort((a, b) => b.messages - a.messages)[0];
  const smallReaders = await app.db.selectFrom('subscriptions as s').innerJoin('users as u', 'u.id', 's.user_id').select(['u.email', 'u.api_key'])
    .where('s.stream_id', '=', small.id).orderBy('u.id').limit(10).execute();
  const general = streams.find((s) => s.name === 'general')!;
  const big = await app.db.selectFrom('messages').select(['topic', sql<number>`min(id)`.as('id'), (eb) => eb.fn.countAll<number>().as('n')])
    .where('stream_id', '=', general.id).where('topic', 'like', 'big topic %').groupBy('topic').execute();
  big.sort((a, b) => Number(a.topic.split(' ')[2]) - Number(b.topic.split(' ')[2]));
  return {
    general: channel(general),
    engineering: channel(streams.find((s) => s.name === MOVE_TARGET)!),
    small,
    smallReaders: smallReaders.map((u) => ({ email: u.email, apiKey: u.api_key })),
    bigTopics: big.map((t) => ({ topic: t.topic, firstId: Number(t.id), messages: Number(t.n) })),
  };
});

const server = await startServerOver(db, { PARLANCE_LOG_LEVEL: 'warn' });
const load = await startAgent();
const prober = await startAgent();
const rows: Row[] = [];
const loadBefore = loadAverage();
try {
  const url = server.url;
  await prober.call('startProbe', { url, auth: pristine.members[9], everyMs: 20 });
  const members: Credentials[] = pristine.members;
  const get = (auth: Credentials, narrow: object[], numBefore = 100): BatchRequest => ({
    auth, method: 'GET', path: '/messages', params: { anchor: 'newest', num_before: String(numBefore), num_after: '0', narrow: JSON.stringify(narrow) },
  });

  // `request(k)` makes the k-th request; alone, then `tens` rounds of ten at once.
  const measure = async (figure: string, target: { ms?: number; label?: string }, request: (k: number, ten: boolean) => BatchRequest, o: { alone: number; tens: number; warm: boolean }) => {
    if (rowFilter && !rowFilter.test(figure)) return;
    if (o.warm) await load.call('batch', { url, requests: [request(0, false)] });
    const run = async (requests: BatchRequest[]) => {
      const results = await load.call('batch', { url, requests });
      const from = Math.min(...results.map((r) => r.t0));
      const to = Math.max(...results.map((r) => r.t1));
      const probe = await prober.call('probeWaits', { from, to });
      await new Promise((r) => setTimeout(r, 200)); // let the server settle between rounds
      for (const e of probe.errors.slice(0, 1)) log(`probe: ${e}`);
      return { latencies: results.map((r) => r.t1 - r.t0), errors: results.map((r) => r.error).filter(Boolean), probeErrors: probe.errors.length, probe: probe.max };
    };
    for (const ten of [false, true]) {
      const rounds: Awaited<ReturnType<typeof run>>[] = [];
      for (let i = 0; i < (ten ? o.tens : o.alone); i++) {
        rounds.push(await run(ten ? Array.from({ length: 10 }, (_, k) => request(o.alone + i * 10 + k, true)) : [request(i, false)]));
      }
      if (!rounds.length) continue;
      const p = percentiles(rounds.flatMap((r) => r.latencies));
      const probe = Math.max(...rounds.map((r) => r.probe));
      const errors = rounds.flatMap((r) => r.errors);
      const probeErrors = rounds.reduce((a, r) => a + r.probeErrors, 0);
      const limit = ten ? 250 : 100;
      const requestMet = ten || target.ms === undefined || p.p50 <= target.ms;
      rows.push({
        id: 'B11',
        figure: `${figure}, ${ten ? `ten at once (${o.tens} round${o.tens > 1 ? 's' : ''})` : `alone (${o.alone} times)`}: median / max; the probe's longest wait`,
        target: `${!ten && target.label ? `${target.label}; ` : ''}probe ≤ ${limit} ms`,
        result: `${ms(p.p50)} / ${ms(p.max)}; probe ${ms(probe)}${probeErrors ? ` (${probeErrors} of its calls failed)` : ''}${errors.length ? `; ${errors.length} failed: ${errors[0]}` : ''}`,
        met: requestMet && probe <= limit && !errors.length && !probeErrors,
      });
      log(`${rows[rows.length - 1].figure}: ${rows[rows.length - 1].result}`);
    }
  };

  const n = (x: number) => x.toLocaleString('en');
  const fast = { alone: quick ? 5 : 10, tens: quick ? 1 : 3, warm: true };
  for (const c of [facts.general, facts.engineering, facts.small]) {
    const readers = c === facts.small ? facts.smallReaders : members;
    await measure(`GET /messages, newest 100 of #${c.name} (${n(c.messages)} messages, ${n(c.subscribers)} subscribers)`, { ms: 20, label: 'median ≤ 20 ms' },
      (k, ten) => get(ten ? readers[k % readers.length] : readers[0], [{ operator: 'channel', operand: c.name }]), fast);
  }
  for (const [operator, operand] of [['has', 'link'], ['has', 'image'], ['has', 'attachment'], ['is', 'resolved'], ['is', 'starred'], ['is', 'mentioned'], ['is', 'unread']]) {
    await measure(`GET /messages, newest 100 of ${operator}:${operand} (the member with half their messages unread)`, { ms: 50, label: 'median ≤ 50 ms' },
      () => get(first, [{ operator, operand }]), fast);
  }
  await measure(`GET /messages, newest 1,000 matching a common word ("${COMMON_WORD}")`, { ms: 150, label: 'median ≤ 150 ms' },
    () => get(first, [{ operator: 'search', operand: COMMON_WORD }], 1000), fast);
  const slow = { alone: 3, tens: 1, warm: false };
  await measure('POST /register, every block, by the member with 50,000 unread group DMs (the newest 50,000 unread)', { ms: 500, label: 'median ≤ 500 ms' },
    () => ({ auth: first, method: 'POST', path: '/register', params: {}, deleteQueue: true }), slow);
  await measure('POST /register, every block, include_subscribers', {},
    (k) => ({ auth: members[1 + (k % 9)], method: 'POST', path: '/register', params: { include_subscribers: 'true' }, deleteQueue: true }), slow);
  const moves = facts.bigTopics;
  if (moves.length >= 13) {
    await measure(`PATCH /messages: a topic of ${n(moves[0].messages)} messages moved from #general to #${MOVE_TARGET} (${n(facts.engineering.subscribers)} subscribers)`, { ms: 5000, label: 'median ≤ 5 s' },
      (k) => ({ auth: owner, method: 'PATCH', path: `/messages/${moves[k].firstId}`, params: {
        stream_id: String(facts.engineering.id), propagate_mode: 'change_all', send_notification_to_old_thread: 'false', send_notification_to_new_thread: 'false',
      } }), slow);
  } else {
    rows.push({ id: 'B11', figure: 'moving a big topic', result: `not measured: ${moves.length} big topics in #general, 13 needed` });
  }
  const probe = await prober.call('stopProbe', {});
  rows.push(probeRunRow('B11', server.stdout, probe, loadBefore, log));
  rows.push({ id: 'B11', figure: `the organization: ${n(SIZE)} channel messages, populated in`, result: `${pristine.seconds} s` });
} finally {
  await load.stop();
  await prober.stop();
  await stopServer(server);
  await db.drop();
}
report(rows);
process.exit(0);
