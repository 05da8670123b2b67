import os from 'node:os';
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

export const loadAverage = () => os.loadavg().map((l) => l.toFixed(1)).join(' ');

// The closing row of a run with a probe user (B9, B11): its calls, the server's logged stalls (each also logged
// with the requests in flight, as are its first errors) and the load average before and after.
export function probeRunRow(id: string, serverStdout: string, probe: { calls: number; errors: unknown[] }, loadBefore: string, log: (s: string) => void): Row {
  const logged = serverStdout.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
  const stalls = logged.filter((l) => /^event loop blocked/.test(l.msg));
  for (const failure of logged.filter((l) => l.level >= 50).slice(0, 3)) log(`server error: ${failure.msg} ${failure.method ?? ''} ${failure.url ?? ''} ${failure.err?.message ?? ''}`);
  for (const s of stalls.slice(0, 5)) log(`server stall: ${s.event_loop_delay_ms} ms during ${JSON.stringify(s.requests ?? [])}`);
  const count = (x: number) => x.toLocaleString('en');
  return {
    id, figure: `during ${id}: probe calls; event-loop stalls over 100 ms the server logged (longest); load average before / after`,
    result: `${count(probe.calls)}${probe.errors.length ? ` (${probe.errors.length} failed)` : ''}; ${stalls.length} (${ms(Math.max(0, ...stalls.map((s) => s.event_loop_delay_ms)))}); ${loadBefore} / ${loadAverage()}`,
  };
}
