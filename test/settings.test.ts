import { test, after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { Listeners } from './helpers/events.js';
import type { ParamValue } from './helpers/client.js';

let server: TestServer;
before(async () => {
  server = await startTestServer({ env: { PARLANCE_LOG_LEVEL: 'info' } });
});
after(() => server.close());

async function mySettings(name: 'hamlet' | 'cordelia' | 'shiva' | 'iago') {
  const res = await server.as(name).post('/register', { fetch_event_types: ['user_settings'] });
  return res.body.user_settings as Record<string, unknown>;
}

describe('own settings', () => {
  test('each changed setting is stored and announced once', async () => {
    const l = await Listeners.open(server, ['hamlet', 'cordelia']);
    const res = await server.as('hamlet').patch('/settings', { twenty_four_hour_time: true, color_scheme: 2, emojiset: 'vendor_b', default_language: 'de', web_home_view: 'all_messages', unknown_thing: 1 });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.ignored_parameters_unsupported, ['unknown_thing']);
    const events = await l.take('hamlet', 'user_settings');
    const byProperty = Object.fromEntries(events.map((e) => [e.property, e]));
    assert.equal(byProperty.twenty_four_hour_time.value, true);
    assert.equal(byProperty.color_scheme.value, 2);
    assert.equal(byProperty.emojiset.value, 'twitter');
    assert.equal(byProperty.default_language.language_name, 'German');
    assert.equal(events.length, 5);
    assert.deepEqual(await l.take('cordelia', 'user_settings'), []);
    const s = await mySettings('hamlet');
    assert.equal(s.twenty_four_hour_time, true);
    assert.equal(s.emojiset, 'twitter');
    assert.equal(s.web_home_view, 'all_messages');
    // Unchanged values announce nothing.
    await server.as('hamlet').patch('/settings', { color_scheme: 2 });
    assert.deepEqual(await l.take('hamlet', 'user_settings'), []);
  });

  test('values are checked', async () => {
    const cases: [Record<string, ParamValue>, string][] = [
      [{ color_scheme: 5 }, 'Invalid color_scheme'],
      [{ web_channel_default_view: 3 }, 'Invalid web_channel_default_view'],
      [{ twenty_four_hour_time: 'yes' }, 'twenty_four_hour_time is not a boolean'],
      [{ timezone: 'Mars/Olympus_Mons' }, 'Invalid timezone'],
      [{ emojiset: 'comic' }, 'Invalid emojiset'],
      [{ default_language: 'xx' }, 'Invalid default_language'],
    ];
    for (const [params, msg] of cases) {
      const res = await server.as('hamlet').patch('/settings', params);
      assert.equal(res.status, 400, JSON.stringify(params));
      assert.equal(res.body.msg, msg);
      assert.equal(res.body.code, 'BAD_REQUEST');
    }
  });

  test('time zone and name changes reach everyone as realm_user updates', async () => {
    const l = await Listeners.open(server, ['cordelia', 'polonius']);
    assert.equal((await server.as('shiva').patch('/settings', { timezone: 'Europe/Berlin', full_name: 'Shiva the Moderator' })).status, 200);
    for (const who of ['cordelia', 'polonius'] as const) {
      const people = (await l.take(who, 'realm_user')).map((e) => e.person);
      assert.ok(people.some((p) => p.user_id === server.users.shiva.id && p.timezone === 'Europe/Berlin'), who);
      assert.ok(people.some((p) => p.user_id === server.users.shiva.id && p.full_name === 'Shiva the Moderator'), who);
    }
    const me = await server.as('shiva').get('/users/me');
    assert.equal(me.body.full_name, 'Shiva the Moderator');
    assert.equal(me.body.timezone, 'Europe/Berlin');
    const long = await server.as('shiva').patch('/settings', { full_name: 'x'.repeat(101) });
    assert.equal(long.body.msg, 'Name too long!');
  });

  test('password change needs the old password', async () => {
    const c = server.as('cordelia');
    assert.equal((await c.patch('/settings', { new_password: 'another secret' })).body.msg, "Missing 'old_password' argument");
    assert.equal((await c.patch('/settings', { old_password: 'wrong', new_password: 'another secret' })).body.msg, 'Wrong password!');
    assert.equal((await c.patch('/settings', { old_password: server.users.cordelia.password, new_password: 'abc' })).body.msg, 'New password is too weak!');
    assert.equal((await c.patch('/settings', { old_password: server.users.cordelia.password, new_password: 'another secret' })).status, 200);
    const login = await server.anon().post('/fetch_api_key', { username: server.users.cordelia.email, password: 'another secret' });
    assert.equal(login.status, 200, login.text);
  });

  test('an e-mail change completes through the logged confirmation link', async () => {
    const res = await server.as('hamlet').patch('/settings', { email: 'prince@zulip.example.com' });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.account_email, 'Check your email for a confirmation link.');
    await new Promise((r) => setTimeout(r, 200));
    const path = /"path":"(\/accounts\/confirm_new_email\/[A-Za-z0-9]+)"/.exec(server.stdout)?.[1];
    assert.ok(path, 'confirmation link logged');
    const l = await Listeners.open(server, ['cordelia']);
    const confirm = await server.anon().get(path!, {}, { root: true });
    assert.equal(confirm.status, 200, confirm.text);
    const people = (await l.take('cordelia', 'realm_user')).map((e) => e.person);
    assert.ok(people.some((p) => p.new_email === 'prince@zulip.example.com'));
    const again = await server.anon().get(path!, {}, { root: true });
    assert.equal(again.status, 404);
    const taken = await server.as('iago').patch('/settings', { email: 'cordelia@zulip.example.com' });
    assert.equal(taken.body.msg, "Email 'cordelia@zulip.example.com' already in use");
  });

  test('deprecated paths still work', async () => {
    assert.equal((await server.as('cordelia').patch('/settings/display', { left_side_userlist: true })).status, 200);
    assert.equal((await server.as('cordelia').patch('/settings/notifications', { enable_sounds: false })).status, 200);
    const s = await mySettings('cordelia');
    assert.equal(s.left_side_userlist, true);
    assert.equal(s.enable_sounds, false);
  });
});

