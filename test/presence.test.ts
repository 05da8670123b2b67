import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type SeedName, type TestServer } from './helpers/server.js';
import { sql } from 'kysely';
import { eventually, Listeners } from './helpers/events.js';
import { assertError, assertSuccess } from './helpers/assertions.js';
import { doUpdatePresence } from '../src/actions/presence.js';
import { nextPresenceUpdateId } from '../src/store/presence.js';
import { findRealmBySubdomain } from '../src/store/realms.js';
import { findUser } from '../src/store/users.js';
import { withDb } from './helpers/direct-db.js';
import { validateRegisterResponse } from './helpers/openapi-register.js';
import { assertMatchesSchema } from './helpers/openapi.js';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

const ping = async (as: SeedName, params: Record<string, unknown> = {}) => assertSuccess(await server.as(as).post('/users/me/presence', { status: 'active', ...params }));
const id = (name: SeedName) => server.users[name].id;
const day = 86400;

// Moves a user's presence into the past, as if last seen `seconds` ago. Written as the server writes: a changed
// row takes the next id of the organization's presence sequence (servers keep the rows they read by that id).
async function age(name: SeedName, seconds: number): Promise<void> {
  const at = Math.floor(Date.now() / 1000) - seconds;
  await withDb(server, async (db) => {
    const { realm_id } = await db.selectFrom('user_presence').select('realm_id').where('user_id', '=', id(name)).executeTakeFirstOrThrow();
    const seq = await db.selectFrom('presence_sequence').select('last_update_id').where('realm_id', '=', realm_id).executeTakeFirstOrThrow();
    const next = Number(seq.last_update_id) + 1;
    await db.updateTable('presence_sequence').set({ last_update_id: next }).where('realm_id', '=', realm_id).execute();
    await db.updateTable('user_presence').set({ last_active_time: at, last_connected_time: at, last_update_id: next }).where('user_id', '=', id(name)).execute();
  });
}

test('legacy format by default, keyed by e-mail', async () => {
  const body = await ping('hamlet');
  const entry = body.presences[server.users.hamlet.email];
  assert.deepEqual(Object.keys(entry).sort(), ['aggregated', 'website']);
  assert.deepEqual(Object.keys(entry.website).sort(), ['client', 'pushable', 'status', 'timestamp']);
  assert.deepEqual([entry.website.client, entry.website.status, entry.website.pushable], ['website', 'active', false]);
  assert.deepEqual(Object.keys(entry.aggregated).sort(), ['client', 'status', 'timestamp']);
  assert.equal(typeof body.server_timestamp, 'number');
  assert.ok(body.presence_last_update_id >= 1);
  const idle = await ping('cordelia', { status: 'idle' });
  assert.equal(idle.presences[server.users.cordelia.email].website.status, 'idle');
});

test('modern format with last_update_id or slim_presence; update ids round trip', async () => {
  const first = await ping('cordelia', { status: 'idle', last_update_id: -1 });
  const entry = first.presences[id('hamlet')];
  assert.deepEqual(Object.keys(entry).sort(), ['active_timestamp', 'idle_timestamp']);
  const since = first.presence_last_update_id;
  const none = await ping('cordelia', { status: 'idle', last_update_id: since });
  assert.deepEqual(none.presences, {});
  assert.equal(none.presence_last_update_id, since, 'nothing new: the same id');
  await ping('shiva');
  const changed = await ping('cordelia', { status: 'idle', last_update_id: since, history_limit_days: 0 });
  assert.deepEqual(Object.keys(changed.presences), [String(id('shiva'))], 'history_limit_days is ignored with an id');
  assert.ok(changed.presence_last_update_id > since);
  const slim = await ping('cordelia', { status: 'idle', slim_presence: true });
  assert.ok(slim.presences[id('hamlet')]);
  assert.ok(!(server.users.hamlet.email in slim.presences));
  assertSuccess(await server.as('cordelia').post('/users/me/presence', { status: 'active', new_user_input: true }));
});

test('ping_only returns no data and keeps the client where it was', async () => {
  const res = await ping('polonius', { ping_only: true });
  assert.deepEqual(Object.keys(res).sort(), ['msg', 'presence_last_update_id', 'result']);
  assert.equal(res.presence_last_update_id, -1);
  assert.equal((await ping('polonius', { ping_only: true, last_update_id: 7 })).presence_last_update_id, 7);
});

