// Load-process task for B9 (bench/org.ts): many users pinging POST /users/me/presence as the clients do, each
// with the last_update_id its previous answer gave, on a fixed schedule (open loop: a ping starts on time whether
// or not the earlier ones have answered). `lastUpdateId` is where every user starts, or each user's own (as the
// previous round's `lastSeen` gives them).
import http from 'node:http';
import { basic, type Credentials, now, timedRequest } from './load.js';

export async function presencePings(a: { url: string; users: Credentials[]; perSecond: number; seconds: number; lastUpdateId: number | number[] }) {
  const pool = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const auths = a.users.map((u) => basic(u.email, u.apiKey));
  const lastSeen = Array.isArray(a.lastUpdateId) ? [...a.lastUpdateId] : new Array<number>(auths.length).fill(a.lastUpdateId);
  const latencies: number[] = [];
  const errors: string[] = [];
  let bytes = 0;
  let entries = 0;
  const total = Math.round(a.perSecond * a.seconds);
  const t0 = now();
  const inFlight: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = t0 + (i * 1000) / a.perSecond;
    const wait = due - now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const u = i % auths.length;
    inFlight.push(timedRequest(a.url, auths[u], 'POST', '/users/me/presence', { status: 'active', last_update_id: String(lastSeen[u]) }, { agent: pool }).then((r) => {
      if (r.status !== 200) return void errors.push(`${r.status} ${r.text.slice(0, 200)}`);
      const body = JSON.parse(r.text);
      lastSeen[u] = body.presence_last_update_id;
      bytes += r.text.length;
      entries += Object.keys(body.presences).length;
      latencies.push(r.t1 - r.t0);
    }, (err) => void errors.push(String(err))));
  }
  await Promise.all(inFlight);
  pool.destroy();
  return { lastSeen, latencies, errors: errors.slice(0, 5), failed: errors.length, seconds: (now() - t0) / 1000, bytesPerPing: bytes / Math.max(1, latencies.length), entriesPerPing: entries / Math.max(1, latencies.length) };
}
