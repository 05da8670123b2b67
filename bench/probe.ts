// Load-process tasks for B11 (bench/million.ts): a probe, a user calling GET /users/me every 20 ms whose every
// wait is recorded, so that the script can tell how long anyone else was kept waiting while it measured; and
// batches of requests sent at once.
import http from 'node:http';
import { basic, type Credentials, now, timedRequest } from './load.js';

interface Probe {
  waits: [t0: number, t1: number][];
  errors: string[];
  stopping: boolean;
  loop: Promise<void>;
}

let probe: Probe | null = null;

export async function startProbe(a: { url: string; auth: Credentials; everyMs: number }) {
  if (probe) throw new Error('probe already running');
  const auth = basic(a.auth.email, a.auth.apiKey);
  const pool = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const p: Probe = { waits: [], errors: [], stopping: false, loop: Promise.resolve() };
  p.loop = (async () => {
    let next = now();
    while (!p.stopping) {
      // One call at a time: a call kept waiting is one long wait, and the next follows at once.
      const r = await timedRequest(a.url, auth, 'GET', '/users/me', {}, { agent: pool }).catch((err) => ({ status: 0, text: String(err), t0: next, t1: now() }));
      if (r.status !== 200) p.errors.push(`GET /users/me: ${r.status} ${r.text.slice(0, 200)}`);
      p.waits.push([r.t0, r.t1]);
      next += a.everyMs;
      const delay = next - now();
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
      else next = now();
    }
    pool.destroy();
  })();
  probe = p;
  return {};
}

// The probe's longest wait among its calls that overlapped [from, to], and how many there were.
export async function probeWaits(a: { from: number; to: number }) {
  const p = probe!;
  // The call in flight at `to` counts too: wait for it.
  while (!p.waits.some(([t0]) => t0 >= a.to) && !p.stopping) await new Promise((resolve) => setTimeout(resolve, 5));
  const overlapping = p.waits.filter(([t0, t1]) => t1 >= a.from && t0 <= a.to);
  return { max: Math.max(0, ...overlapping.map(([t0, t1]) => t1 - t0)), calls: overlapping.length, errors: p.errors.splice(0) };
}

export async function stopProbe(_: object = {}) {
  const p = probe!;
  probe = null;
  p.stopping = true;
  await p.loop;
  return { calls: p.waits.length, errors: p.errors };
}

export interface BatchRequest {
  auth: Credentials;
  method: string;
  path: string;
  params: Record<string, string>;
  deleteQueue?: boolean; // a POST /register: delete its queue afterwards (untimed)
}

// Sends the requests at once, each on a connection of its own. A failure is returned (`error`), not thrown: a
// request that fails is part of what is measured.
export async function batch(a: { url: string; requests: BatchRequest[] }) {
  const pool = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  try {
    const results = await Promise.all(a.requests.map((r) => timedRequest(a.url, basic(r.auth.email, r.auth.apiKey), r.method, r.path, r.params, { agent: pool })));
    return await Promise.all(results.map(async (r, i) => {
      const req = a.requests[i];
      if (r.status === 200 && req.deleteQueue) {
        await timedRequest(a.url, basic(req.auth.email, req.auth.apiKey), 'DELETE', '/events', { queue_id: JSON.parse(r.text).queue_id }, { agent: pool });
      }
      return { t0: r.t0, t1: r.t1, bytes: r.text.length, ...(r.status === 200 ? {} : { error: `${req.method} ${req.path}: HTTP ${r.status} ${r.text.slice(0, 200)}` }) };
    }));
  } finally {
    pool.destroy();
  }
}
