// HTTP load helpers for the benchmark's load processes (bench/agent.ts): keep-alive requests against the server
// under test, and a clock that several processes share.
import http from 'node:http';

export const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });

// Milliseconds on the system's monotonic clock (CLOCK_MONOTONIC), the same in every process on this machine,
// so a send timed in one process and its delivery timed in another can be compared.
export const now = () => Number(process.hrtime.bigint()) / 1e6;

export interface Timed {
  status: number;
  text: string;
  t0: number; // request started
  t1: number; // last byte of the response received
}

export interface RequestOptions {
  host?: string; // Host header, to reach an organization by subdomain
  agent?: http.Agent;
}

export function timedRequest(base: string, auth: string | null, method: string, path: string, params: Record<string, string> = {}, opts: RequestOptions = {}): Promise<Timed> {
  const url = new URL(`/api/v1${path}`, base);
  let body: string | undefined;
  const headers: Record<string, string> = {};
  if (auth) headers.authorization = auth;
  if (opts.host) headers.host = opts.host;
  if (method === 'GET' || method === 'DELETE') for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  else {
    body = new URLSearchParams(params).toString();
    headers['content-type'] = 'application/x-www-form-urlencoded';
    headers['content-length'] = String(Buffer.byteLength(body));
  }
  const t0 = now();
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent: opts.agent ?? agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), t0, t1: now() }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

export async function request(base: string, auth: string, method: string, path: string, params: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const r = await timedRequest(base, auth, method, path, params);
  return { status: r.status, body: JSON.parse(r.text) };
}

// An account's API credentials (the probe and the tasks both send them).
export interface Credentials {
  email: string;
  apiKey: string;
}

export function basic(email: string, key: string): string {
  return 'Basic ' + Buffer.from(`${email}:${key}`).toString('base64');
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
