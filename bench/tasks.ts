// The load itself: tasks that bench/agent.ts runs inside a load process. Times are on the shared monotonic clock
// (`now` in bench/load.ts), so the calling script can compare them with times taken in other processes.
import http from 'node:http';
import { basic, type Credentials, now, timedRequest } from './load.js';

export { batch, probeWaits, startProbe, stopProbe } from './probe.js';
export { presencePings } from './presence-load.js';

export type { Credentials };

const cpuMs = (since: NodeJS.CpuUsage) => {
  const u = process.cpuUsage(since);
  return (u.user + u.system) / 1000;
};

function check(r: { status: number; text: string }, what: string): any {
  if (r.status !== 200) throw new Error(`${what}: HTTP ${r.status} ${r.text.slice(0, 300)}`);
  return JSON.parse(r.text);
}

// Closed-loop GETs of one path from `concurrency` keep-alive connections: the ceiling measurement.
export async function blast(a: { url: string; path: string; concurrency: number; seconds: number }) {
  const pool = new http.Agent({ keepAlive: true, maxSockets: a.concurrency });
  const cpu = process.cpuUsage();
  const t0 = now();
  const end = t0 + a.seconds * 1000;
  let requests = 0;
  const one = () =>
    new Promise<void>((resolve, reject) => {
      const req = http.get(new URL(a.path, a.url), { agent: pool }, (res) => {
        res.resume();
        res.on('end', resolve);
      });
      req.on('error', reject);
    });
  await Promise.all(
    Array.from({ length: a.concurrency }, async () => {
      while (now() < end) {
        await one();
        requests++;
      }
    }),
  );
  const seconds = (now() - t0) / 1000;
  pool.destroy();
  return { requests, seconds, cpuMs: cpuMs(cpu) };
}

// Sequential requests, each timed to the last byte of its answer; `expect` checks the length of a list in every
// answer (e.g. that an event was waiting).
export async function timed(a: {
  url: string; auth: Credentials | null; host?: string; method: string; path: string; params: Record<string, string>;
  count: number; warmup?: number; expect?: { key: string; length: number };
}) {
  const auth = a.auth && basic(a.auth.email, a.auth.apiKey);
  const latencies: number[] = [];
  const cpu = process.cpuUsage();
  for (let i = 0; i < (a.warmup ?? 0) + a.count; i++) {
    const r = await timedRequest(a.url, auth, a.method, a.path, a.params, { host: a.host });
    const body = check(r, `${a.method} ${a.path}`);
    if (a.expect && body[a.expect.key]?.length !== a.expect.length) {
      throw new Error(`${a.method} ${a.path}: expected ${a.expect.length} ${a.expect.key}, got ${r.text.slice(0, 300)}`);
    }
    if (i >= (a.warmup ?? 0)) latencies.push(r.t1 - r.t0);
  }
  return { latencies, cpuMs: cpuMs(cpu) };
}

// POST /register, timed; each queue is deleted afterwards (untimed) so that they do not pile up.
export async function registers(a: { url: string; auth: Credentials; params: Record<string, string>; count: number; warmup?: number }) {
  const auth = basic(a.auth.email, a.auth.apiKey);
  const latencies: number[] = [];
  let bytes = 0;
  for (let i = 0; i < (a.warmup ?? 0) + a.count; i++) {
    const r = await timedRequest(a.url, auth, 'POST', '/register', a.params);
    const body = check(r, 'POST /register');
    if (i >= (a.warmup ?? 0)) latencies.push(r.t1 - r.t0);
    bytes = r.text.length;
    check(await timedRequest(a.url, auth, 'DELETE', '/events', { queue_id: body.queue_id }), 'DELETE /events');
  }
  return { latencies, bytes };
}

// ---- Long-pollers: each user registers a queue and polls it in a loop; every event received is recorded
// under a key (`m<message id>` for messages, `e<event id>` for others) with the time it arrived.

interface Pollers {
  pool: http.Agent;
  received: Map<string, number[]>;
  waiters: { key: string; count: number; resolve: () => void }[];
  errors: string[];
  loops: Promise<void>[];
  polls: number; // answers received
  stopping: boolean;
  cpu: NodeJS.CpuUsage;
}

let pollers: Pollers | null = null;

function record(p: Pollers, events: any[], t = now()): void {
  for (const e of events) {
    const key = e.type === 'message' ? `m${e.message.id}` : `e${e.id}`;
    for (const k of [key, '*']) {
      let times = p.received.get(k);
      if (!times) p.received.set(k, (times = []));
      times.push(t);
    }
  }
  p.waiters = p.waiters.filter((w) => {
    if ((p.received.get(w.key)?.length ?? 0) < w.count) return true;
    w.resolve();
    return false;
  });
}

// `once`: stop after the first answer that carries events (no new poll follows it).
async function pollLoop(p: Pollers, url: string, auth: string, queueId: string, host?: string, once = false): Promise<void> {
  let last = -1;
  while (!p.stopping) {
    let r;
    try {
      r = await timedRequest(url, auth, 'GET', '/events', { queue_id: queueId, last_event_id: String(last) }, { agent: p.pool, host });
    } catch (err) {
      if (!p.stopping) p.errors.push(String(err));
      return;
    }
    if (r.status !== 200) {
      p.errors.push(`GET /events: HTTP ${r.status} ${r.text.slice(0, 200)}`);
      return;
    }
    p.polls++;
    // Answers that arrived together are all time-stamped (at their last byte, in timedRequest) before any is
    // parsed and polled again: this process's own work must not delay the arrival times of the others.
    await new Promise((resolve) => setImmediate(resolve));
    const events = JSON.parse(r.text).events as any[];
    if (events.length) last = events[events.length - 1].id;
    record(p, events, r.t1);
    if (once && events.length) return;
  }
}

