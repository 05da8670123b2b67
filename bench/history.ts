// B5: GET /messages over 1,000,000 messages (100,000 with --quick): the newest 100 of a topic, and a full-text
// search narrow, as the first member of the populated organization (bench/populated-db.ts, made once and reused;
// B11 measures the same organization).
// Usage: node --import tsx bench/history.ts [--quick]   (DATABASE_URL selects PostgreSQL)
import { sql } from 'kysely';
import { VOCABULARY } from '../src/populate/words.js';
import { startAgent } from './agents.js';
import { populatedDb, withDb } from './populated-db.js';
import { ms, percentiles, report, type Row } from './report.js';
import { cpuMs, startServerOver, stopServer } from './server.js';

const quick = process.argv.includes('--quick');
const SIZE = quick ? 100_000 : 1_000_000;
const db = await populatedDb(SIZE, (s) => console.error(s));
const reader = db.members[0]; // subscribed to the first 20 channels, with a row for each of their messages

// Three topics of at least 100 messages in each of the first ten channels; four made-up words in about 1% of
// the messages each.
const { topicNarrows, searchWords } = await withDb(db, async (app) => {
  const channels = await app.db.selectFrom('streams').select(['id', 'name']).orderBy('id').limit(10).execute();
  const topicNarrows: object[][] = [];
  for (const c of channels) {
    const topics = await app.db.selectFrom('messages').select(['topic', (eb) => eb.fn.countAll<number>().as('n')]).where('stream_id', '=', c.id)
      .groupBy('topic').having((eb) => eb.fn.countAll(), '>=', 100).orderBy('topic').execute();
    for (const t of [0, 0.5, 0.99].map((x) => topics[Math.floor(x * topics.length)]).filter(Boolean)) {
      topicNarrows.push([{ operator: 'channel', operand: c.name }, { operator: 'topic', operand: t.topic }]);
    }
  }
  const searchWords: { word: string; matches: number }[] = [];
  for (const word of [VOCABULARY[300], VOCABULARY[310], VOCABULARY[320], VOCABULARY[330]]) {
    const { rows } = await sql<{ n: number }>`select count(*) as n from messages where content like ${`%${word}%`}`.execute(app.db);
    searchWords.push({ word, matches: Number(rows[0].n) });
  }
  return { topicNarrows, searchWords };
});

const server = await startServerOver(db);
const agent = await startAgent();
const rows: Row[] = [];
try {
  const pid = server.proc!.pid!;
  const fetch = async (narrows: object[][], count: number) => {
    const one = (i: number) => agent.call('timed', {
      url: server.url, auth: reader, method: 'GET', path: '/messages',
      params: { anchor: 'newest', num_before: '100', num_after: '0', narrow: JSON.stringify(narrows[i % narrows.length]) },
      count: 1, expect: { key: 'messages', length: 100 },
    });
    for (let i = 0; i < narrows.length; i++) await one(i); // warm-up: each narrow once
    const latencies: number[] = [];
    const cpu0 = cpuMs(pid);
    for (let i = 0; i < count; i++) latencies.push(...(await one(i)).latencies);
    return { ...percentiles(latencies), cpu: (cpuMs(pid) - cpu0) / count };
  };
  const t = await fetch(topicNarrows, quick ? 60 : 300);
  const size = SIZE.toLocaleString('en');
  rows.push({ id: 'B5', figure: `GET /messages, newest 100 of a topic among ${size} messages: median (p99; server CPU)`, target: '≤ 10 ms', result: `${ms(t.p50)} (${ms(t.p99)}; ${ms(t.cpu)})`, met: t.p50 <= 10 });
  const searchNarrows = searchWords.map((w) => [{ operator: 'search', operand: w.word }]);
  const s = await fetch(searchNarrows, quick ? 12 : 40);
  const matches = Math.round(searchWords.reduce((a, w) => a + w.matches, 0) / searchWords.length);
  rows.push({ id: 'B5', figure: `GET /messages, newest 100 matching a search word (about ${matches.toLocaleString('en')} matches) among ${size}: median (p99; server CPU)`, target: '≤ 100 ms', result: `${ms(s.p50)} (${ms(s.p99)}; ${ms(s.cpu)})`, met: s.p50 <= 100 });
} finally {
  await agent.stop();
  await stopServer(server);
}
report(rows);
process.exit(0);
