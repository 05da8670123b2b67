// PATCH /realm/user_settings_defaults: who may change the defaults, realm_user_settings_defaults events and
// register block, and new users starting with them (the values themselves: settings-values.test.ts).
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type SeedName, type TestServer } from './helpers/server.js';
import { assertError, assertSuccess } from './helpers/assertions.js';
import { validateRegisterResponse } from './helpers/openapi-register.js';
import { Listeners } from './helpers/events.js';
import { takeUntil } from './helpers/messages.js';
import { Client } from './helpers/client.js';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server?.close());

const defaults = async (who: SeedName = 'hamlet') =>
  assertSuccess(await server.as(who).post('/register', { fetch_event_types: ['realm_user_settings_defaults'] })).realm_user_settings_defaults;

test('the register block holds every default with the option lists', async () => {
  const reg = assertSuccess(await server.as('polonius').post('/register', { fetch_event_types: ['realm_user_settings_defaults'] }));
  assert.deepEqual(validateRegisterResponse(reg), []);
  const d = reg.realm_user_settings_defaults;
  assert.equal(d.twenty_four_hour_time, false);
  assert.equal(d.emojiset, 'google');
  assert.equal(d.email_address_visibility, 1);
  assert.ok(!('timezone' in d));
  assert.ok(Array.isArray(d.emojiset_choices) && d.emojiset_choices.length === 3);
  assert.ok(d.available_notification_sounds.includes('ding'));
});

test('administrators change defaults; everyone is told; existing users keep their settings', async () => {
  const l = await Listeners.open(server, ['hamlet', 'polonius', 'bot', 'desdemona', 'lear'], { event_types: ['realm_user_settings_defaults', 'user_settings'] });
  const res = assertSuccess(await server.as('iago').patch('/realm/user_settings_defaults', {
    twenty_four_hour_time: true, emojiset: 'vendor_b', color_scheme: 2, timezone: 'Europe/Berlin', dense_mode: true, left_side_userlist: false,
  }));
  assert.deepEqual(res.ignored_parameters_unsupported?.sort(), ['dense_mode', 'timezone']);
  const events = await takeUntil(l, 'hamlet', 'realm_user_settings_defaults', (e) => e.property === 'twenty_four_hour_time');
  assert.deepEqual(events.map(({ id: _id, ...e }) => e).sort((a, b) => a.property.localeCompare(b.property)), [
    { type: 'realm_user_settings_defaults', op: 'update', property: 'color_scheme', value: 2 },
    { type: 'realm_user_settings_defaults', op: 'update', property: 'emojiset', value: 'twitter' },
    { type: 'realm_user_settings_defaults', op: 'update', property: 'twenty_four_hour_time', value: true },
  ], 'unchanged values are not announced');
  for (const name of ['polonius', 'bot', 'desdemona'] as SeedName[]) assert.equal((await l.take(name, 'realm_user_settings_defaults')).length, 3, name);
  assert.deepEqual(await l.take('lear'), []);
  assert.deepEqual(await l.take('hamlet', 'user_settings'), [], 'existing users are not changed');

  const d = await defaults('cordelia');
  assert.deepEqual([d.twenty_four_hour_time, d.emojiset, d.color_scheme], [true, 'twitter', 2]);
  const mine = assertSuccess(await server.as('hamlet').post('/register', { fetch_event_types: ['user_settings'] })).user_settings;
  assert.deepEqual([mine.twenty_four_hour_time, mine.emojiset, mine.color_scheme], [false, 'google', 1]);
  // The owner too; nothing to change is fine.
  assertSuccess(await server.as('desdemona').patch('/realm/user_settings_defaults', { color_scheme: 2 }));
  assertSuccess(await server.as('desdemona').patch('/realm/user_settings_defaults', {}));
});

test('members, moderators, guests and bots may not change defaults', async () => {
  for (const name of ['shiva', 'hamlet', 'polonius', 'bot'] as SeedName[]) {
    assertError(await server.as(name).patch('/realm/user_settings_defaults', { enter_sends: true }), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
  }
  assert.equal((await defaults()).enter_sends, false);
  // A refused value leaves every other value of the request unapplied.
  assertError(await server.as('iago').patch('/realm/user_settings_defaults', { enter_sends: true, color_scheme: 9 }), 400, 'BAD_REQUEST', 'Invalid color_scheme');
  assert.equal((await defaults()).enter_sends, false);
});

test('new users start with the organization defaults', async () => {
  assertSuccess(await server.as('iago').patch('/realm/user_settings_defaults', { enter_sends: true, web_home_view: 'all_messages', presence_enabled: false }));
  const created = assertSuccess(await server.as('iago').post('/users', { email: 'newbie@zulip.example.com', password: 'secret123', full_name: 'Newbie' }));
  const key = assertSuccess(await server.anon().post('/fetch_api_key', { username: 'newbie@zulip.example.com', password: 'secret123' }));
  const newbie = new Client(server.url, { email: 'newbie@zulip.example.com', apiKey: key.api_key });
  const s = assertSuccess(await newbie.post('/register', { fetch_event_types: ['user_settings'] })).user_settings;
  assert.deepEqual([s.enter_sends, s.web_home_view, s.presence_enabled, s.twenty_four_hour_time, s.emojiset, s.color_scheme],
    [true, 'all_messages', false, true, 'twitter', 2]);
  // The user then changes them as their own; later changes of the defaults leave them alone.
  assertSuccess(await newbie.patch('/settings', { enter_sends: false }));
  assertSuccess(await server.as('iago').patch('/realm/user_settings_defaults', { enter_sends: false, twenty_four_hour_time: false }));
  const after = assertSuccess(await newbie.post('/register', { fetch_event_types: ['user_settings'] })).user_settings;
  assert.deepEqual([after.enter_sends, after.twenty_four_hour_time], [false, true]);
  assert.ok(created.user_id);
});
