// B7: POST /users/me/presence in an organization of 1,000 active users (median ≤ 2 ms), and a bulk settings
// change for 1,000 users (≤ 1 s). Users and their presence are seeded with bulk inserts.
// Usage: node --import tsx bench/presence.ts [--quick]   (DATABASE_URL selects PostgreSQL)
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { loadConfig } from '../src/config.js';
import { openApp } from '../src/server.js';
import { findRealmBySubdomain } from '../src/store/realms.js';
import { emailKey } from '../src/store/users.js';
import { startTestServer, type TestServer } from '../test/helpers/server.js';
import { basic, percentile, request } from './load.js';
import { report, type Row } from './report.js';

const quick = process.argv.includes('--quick');
const USERS = 1000;

// Members in bulk: user rows, role-group memberships and a recent presence for each.
async function seedUsers(server: TestServer, count: number): Promise<{ id: number; email: string; apiKey: string }[]> {
  const { app, database } = await openApp({ ...loadConfig({}, server.childEnv), logLevel: 'silent' });
  try {
    const realm = (await findRealmBySubdomain(app.db, ''))!;
    const now = Math.floor(Date.now() / 1000);
    const users: { id: number; email: string; apiKey: string }[] = [];
    for (let i = 0; i < count; i += 250) {
      const rows = Array.from({ length: Math.min(250, count - i) }, (_, j) => {
        const email = `presence${i + j}@zulip.example.com`;
        return { realm_id: realm.id, email, delivery_email: email, email_key: emailKey(email), full_name: `Presence ${i + j}`, role: 400,
          password_hash: null, api_key: `presencekey${String(i + j).padStart(21, '0')}`, date_joined: now };
      });
      const inserted = await app.db.insertInto('users').values(rows).returning(['id', 'email', 'api_key']).execute();
      users.push(...inserted.map((r) => ({ id: r.id, email: r.email, apiKey: r.api_key })));
    }
    const groups = await app.db.selectFrom('user_groups').select(['id', 'name']).where('realm_id', '=', realm.id).where('name', 'in', ['role:members', 'role:fullmembers']).execute();
    for (let i = 0; i < users.length; i += 250) {
      const batch = users.slice(i, i + 250);
      await app.db.insertInto('user_group_members').values(groups.flatMap((g) => batch.map((u) => ({ group_id: g.id, user_id: u.id })))).execute();
      await app.db.insertInto('user_presence').values(batch.map((u, j) => ({ user_id: u.id, realm_id: realm.id, last_active_time: now - (j % 600), last_connected_time: now - (j % 300), last_update_id: i + j + 1 }))).execute();
    }
    await app.db.insertInto('presence_sequence').values({ realm_id: realm.id, last_update_id: users.length }).execute();
    return users;
  } finally {
    app.limiter.close();
    await database.close();
  }
}

// The server process's CPU time (user + system), in ms: on a shared machine, wall-clock latency mostly measures
// the neighbours, so each row also gives the server's CPU time per request.
function serverCpuMs(server: TestServer): number {
  const fields = fs.readFileSync(`/proc/${server.proc!.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

let cpuPerRequest = 0;
async function timed(server: TestServer, n: number, fn: (i: number) => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  const cpu = serverCpuMs(server);
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn(i);
    times.push(performance.now() - t);
  }
  cpuPerRequest = (serverCpuMs(server) - cpu) / n;
  return times.sort((a, b) => a - b);
}

const ms = (sorted: number[]) => `${percentile(sorted, 50).toFixed(2)} ms / ${percentile(sorted, 99).toFixed(2)} ms (server CPU ${cpuPerRequest.toFixed(2)} ms per request)`;
const rows: Row[] = [];
const row = (figure: string, result: string, target?: string, met?: boolean) => rows.push({ id: 'B7', figure, result, target, met });
const server = await startTestServer({ env: { PARLANCE_HEARTBEAT_SECONDS: '600', PARLANCE_LOG_LEVEL: 'error' } });
try {
  const users = await seedUsers(server, USERS);
  const n = quick ? 300 : 2000;
  const auth = (i: number) => basic(users[i % users.length].email, users[i % users.length].apiKey);
  const post = (i: number, params: Record<string, string>) => request(server.url, auth(i), 'POST', '/users/me/presence', params).then((r) => {
    if (r.status !== 200) throw new Error(JSON.stringify(r.body));
    return r;
  });

  // Warm-up, then each user pings in turn as a client does once a minute: with the id it last saw, so the
  // answer carries only what changed since.
  await timed(server, 100, (i) => post(i, { status: 'active', last_update_id: '-1' }));
  const lastSeen = new Map<number, number>();
  const incremental = await timed(server, n, async (i) => {
    const r = await post(i, { status: i % 3 ? 'idle' : 'active', last_update_id: String(lastSeen.get(i % users.length) ?? USERS) });
    lastSeen.set(i % users.length, r.body.presence_last_update_id);
  });
  row(`POST /users/me/presence, ${USERS} active users, with last_update_id: median / p99`, ms(incremental), 'median ≤ 2 ms', percentile(incremental, 50) <= 2);
  row('POST /users/me/presence, ping_only: median / p99', ms(await timed(server, n, (i) => post(i, { status: 'active', ping_only: 'true' }))));
  row(`POST /users/me/presence, full modern answer (${USERS} entries): median / p99`, ms(await timed(server, quick ? 100 : 500, (i) => post(i, { status: 'active', last_update_id: '-1' }))));
  row(`POST /users/me/presence, full legacy answer (${USERS} entries): median / p99`, ms(await timed(server, quick ? 100 : 500, (i) => post(i, { status: 'active' }))));

  // A bulk settings change by an administrator for every member (1,000 seeded users and the test users).
  const iago = basic(server.users.iago.email, server.users.iago.apiKey);
  const groups = await request(server.url, iago, 'GET', '/user_groups');
  const members = groups.body.user_groups.find((g: { name: string }) => g.name === 'role:members').id;
  const bulk = await timed(server, quick ? 3 : 10, async (i) => {
    const r = await request(server.url, iago, 'PATCH', '/settings', { enter_sends: String(i % 2 === 0), target_users: JSON.stringify({ group_ids: [members] }) });
    if (r.status !== 200) throw new Error(JSON.stringify(r.body));
  });
  row(`bulk PATCH /settings for ${USERS}+ users (one setting): median / max`, `${percentile(bulk, 50).toFixed(0)} ms / ${bulk.at(-1)!.toFixed(0)} ms (server CPU ${cpuPerRequest.toFixed(0)} ms per request)`, '≤ 1 s', bulk.at(-1)! <= 1000);
} finally {
  if (server.stderr) console.error(server.stderr.slice(0, 2000));
  await server.stop('SIGTERM');
  await server.close();
}
report(rows);
process.exit(0);
