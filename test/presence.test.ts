import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { Listeners } from './helpers/events.js';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

test('presence: legacy and modern formats, last_update_id round trips, events', async () => {
  const legacy = await Listeners.open(server, ['cordelia']);
  const modern = await Listeners.open(server, ['iago'], { client_capabilities: { simplified_presence_events: true } });
  const first = await server.as('hamlet').post('/users/me/presence', { status: 'active' });
  assert.equal(first.status, 200, first.text);
  const entry = first.body.presences[server.users.hamlet.email];
  assert.equal(entry.website.status, 'active');
  assert.equal(entry.website.client, 'website');
  assert.equal(entry.website.pushable, false);
  assert.equal(entry.aggregated.status, 'active');
  assert.ok(!('pushable' in entry.aggregated));
  assert.equal(typeof first.body.server_timestamp, 'number');
  const id1 = first.body.presence_last_update_id;
  assert.ok(id1 >= 1);

  const [ev] = await legacy.take('cordelia', 'presence');
  assert.equal(ev.user_id, server.users.hamlet.id);
  assert.equal(ev.presence.website.status, 'active');
  const [mev] = await modern.take('iago', 'presence');
  assert.deepEqual(Object.keys(mev), ['type', 'presences', 'id']);
  assert.equal(typeof mev.presences[server.users.hamlet.id].active_timestamp, 'number');

  // Modern format when last_update_id is passed; only what changed after it.
  const m = await server.as('cordelia').post('/users/me/presence', { status: 'idle', last_update_id: -1 });
  assert.ok(m.body.presences[server.users.hamlet.id]);
  assert.equal(typeof m.body.presences[server.users.hamlet.id].idle_timestamp, 'number');
  const since = await server.as('cordelia').post('/users/me/presence', { status: 'idle', last_update_id: m.body.presence_last_update_id });
  assert.deepEqual(since.body.presences, {});
  assert.equal(since.body.presence_last_update_id, m.body.presence_last_update_id);
  await server.as('shiva').post('/users/me/presence', { status: 'active' });
  const changed = await server.as('cordelia').post('/users/me/presence', { status: 'idle', last_update_id: m.body.presence_last_update_id });
  assert.deepEqual(Object.keys(changed.body.presences), [String(server.users.shiva.id)]);

  const slim = await server.as('cordelia').post('/users/me/presence', { status: 'idle', slim_presence: true });
  assert.ok(slim.body.presences[server.users.hamlet.id]);
  const ping = await server.as('cordelia').post('/users/me/presence', { status: 'active', ping_only: true });
  assert.ok(!('presences' in ping.body));
  const bad = await server.as('cordelia').post('/users/me/presence', { status: 'away' });
  assert.equal(bad.status, 400);

  const reg = await server.as('iago').post('/register', { fetch_event_types: ['presence'], slim_presence: true });
  assert.ok(reg.body.presences[server.users.hamlet.id]);
  assert.equal(typeof reg.body.presence_last_update_id, 'number');
  assert.equal(typeof reg.body.server_timestamp, 'number');
});

test('invisible users share no presence', async () => {
  await server.as('polonius').patch('/settings', { presence_enabled: false });
  const l = await Listeners.open(server, ['cordelia']);
  await server.as('polonius').post('/users/me/presence', { status: 'active' });
  assert.deepEqual(await l.take('cordelia', 'presence'), []);
  const res = await server.as('cordelia').post('/users/me/presence', { status: 'active', slim_presence: true });
  assert.ok(!(String(server.users.polonius.id) in res.body.presences));
});

