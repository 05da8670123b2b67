// B5: GET /messages over 1,000,000 messages (100,000 with --quick): the newest 100 of a topic, and a full-text
// search narrow. The database is seeded once and reused (bench/history-db.ts).
// Usage: node --import tsx bench/history.ts [--quick]   (DATABASE_URL selects PostgreSQL)
import { startAgent } from './agents.js';
import { historyDb } from './history-db.js';
import { ms, percentiles, report, type Row } from './report.js';
import { cpuMs, startServerOver, stopServer } from './server.js';

const quick = process.argv.includes('--quick');
const SIZE = quick ? 100_000 : 1_000_000;
const db = await historyDb(SIZE, (s) => console.error(s));
const server = await startServerOver(db);
const agent = await startAgent();
const rows: Row[] = [];
try {
  const pid = server.proc!.pid!;
  const fetch = async (narrows: object[][], count: number) => {
    const one = (i: number) => agent.call('timed', {
      url: server.url, auth: db.reader, method: 'GET', path: '/messages',
      params: { anchor: 'newest', num_before: '100', num_after: '0', narrow: JSON.stringify(narrows[i % narrows.length]) },
      count: 1, expect: { key: 'messages', length: 100 },
    });
    for (let i = 0; i < narrows.length; i++) await one(i); // warm-up: each narrow once
    const latencies: number[] = [];
    const cpu0 = cpuMs(pid);
    for (let i = 0; i < count; i++) latencies.push(...(await one(i)).latencies);
    return { ...percentiles(latencies), cpu: (cpuMs(pid) - cpu0) / count };
  };
  const topicNarrows = db.channels.flatMap((c, i) => [0, 37, 74].map((t) => [{ operator: 'channel', operand: c }, { operator: 'topic', operand: db.topics[(t + i) % db.topics.length] }]));
  const t = await fetch(topicNarrows, quick ? 60 : 300);
  const size = SIZE.toLocaleString('en');
  rows.push({ id: 'B5', figure: `GET /messages, newest 100 of a topic among ${size} messages: median (p99; server CPU)`, target: '≤ 10 ms', result: `${ms(t.p50)} (${ms(t.p99)}; ${ms(t.cpu)})`, met: t.p50 <= 10 });
  const searchNarrows = db.searchWords.map((w) => [{ operator: 'search', operand: w.word }]);
  const s = await fetch(searchNarrows, quick ? 12 : 40);
  const matches = Math.round(db.searchWords.reduce((a, w) => a + w.matches, 0) / db.searchWords.length);
  rows.push({ id: 'B5', figure: `GET /messages, newest 100 matching a search word (about ${matches.toLocaleString('en')} matches) among ${size}: median (p99; server CPU)`, target: '≤ 100 ms', result: `${ms(s.p50)} (${ms(s.p99)}; ${ms(s.cpu)})`, met: s.p50 <= 100 });
} finally {
  await agent.stop();
  await stopServer(server);
}
report(rows);
process.exit(0);
