// The server under test, as the benchmark scripts start and watch it: a real `parlance serve` process (through
// the test helper), its memory and CPU time read from /proc.
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import { startTestServer, TestServer } from '../test/helpers/server.js';
import type { TestDatabase } from '../test/helpers/database.js';

// Heartbeats are pushed out of the way; the per-user rate limit is off (the test helper's default).
// The load processes park thousands of polls as a few users (B3: 10,000 as one), past the per-user queue cap.
const BENCH_ENV = { PARLANCE_HEARTBEAT_SECONDS: '600', PARLANCE_LOG_LEVEL: 'error', PARLANCE_MAX_QUEUES_PER_USER: '1000000' };

export function startBenchServer(env: Record<string, string> = {}): Promise<TestServer> {
  return startTestServer({ env: { ...BENCH_ENV, ...env } });
}

// A server over an existing database (the reusable B5 database): nothing is seeded and nothing dropped.
export async function startServerOver(db: Omit<TestDatabase, 'drop'>, env: Record<string, string> = {}): Promise<TestServer> {
  const server = new TestServer({ ...db, drop: async () => {} }, { ...BENCH_ENV, ...env });
  await server.start();
  return server;
}

// Stops the server with SIGTERM first, so that a --cpu-prof run (PARLANCE_SERVER_NODE_ARGS) writes its profile.
export async function stopServer(server: TestServer): Promise<void> {
  await server.stop('SIGTERM');
  await server.close();
}

export function rssMiB(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
}

// CPU time (user + system) the process has used, in milliseconds.
export function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in clock ticks (USER_HZ = 100)
}

// Waits until the process has used almost no CPU for `quietMs`: every request sent to it has been handled
// (used to know that thousands of long-polls are parked).
export async function waitIdle(pid: number, quietMs = 500, maxMs = 120_000): Promise<void> {
  const start = Date.now();
  let last = cpuMs(pid);
  let quietSince = Date.now();
  while (Date.now() - start < maxMs) {
    await new Promise((r) => setTimeout(r, 100));
    const cpu = cpuMs(pid);
    if (cpu - last > 5) quietSince = Date.now();
    last = cpu;
    if (Date.now() - quietSince >= quietMs) return;
  }
  throw new Error('the server did not become idle');
}

// With PARLANCE_SERVER_WRAPPER="valgrind --tool=callgrind", the instructions the server executes between
// start() and stop(): a cost that, unlike time, does not depend on what else the machine is doing.
export function instructionCounter(pid: number): { start(): void; stop(): number | undefined } {
  const on = process.env.PARLANCE_SERVER_WRAPPER?.includes('callgrind');
  const control = (args: string) => execSync(`callgrind_control ${args} ${pid}`, { encoding: 'utf8' });
  return {
    start: () => void (on && control('-z')),
    stop: () => {
      if (!on) return undefined;
      const out = control('-e Ir'); // "Totals: Ir" then one line per thread: "Th 1  1,553,731,066"
      return [...out.matchAll(/^\s*Th\s+\d+\s+([\d,]+)\s*$/gm)].reduce((sum, m) => sum + Number(m[1].replace(/,/g, '')), 0);
    },
  };
}