test('GET /realm/presence: the organization in the legacy format', async () => {
  const { assertMatchesSchema } = await import('./helpers/openapi.js');
  await server.as('shiva').post('/users/me/presence', { status: 'active' });
  const res = await server.as('hamlet').get('/realm/presence');
  assert.equal(res.status, 200, res.text);
  assertMatchesSchema('/realm/presence', 'get', res.body);
  const shiva = res.body.presences[server.users.shiva.email];
  assert.deepEqual([shiva.aggregated.status, shiva.website.client, shiva.website.pushable], ['active', 'website', false]);
  assert.equal(typeof res.body.server_timestamp, 'number');
  assert.ok(res.body.presence_last_update_id >= 1);
  assert.ok(!(server.users.polonius.email in res.body.presences), 'invisible users are left out');
});

test('GET /users/{user_id_or_email}/presence: one user, offline once stale; errors', async () => {
  const { assertMatchesSchema } = await import('./helpers/openapi.js');
  const { withDb } = await import('./helpers/direct-db.js');
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
  await error(String(server.users.polonius.id), `No presence data for ${server.users.polonius.id}`); // invisible
  await error('999999', 'No such user');
  await error(String(server.users.lear.id), 'No such user');
});

test('presence history: 14 days by default, history_limit_days otherwise', async () => {
  const { withDb } = await import('./helpers/direct-db.js');
  await server.as('iago').post('/users/me/presence', { status: 'active' });
  const old = Math.floor(Date.now() / 1000) - 20 * 86400;
  // Written as the server writes: a changed row takes the next id of the organization's presence sequence.
  await withDb(server, async (db) => {
    const { realm_id } = await db.selectFrom('user_presence').select('realm_id').where('user_id', '=', server.users.iago.id).executeTakeFirstOrThrow();
    const seq = await db.selectFrom('presence_sequence').select(['realm_id', 'last_update_id']).where('realm_id', '=', realm_id).executeTakeFirstOrThrow();
    await db.updateTable('presence_sequence').set({ last_update_id: Number(seq.last_update_id) + 1 }).where('realm_id', '=', seq.realm_id).execute();
    await db.updateTable('user_presence').set({ last_active_time: old, last_connected_time: old, last_update_id: Number(seq.last_update_id) + 1 })
      .where('user_id', '=', server.users.iago.id).execute();
  });
  const iago = String(server.users.iago.id);
  const def = await server.as('hamlet').post('/users/me/presence', { status: 'active', slim_presence: true });
  assert.ok(!(iago in def.body.presences));
  const wide = await server.as('hamlet').post('/users/me/presence', { status: 'active', last_update_id: -1, history_limit_days: 30 });
  assert.equal(wide.body.presences[iago].active_timestamp, old);
  const reg = await server.as('hamlet').post('/register', { fetch_event_types: ['presence'], slim_presence: true });
  assert.ok(!(iago in reg.body.presences));
  const regWide = await server.as('hamlet').post('/register', { fetch_event_types: ['presence'], slim_presence: true, presence_history_limit_days: 30 });
  assert.ok(iago in regWide.body.presences);
  assert.ok(!(server.users.iago.email in (await server.as('hamlet').get('/realm/presence')).body.presences));
});

test('what the server keeps of presence follows invisibility and deactivation', async () => {
  const shiva = String(server.users.shiva.id);
  const full = async () => (await server.as('hamlet').post('/users/me/presence', { status: 'active', slim_presence: true })).body.presences;
  await server.as('shiva').post('/users/me/presence', { status: 'active' });
  assert.ok(shiva in (await full()));
  assert.equal((await server.as('shiva').patch('/settings', { presence_enabled: false })).status, 200);
  assert.ok(!(shiva in (await full())), 'invisible');
  assert.equal((await server.as('shiva').post('/users/me/status', { away: false })).status, 200);
  assert.ok(shiva in (await full()), 'visible again through the deprecated away');
  assert.equal((await server.as('iago').delete(`/users/${shiva}`)).status, 200);
  assert.ok(!(shiva in (await full())), 'deactivated');
  assert.ok(!(server.users.shiva.email in (await server.as('hamlet').get('/realm/presence')).body.presences));
  assert.equal((await server.as('iago').post(`/users/${shiva}/reactivate`)).status, 200);
  assert.ok(shiva in (await full()), 'reactivated');
});
