// What every benchmark script prints: a table for a reader, and, under `npm run bench` (bench/run.ts), one
// machine-readable line per row so that the runner can gather every script's rows into one table.
export interface Row {
  id: string; // B1 … B8, or a label for supporting figures
  figure: string;
  target?: string;
  result: string;
  met?: boolean; // whether the target is met; absent when there is no target
  rate?: number; // a throughput per second, reported as a ratio to the hello-world ceiling
}

export const ROW_PREFIX = '@@bench-row ';

export const databaseName = () => (process.env.DATABASE_URL ? 'PostgreSQL' : 'SQLite');

export function report(rows: Row[]): void {
  console.log(`\n| id | figure (${databaseName()}) | target | result |\n|---|---|---|---|`);
  for (const r of rows) console.log(`| ${r.id} | ${r.figure} | ${r.target ?? ''} | ${r.result}${r.met === false ? ' (missed)' : ''} |`);
  if (process.env.PARLANCE_BENCH_ROWS) for (const r of rows) console.log(ROW_PREFIX + JSON.stringify(r));
}

export const ms = (v: number) => (v >= 100 ? `${v.toFixed(0)} ms` : v >= 10 ? `${v.toFixed(1)} ms` : `${v.toFixed(2)} ms`);

export function percentiles(values: number[]): { p50: number; p99: number; max: number; mean: number } {
  const s = [...values].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
  return { p50: at(50), p99: at(99), max: s[s.length - 1], mean: s.reduce((a, b) => a + b, 0) / s.length };
}

// What B1's load processes measured: the send rate, the sends' latency and every delivery's delay after its send
// began. `sent` holds [message id, send start, send end]; `arrivals` the arrival times of each message (key m<id>).
export function fanOutStats(sent: [number, number, number][], arrivals: (key: string) => number[], recipients: number) {
  const elapsed = (Math.max(...sent.map((s) => s[2])) - Math.min(...sent.map((s) => s[1]))) / 1000;
  const delivery: number[] = [];
  let missing = 0;
  for (const [id, t0] of sent) {
    const times = arrivals(`m${id}`);
    missing += recipients - times.length;
    for (const t of times) delivery.push(t - t0);
  }
  return { rate: sent.length / elapsed, send: percentiles(sent.map(([, t0, t1]) => t1 - t0)), delivery: percentiles(delivery), missing };
}
