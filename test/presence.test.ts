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