// Registers one queue per entry of `users` (a user may appear many times) and starts polling them all.
export async function startPollers(a: { url: string; users: Credentials[]; register: Record<string, string>; host?: string; once?: boolean }) {
  if (pollers) throw new Error('pollers already running');
  // Each poller is a client of its own that keeps its connection between polls (as the apps do): without
  // maxFreeSockets, Node's agent keeps 256 idle sockets and closes the rest, and 5,000 answers at once became
  // 4,700 new connections for the server to accept.
  const pool = new http.Agent({ keepAlive: true, maxSockets: Infinity, maxFreeSockets: Infinity });
  const p: Pollers = { pool, received: new Map(), waiters: [], errors: [], loops: [], polls: 0, stopping: false, cpu: process.cpuUsage() };
  pollers = p;
  const queues: { auth: string; queueId: string }[] = [];
  for (let i = 0; i < a.users.length; i += 100) {
    const batch = await Promise.all(
      a.users.slice(i, i + 100).map(async (u) => {
        const auth = basic(u.email, u.apiKey);
        const r = await timedRequest(a.url, auth, 'POST', '/register', a.register, { agent: p.pool, host: a.host });
        return { auth, queueId: check(r, 'POST /register').queue_id as string };
      }),
    );
    queues.push(...batch);
  }
  p.cpu = process.cpuUsage();
  p.polls = 0;
  p.loops = queues.map((q) => pollLoop(p, a.url, q.auth, q.queueId, a.host, a.once));
  return { queues: queues.length };
}

// Resolves once `count` events under `key` have arrived: the first and the last arrival times.
export async function pollerWait(a: { key: string; count: number; timeoutMs: number }) {
  const p = pollers!;
  const done = new Promise<void>((resolve) => p.waiters.push({ key: a.key, count: a.count, resolve }));
  record(p, []);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out waiting for ${a.count} × ${a.key} (got ${p.received.get(a.key)?.length ?? 0}; errors: ${p.errors.slice(0, 3).join('; ')})`)), a.timeoutMs)));
  await Promise.race([done, timeout]).finally(() => clearTimeout(timer));
  const times = p.received.get(a.key)!;
  return { first: Math.min(...times), last: Math.max(...times), count: times.length };
}

// Resolves once every key has `count` events (the messages sent concurrently may reach the queues in another
// order than their ids: waiting for the newest is not waiting for all).
export async function pollerWaitAll(a: { keys: string[]; count: number; timeoutMs: number }) {
  for (const key of a.keys) await pollerWait({ key, count: a.count, timeoutMs: a.timeoutMs });
  return { count: a.keys.length };
}

// The answers received so far and the CPU the polling process spent since the pollers started.
export async function pollerCounts(_: object = {}) {
  return { polls: pollers!.polls, cpuMs: cpuMs(pollers!.cpu) };
}

// Stops every loop (closing its connection) and returns what arrived.
export async function stopPollers(_: object = {}) {
  const p = pollers!;
  pollers = null;
  p.stopping = true;
  const cpu = cpuMs(p.cpu);
  p.pool.destroy();
  await Promise.all(p.loops);
  return { received: p.received, errors: p.errors, polls: p.polls, cpuMs: cpu };
}

// ---- Senders

// Closed loop: `concurrency` senders post `total` messages to the channel, round-robin over `topics` topics.
// Closed loop (`concurrency` requests, each starting when the one before it answered), or with `perSecond` open
// loop: message i starts at i / perSecond seconds whatever is still in flight, as independent clients send.
export async function send(a: { url: string; auth: Credentials; total: number; concurrency: number; stream: string; topics: number; perSecond?: number }) {
  const auth = basic(a.auth.email, a.auth.apiKey);
  const sent: [id: number, t0: number, t1: number][] = [];
  const cpu = process.cpuUsage();
  const one = async (i: number) => {
    const params = { type: 'stream', to: a.stream, topic: `topic ${i % a.topics}`, content: `Message ${i} of the **benchmark**, sent to everyone.` };
    const r = await timedRequest(a.url, auth, 'POST', '/messages', params, { agent: sendPool });
    sent.push([check(r, 'POST /messages').id, r.t0, r.t1]);
  };
  if (a.perSecond) {
    const t0 = now();
    const inFlight: Promise<void>[] = [];
    for (let i = 0; i < a.total; i++) {
      const wait = t0 + (i * 1000) / a.perSecond - now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      inFlight.push(one(i));
    }
    await Promise.all(inFlight);
  } else {
    let next = 0;
    await Promise.all(Array.from({ length: a.concurrency }, async () => {
      while (next < a.total) await one(next++);
    }));
  }
  return { sent, cpuMs: cpuMs(cpu) };
}

// Open-loop senders keep their connections, however many are in flight at once.
const sendPool = new http.Agent({ keepAlive: true, maxFreeSockets: Infinity });

export async function sendOne(a: { url: string; auth: Credentials; stream: string; topic: string; content: string }) {
  const r = await timedRequest(a.url, basic(a.auth.email, a.auth.apiKey), 'POST', '/messages', { type: 'stream', to: a.stream, topic: a.topic, content: a.content });
  return { id: check(r, 'POST /messages').id as number, t0: r.t0, t1: r.t1 };
}