describe('bulk settings', () => {
  test('administrators change listed users and group members; others may not', async () => {
    const l = await Listeners.open(server, ['shiva', 'iago']);
    const res = await server.as('iago').patch('/settings', { starred_message_counts: false, target_users: { user_ids: [server.users.shiva.id] } });
    assert.equal(res.status, 200, res.text);
    assert.equal((await l.take('shiva', 'user_settings'))[0].property, 'starred_message_counts');
    assert.deepEqual(await l.take('iago', 'user_settings'), []);
    const denied = await server.as('cordelia').patch('/settings', { starred_message_counts: false, target_users: { user_ids: [server.users.shiva.id] } });
    assert.equal(denied.body.code, 'UNAUTHORIZED_PRINCIPAL');
    const bad = await server.as('iago').patch('/settings', { starred_message_counts: false, target_users: { user_ids: [999999] } });
    assert.equal(bad.body.msg, 'Invalid user ID: 999999');
    const account = await server.as('iago').patch('/settings', { full_name: 'X', target_users: { user_ids: [server.users.shiva.id] } });
    assert.equal(account.status, 400);
  });

  test('group members, skipping users who edited the setting themselves', async () => {
    await server.as('cordelia').patch('/settings', { fluid_layout_width: true });
    const realm = await server.as('iago').post('/register', { fetch_event_types: ['realm'] });
    const members = realm.body.realm_can_create_public_channel_group as number;
    const res = await server.as('iago').patch('/settings', { fluid_layout_width: false, high_contrast_mode: true, target_users: { group_ids: [members], skip_if_already_edited: true } });
    assert.equal(res.status, 200, res.text);
    const cordelia = await mySettings('cordelia');
    assert.equal(cordelia.fluid_layout_width, true, 'kept her own choice');
    assert.equal(cordelia.high_contrast_mode, true);
    const shiva = await mySettings('shiva');
    assert.equal(shiva.high_contrast_mode, true);
  });
});