test('history: 14 days by default, history_limit_days otherwise', async () => {
  await ping('iago');
  await age('iago', 20 * day);
  const recent = await ping('cordelia', { slim_presence: true });
  assert.ok(!(String(id('iago')) in recent.presences));
  const longer = await ping('cordelia', { slim_presence: true, history_limit_days: 30 });
  assert.equal(longer.presences[id('iago')].idle_timestamp <= Math.floor(Date.now() / 1000) - 20 * day, true);
  const reg = await server.as('cordelia').post('/register', { fetch_event_types: ['presence'], slim_presence: true });
  assert.ok(!(String(id('iago')) in reg.body.presences));
  const regLong = await server.as('cordelia').post('/register', { fetch_event_types: ['presence'], slim_presence: true, presence_history_limit_days: 30 });
  assert.ok(String(id('iago')) in regLong.body.presences);
  assert.ok(!(server.users.iago.email in assertSuccess(await server.as('cordelia').get('/realm/presence')).presences), 'GET /realm/presence: 14 days');
  await age('iago', 10 * day);
  assert.ok(String(id('iago')) in (await ping('cordelia', { slim_presence: true })).presences);
});

test('presence events: legacy and simplified formats, to everyone, only when worth announcing', async () => {
  await age('hamlet', 3600);
  const legacy = await Listeners.open(server, ['cordelia', 'polonius']);
  const modern = await Listeners.open(server, ['iago'], { client_capabilities: { simplified_presence_events: true } });
  await ping('hamlet');
  for (const who of ['cordelia', 'polonius'] as const) {
    const [ev] = await legacy.take(who, 'presence');
    assert.deepEqual([ev.user_id, ev.email, ev.presence.website.status, ev.presence.website.client], [id('hamlet'), server.users.hamlet.email, 'active', 'website']);
    assert.equal(typeof ev.server_timestamp, 'number');
  }
  const [mev] = await modern.take('iago', 'presence');
  assert.deepEqual(Object.keys(mev).sort(), ['id', 'presences', 'type']);
  assert.deepEqual(Object.keys(mev.presences), [String(id('hamlet'))]);
  await ping('hamlet');
  await ping('hamlet', { status: 'idle' });
  assert.deepEqual(await legacy.take('cordelia', 'presence'), [], 'pings while online announce nothing');
});

test('concurrent pings: each change stored once, under its own id, and announced once if worth it', async () => {
  const names = ['hamlet', 'cordelia', 'iago'] as const;
  // Offline for an hour: the pings announce; online but not seen for 100 s: they only store.
  for (const [seconds, announced] of [[3600, names.map(id)], [100, []]] as const) {
    for (const name of names) {
      await ping(name);
      await age(name, seconds);
    }
    const since = (await ping('polonius', { last_update_id: -1 })).presence_last_update_id;
    const l = await Listeners.open(server, ['polonius']);
    const answers = await Promise.all(names.flatMap((name) => [1, 2, 3].map(() => ping(name, { last_update_id: since }))));
    const events = await l.take('polonius', 'presence');
    assert.deepEqual(events.map((e) => e.user_id).sort(), [...announced].sort(), `${seconds} s: events`);
    const rows = await withDb(server, (db) => db.selectFrom('user_presence').select(['user_id', 'last_update_id', 'last_connected_time']).where('user_id', 'in', names.map(id)).execute());
    const seq = await withDb(server, (db) => db.selectFrom('presence_sequence').select('last_update_id').executeTakeFirstOrThrow());
    const ids = rows.map((r) => Number(r.last_update_id));
    assert.equal(new Set(ids).size, names.length, 'distinct ids');
    assert.ok(ids.every((i) => i > since && i <= Number(seq.last_update_id)));
    assert.ok(rows.every((r) => Number(r.last_connected_time) >= Math.floor(Date.now() / 1000) - 5), 'stored');
    for (const a of answers) {
      for (const r of rows) if (Number(r.last_update_id) <= a.presence_last_update_id) assert.ok(String(r.user_id) in a.presences, 'every change up to the position');
    }
    const changed = await ping('polonius', { last_update_id: since });
    assert.deepEqual(Object.keys(changed.presences).sort(), names.map((n) => String(id(n))).sort());
    assert.equal(changed.presence_last_update_id, Number(seq.last_update_id));
  }
});

