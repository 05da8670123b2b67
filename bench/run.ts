// `npm run bench [-- --quick] [--only B1,B5] [--db sqlite|postgres|both]`: the hello-world ceiling, then every
// benchmark script against its own server process, on SQLite and (when DATABASE_URL is set) on PostgreSQL,
// gathered into one table. A script is listed here with the rows it measures; one that is absent on this
// branch is reported as not measured.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROW_PREFIX, type Row } from './report.js';

const SCRIPTS: { file: string; ids: string[]; onlyWhenAsked?: boolean }[] = [
  { file: 'events.ts', ids: ['B3', 'B4', 'B8', 'I3'] },
  { file: 'messages.ts', ids: ['B1'] },
  { file: 'fanout.ts', ids: ['B2'] },
  { file: 'history.ts', ids: ['B5'] },
  { file: 'register.ts', ids: ['B6'] },
  { file: 'presence.ts', ids: ['B7'] },
  { file: 'scale.ts', ids: ['B1', 'B3'] },
  { file: 'million.ts', ids: ['B11'] },
  { file: 'webhooks.ts', ids: ['B12'] },
  { file: 'markdown.ts', ids: ['M1'] },
  // Only when asked (--only B9): it populates a 50,000-user organization the first time.
  { file: 'org.ts', ids: ['B9'], onlyWhenAsked: true },
];

const here = path.dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
const quick = argv.includes('--quick');
const option = (name: string) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const only = option('--only')?.split(',').map((s) => s.trim().toUpperCase());
const pgUrl = process.env.DATABASE_URL || undefined;
const dbChoice = option('--db') ?? (pgUrl ? 'both' : 'sqlite');
const databases = [
  ...(dbChoice !== 'postgres' ? [{ name: 'SQLite', url: '' }] : []),
  ...(dbChoice !== 'sqlite' && pgUrl ? [{ name: 'PostgreSQL', url: pgUrl }] : []),
];
if (!databases.length) throw new Error('--db postgres needs DATABASE_URL');

function runScript(file: string, databaseUrl: string): Promise<{ rows: Row[]; failure?: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, file), ...(quick ? ['--quick'] : [])], {
      env: { ...process.env, DATABASE_URL: databaseUrl, PARLANCE_BENCH_ROWS: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      err += d;
      process.stderr.write(d);
    });
    child.on('exit', (code) => {
      const lines = out.split('\n');
      let rows = lines.filter((l) => l.startsWith(ROW_PREFIX)).map((l) => JSON.parse(l.slice(ROW_PREFIX.length)) as Row);
      if (!rows.length) rows = markdownRows(lines, file);
      const failure = code === 0 ? undefined : (err.split('\n').find((l) => /^\w*Error\b/.test(l))?.slice(0, 300) ?? `exit code ${code}`);
      resolve({ rows, failure });
    });
  });
}

// Scripts that print only a table of `| figure | result |` rows are read from it.
function markdownRows(lines: string[], file: string): Row[] {
  const fallback = SCRIPTS.find((s) => s.file === file)!.ids[0];
  return lines
    .filter((l) => l.startsWith('|') && !/^\|\s*-/.test(l))
    .map((l) => l.split('|').slice(1, -1).map((c) => c.trim()))
    .filter((cells) => cells.length >= 2 && !/^(figure|id)\b/i.test(cells[0]))
    .map((cells) => {
      const [figure, result] = cells.length === 2 ? cells : [cells[1], cells[cells.length - 1]];
      return { id: /^(B\d+)\b/.exec(cells[0])?.[1] ?? fallback, figure: figure.replace(/^B\d+\s+/, ''), result };
    });
}

const machine = () => {
  const cpu = /model name\s*:\s*(.*)/.exec(fs.readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? os.cpus()[0]?.model;
  return `${os.cpus().length} × ${cpu}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.type()} ${os.release()}, Node ${process.version}`;
};
const load = () => os.loadavg().map((l) => l.toFixed(1)).join(' ');

const started = new Date();
const loadBefore = load();
const results = new Map<string, Map<string, Row | string>>(); // id|figure → database → row (or a failure)
const order: string[] = [];
const put = (row: Row, db: string) => {
  const key = `${row.id}|${row.figure}`;
  if (!results.has(key)) {
    results.set(key, new Map());
    order.push(key);
  }
  results.get(key)!.set(db, row);
};

let ceiling: number | undefined;
if (!only || only.includes('CEILING')) {
  const r = await runScript('ceiling.ts', '');
  for (const row of r.rows) {
    ceiling ??= row.rate;
    put(row, 'any');
  }
}
let failed = false;
for (const script of SCRIPTS) {
  if (only ? !script.ids.some((id) => only.includes(id)) : script.onlyWhenAsked) continue;
  for (const db of databases) {
    if (!fs.existsSync(path.join(here, script.file))) {
      put({ id: script.ids[0], figure: `not measured: bench/${script.file} is not on this branch`, result: '—' }, db.name);
      continue;
    }
    process.stderr.write(`bench/${script.file} on ${db.name}…\n`);
    const r = await runScript(script.file, db.url);
    for (const row of r.rows) put(row, db.name);
    if (r.failure) {
      failed = true;
      put({ id: script.ids[0], figure: `bench/${script.file} failed`, result: r.failure }, db.name);
    }
  }
}

const cell = (row: Row | string | undefined) => {
  if (row === undefined) return '';
  if (typeof row === 'string') return row;
  const ratio = row.rate && ceiling && row.id !== 'ceiling' ? ` (${((100 * row.rate) / ceiling).toFixed(1)}% of the ceiling)` : '';
  return `${row.result}${ratio}${row.met === false ? ' **missed**' : ''}`;
};
const byId = (key: string) => {
  const id = key.split('|')[0];
  return id === 'ceiling' ? -1 : /^B\d+$/.test(id) ? Number(id.slice(1)) : 100;
};
const sorted = order.map((k, i) => [k, i] as const).sort((a, b) => byId(a[0]) - byId(b[0]) || a[1] - b[1]).map(([k]) => k);

console.log(`\nDate: ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC. Machine: ${machine()}.`);
console.log(`Command: npm run bench${argv.length ? ` -- ${argv.join(' ')}` : ''}. Load average (1, 5, 15 min) before: ${loadBefore}; after: ${load()}.\n`);
console.log(`| id | figure | target | ${databases.map((d) => d.name).join(' | ')} |`);
console.log(`|---|---|---|${databases.map(() => '---|').join('')}`);
for (const key of sorted) {
  const cells = results.get(key)!;
  const any = [...cells.values()].find((r): r is Row => typeof r !== 'string');
  const [id, figure] = key.split('|');
  const values = cells.has('any') ? databases.map((_, i) => (i === 0 ? cell(cells.get('any')) : '〃')) : databases.map((d) => cell(cells.get(d.name)));
  console.log(`| ${id} | ${figure} | ${any?.target ?? ''} | ${values.join(' | ')} |`);
}
process.exit(failed ? 1 : 0);
