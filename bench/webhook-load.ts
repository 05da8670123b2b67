// The load process of B12 (bench/webhooks.ts): posts one incoming-webhook payload at a fixed rate (open loop:
// requests start on schedule whether or not earlier ones answered), timing each, and reports over IPC.
import http from 'node:http';
import { now } from './load.js';

interface Job {
  url: string; // the full webhook URL, key and channel included
  body: string;
  headers: Record<string, string>;
  rate: number; // requests per second
  seconds: number;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

function post(job: Job): Promise<{ ms: number; status: number }> {
  const t0 = now();
  return new Promise((resolve) => {
    const req = http.request(job.url, { method: 'POST', agent, headers: { ...job.headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(job.body)) } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ ms: now() - t0, status: res.statusCode ?? 0 }));
    });
    req.on('error', () => resolve({ ms: now() - t0, status: 0 }));
    req.end(job.body);
  });
}

process.on('message', async (job: Job) => {
  const total = Math.round(job.rate * job.seconds);
  const start = now();
  const pending: Promise<{ ms: number; status: number }>[] = [];
  let started = 0;
  await new Promise<void>((done) => {
    const tick = () => {
      const due = Math.min(total, Math.floor(((now() - start) / 1000) * job.rate) + 1);
      while (started < due) {
        pending.push(post(job));
        started++;
      }
      if (started >= total) done();
      else setTimeout(tick, 1);
    };
    tick();
  });
  const results = await Promise.all(pending);
  process.send!({ elapsedMs: now() - start, latencies: results.map((r) => r.ms), statuses: results.map((r) => r.status) });
});
process.on('disconnect', () => process.exit(0));