test('an answer holds every change up to its position, also one stored by another process meanwhile', async () => {
  await ping('hamlet');
  await age('hamlet', 3600);
  const since = (await ping('polonius', { last_update_id: -1 })).presence_last_update_id;
  let answer: Promise<Record<string, any>> | undefined;
  // Another process stores iago's presence and holds the sequence's lock while the server reads for hamlet's ping
  // and then waits to store it.
  await withDb(server, (db) => db.transaction().execute(async (tx) => {
    const { realm_id } = await tx.selectFrom('user_presence').select('realm_id').where('user_id', '=', id('iago')).executeTakeFirstOrThrow();
    const next = await nextPresenceUpdateId(tx, realm_id);
    const now = Math.floor(Date.now() / 1000);
    await tx.updateTable('user_presence').set({ last_active_time: now, last_connected_time: now, last_update_id: next }).where('user_id', '=', id('iago')).execute();
    answer = ping('hamlet', { last_update_id: since });
    if (process.env.DATABASE_URL) {
      const waiting = sql<{ n: number }>`select count(*) as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`;
      await eventually(async () => (Number((await waiting.execute(db)).rows[0].n) > 0 ? true : undefined));
    } else {
      // SQLite: the server waits for the write lock; give its read time to happen first.
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
  }));
  const { presences, presence_last_update_id: position } = await answer!;
  const rows = await withDb(server, (db) => db.selectFrom('user_presence').select(['user_id', 'last_update_id']).where('user_id', 'in', [id('hamlet'), id('iago')]).execute());
  for (const r of rows) {
    assert.ok(Number(r.last_update_id) > since && Number(r.last_update_id) <= position);
    assert.ok(String(r.user_id) in presences, `user ${r.user_id}, stored under ${r.last_update_id}, in the answer up to ${position}`);
  }
});

test('a ping stored by another process counts for the next one here', async () => {
  await ping('hamlet');
  await age('hamlet', 3600);
  // The server keeps the aged row; the other process then stores a new one.
  await ping('polonius', { last_update_id: -1 });
  const l = await Listeners.open(server, ['polonius']);
  await server.withApp(async (app) => {
    const realm = (await findRealmBySubdomain(app.db, ''))!;
    await doUpdatePresence(app, realm, (await findUser(app.db, realm.id, id('hamlet')))!, { status: 'active', pingOnly: true, slimPresence: false });
  });
  assert.equal((await l.waitFor('polonius', 'presence')).length, 1, 'announced by the other process');
  await ping('hamlet');
  assert.deepEqual(await l.take('polonius', 'presence'), [], 'online already: nothing to announce');
});

test('register blocks in both formats, matching the reference schema', async () => {
  for (const slim of [false, true]) {
    const reg = await server.as('polonius').post('/register', { fetch_event_types: ['presence'], slim_presence: slim });
    const body = assertSuccess(reg);
    // The reference description (feature level 247) knows only the legacy form of this block.
    if (!slim) assert.deepEqual(validateRegisterResponse(body), []);
    assert.ok((slim ? String(id('hamlet')) : server.users.hamlet.email) in body.presences);
    assert.equal(typeof body.presence_last_update_id, 'number');
    assert.equal(typeof body.server_timestamp, 'number');
  }
});

test('errors; bots report no presence', async () => {
  assertError(await server.as('cordelia').post('/users/me/presence', { status: 'away' }), 400, 'BAD_REQUEST', 'Invalid status: away');
  assertError(await server.as('cordelia').post('/users/me/presence', {}), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'status' argument");
  assertError(await server.as('bot').post('/users/me/presence', { status: 'active' }), 400, 'BAD_REQUEST', 'This endpoint does not accept bot requests.');
});

test('invisible users stop updating and look offline', async () => {
  await ping('shiva');
  const l = await Listeners.open(server, ['cordelia']);
  assertSuccess(await server.as('shiva').patch('/settings', { presence_enabled: false }));
  const [gone] = await l.take('cordelia', 'presence');
  assert.ok(gone.presence.website.timestamp < Math.floor(Date.now() / 1000) - 140);
  await age('shiva', 600);
  await ping('shiva');
  assert.deepEqual(await l.take('cordelia', 'presence'), [], 'an invisible user announces nothing');
  const seen = (await ping('cordelia', { slim_presence: true })).presences[id('shiva')];
  assert.ok(seen.active_timestamp <= Math.floor(Date.now() / 1000) - 600, 'and their pings are not recorded');
  assertSuccess(await server.as('shiva').patch('/settings', { presence_enabled: true }));
  const [back] = await l.take('cordelia', 'presence');
  assert.equal(back.presence.website.status, 'active');
});

test('GET /realm/presence: the organization in the legacy format', async () => {
  await ping('shiva');
  assertSuccess(await server.as('polonius').patch('/settings', { presence_enabled: false }));
  const res = await server.as('hamlet').get('/realm/presence');
  assert.equal(res.status, 200, res.text);
  assertMatchesSchema('/realm/presence', 'get', res.body);
  const shiva = res.body.presences[server.users.shiva.email];
  assert.deepEqual([shiva.aggregated.status, shiva.website.client, shiva.website.pushable], ['active', 'website', false]);
  assert.equal(typeof res.body.server_timestamp, 'number');
  assert.ok(!('presence_last_update_id' in res.body), 'the reference sends it only to POST /users/me/presence');
  const invisible = res.body.presences[server.users.polonius.email];
  assert.ok(invisible.aggregated.timestamp < Math.floor(Date.now() / 1000) - 140, 'invisible users look long gone');
  assert.ok(!(server.users.bot.email in res.body.presences));
});

test('GET /users/{user_id_or_email}/presence: one user, offline once stale; errors', async () => {
  await server.as('cordelia').post('/users/me/presence', { status: 'active' });
  for (const key of [String(server.users.cordelia.id), server.users.cordelia.email]) {
    const res = await server.as('hamlet').get(`/users/${encodeURIComponent(key)}/presence`);
    assert.equal(res.status, 200, res.text);
    assertMatchesSchema('/users/{user_id_or_email}/presence', 'get', res.body);
    assert.deepEqual(Object.keys(res.body.presence).sort(), ['aggregated', 'website']);
    assert.equal(res.body.presence.aggregated.status, 'active');
    assert.deepEqual(Object.keys(res.body.presence.website).sort(), ['status', 'timestamp']);
  }
  // A report older than the offline threshold is offline in the aggregate.
  await withDb(server, (db) => db.updateTable('user_presence').set({ last_active_time: 1000, last_connected_time: 1000 }).where('user_id', '=', server.users.cordelia.id).execute());
  const stale = await server.as('hamlet').get(`/users/${server.users.cordelia.id}/presence`);
  assert.deepEqual([stale.body.presence.aggregated.status, stale.body.presence.website.status, stale.body.presence.website.timestamp], ['offline', 'active', 1000]);

  const error = async (key: string, msg: string) => {
    const res = await server.as('hamlet').get(`/users/${encodeURIComponent(key)}/presence`);
    assert.deepEqual([res.status, res.body.code, res.body.msg], [400, 'BAD_REQUEST', msg], key);
  };
  await error(String(server.users.bot.id), 'Presence is not supported for bot users.');
  await error(String(server.users.desdemona.id), `No presence data for ${server.users.desdemona.id}`);
  await error(server.users.desdemona.email, `No presence data for ${server.users.desdemona.email}`);
  const invisible = assertSuccess(await server.as('hamlet').get(`/users/${server.users.polonius.id}/presence`));
  assert.equal(invisible.presence.aggregated.status, 'offline', 'invisible: offline');
  await error('999999', 'No such user');
  await error(String(server.users.lear.id), 'No such user');
});

test('what the server keeps of presence follows invisibility and deactivation', async () => {
  const shiva = String(server.users.shiva.id);
  const full = async () => (await server.as('hamlet').post('/users/me/presence', { status: 'active', slim_presence: true })).body.presences;
  await server.as('shiva').post('/users/me/presence', { status: 'active' });
  assert.ok(shiva in (await full()));
  assert.equal((await server.as('shiva').patch('/settings', { presence_enabled: false })).status, 200);
  const now = () => Math.floor(Date.now() / 1000);
  assert.ok((await full())[shiva].active_timestamp < now() - 140, 'invisible: backdated');
  assert.equal((await server.as('shiva').post('/users/me/status', { away: false })).status, 200);
  assert.ok((await full())[shiva].active_timestamp >= now() - 5, 'active again through the deprecated away');
  assert.equal((await server.as('iago').delete(`/users/${shiva}`)).status, 200);
  assert.ok(!(shiva in (await full())), 'deactivated');
  assert.ok(!(server.users.shiva.email in (await server.as('hamlet').get('/realm/presence')).body.presences));
  assert.equal((await server.as('iago').post(`/users/${shiva}/reactivate`)).status, 200);
  assert.ok(shiva in (await full()), 'reactivated');
});
