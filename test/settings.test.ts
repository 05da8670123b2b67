import { test, after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type SeedName, type TestServer } from './helpers/server.js';
import { Listeners } from './helpers/events.js';
import { assertError, assertSuccess } from './helpers/assertions.js';
import { assertMatchesSchema } from './helpers/openapi.js';
import { withDb } from './helpers/direct-db.js';
import { LANGUAGES, USER_SETTING_DEFAULTS, USER_SETTING_KINDS, type SettingKind } from '../src/state/user-settings.js';

let server: TestServer;
before(async () => {
  server = await startTestServer({ env: { PARLANCE_LOG_LEVEL: 'info' } });
});
after(() => server.close());

async function mySettings(name: SeedName) {
  const res = await server.as(name).post('/register', { fetch_event_types: ['user_settings'] });
  return res.body.user_settings as Record<string, unknown>;
}
const patch = (as: SeedName, params: Record<string, unknown>) => server.as(as).patch('/settings', params);
const ok = async (as: SeedName, params: Record<string, unknown>) => {
  const body = assertSuccess(await patch(as, params));
  assertMatchesSchema('/settings', 'patch', body);
  return body;
};

// Values each kind of setting must accept (other than the default) and refuse, with the refusal's message.
function cases(name: string, kind: SettingKind): { good: unknown[]; bad: [unknown, string][] } {
  switch (kind.kind) {
    case 'boolean':
      return { good: [true, false], bad: [['yes', `${name} is not a boolean`], [1, `${name} is not a boolean`]] };
    case 'int_enum':
      return { good: [...kind.values], bad: [[Math.max(...kind.values) + 1, `Invalid ${name}`], [0, `Invalid ${name}`], ['x', `${name} is not an integer`]] };
    case 'integer': {
      const msg = (v: number) => (name === 'email_notifications_batching_period_seconds' ? `Invalid email batching period: ${v} seconds` : `Invalid ${name}`);
      return { good: [kind.min, kind.max], bad: [[kind.min - 1, msg(kind.min - 1)], [kind.max + 1, msg(kind.max + 1)], [1.5, `${name} is not an integer`]] };
    }
    case 'string_enum': {
      const msg = name === 'notification_sound' ? "Invalid notification sound 'bogus'" : `Invalid ${name}`;
      return { good: [...kind.values, ...Object.keys(kind.aliases ?? {})], bad: [['bogus', msg]] };
    }
    case 'timezone':
      return { good: ['Europe/Berlin', 'America/Argentina/Buenos_Aires', 'Asia/Calcutta', 'UTC', ''], bad: [['Mars/Olympus_Mons', 'Invalid timezone'], ['+05:00', 'Invalid timezone'], ['Europe', 'Invalid timezone']] };
    case 'string':
      return { good: ['x'], bad: [] };
  }
}

describe('own settings', () => {
  test('every setting accepts its values and refuses others', async () => {
    for (const [name, kind] of Object.entries(USER_SETTING_KINDS) as [string, SettingKind][]) {
      const { good, bad } = cases(name, kind);
      for (const value of good) {
        await ok('cordelia', { [name]: value });
        const stored = (await mySettings('cordelia'))[name];
        const alias = kind.kind === 'string_enum' ? (kind.aliases?.[value as string] ?? value) : value;
        assert.equal(stored, alias, `${name}=${JSON.stringify(value)}`);
      }
      for (const [value, msg] of bad) {
        assertError(await patch('cordelia', { [name]: value }), 400, 'BAD_REQUEST', msg);
      }
      await ok('cordelia', { [name]: (USER_SETTING_DEFAULTS as Record<string, unknown>)[name] });
    }
  });

  test('emoji sets by their neutral names; languages from the list; web_home_view by its old name', async () => {
    await ok('cordelia', { emojiset: 'vendor_a' });
    assert.equal((await mySettings('cordelia')).emojiset, 'google');
    await ok('cordelia', { emojiset: 'vendor_b' });
    assert.equal((await mySettings('cordelia')).emojiset, 'twitter');
    await ok('cordelia', { web_home_view: 'recent_topics' });
    assert.equal((await mySettings('cordelia')).web_home_view, 'recent');
    const l = await Listeners.open(server, ['cordelia']);
    for (const { code, name } of LANGUAGES) {
      await ok('cordelia', { default_language: code });
      const [ev] = await l.take('cordelia', 'user_settings');
      assert.deepEqual([ev.property, ev.value, ev.language_name], ['default_language', code, name]);
    }
    assertError(await patch('cordelia', { default_language: 'klingon' }), 400, 'BAD_REQUEST', 'Invalid default_language');
    await ok('cordelia', { default_language: 'en', emojiset: 'google', web_home_view: 'inbox' });
  });

  test('each changed setting is announced once to every queue of the user, and to no one else', async () => {
    const first = await Listeners.open(server, ['hamlet', 'cordelia', 'iago']);
    const second = await Listeners.open(server, ['hamlet']);
    const body = await ok('hamlet', { twenty_four_hour_time: true, color_scheme: 2, emojiset: 'vendor_b', default_language: 'de', web_home_view: 'all_messages', unknown_thing: 1 });
    assert.deepEqual(body.ignored_parameters_unsupported, ['unknown_thing']);
    for (const l of [first, second]) {
      const events = (await l.take('hamlet', 'user_settings')).sort((a, b) => a.property.localeCompare(b.property));
      assert.deepEqual(events.map((e) => [e.property, e.value]), [
        ['color_scheme', 2], ['default_language', 'de'], ['emojiset', 'twitter'], ['twenty_four_hour_time', true], ['web_home_view', 'all_messages'],
      ]);
      assert.equal(events[1].language_name, 'German');
      assert.ok(events.every((e) => e.op === 'update' && (e.property === 'default_language') === ('language_name' in e)));
    }
    assert.deepEqual(await first.take('cordelia', 'user_settings'), []);
    assert.deepEqual(await first.take('iago', 'user_settings'), []);
    await ok('hamlet', { color_scheme: 2 });
    assert.deepEqual(await first.take('hamlet', 'user_settings'), [], 'unchanged values announce nothing');
    await ok('hamlet', { twenty_four_hour_time: false, default_language: 'en', web_home_view: 'inbox', emojiset: 'google', color_scheme: 1 });
  });

  test('every human role changes their own settings; bots may not', async () => {
    for (const who of ['desdemona', 'iago', 'shiva', 'hamlet', 'polonius'] as const) {
      await ok(who, { left_side_userlist: true });
      assert.equal((await mySettings(who)).left_side_userlist, true, who);
      await ok(who, { left_side_userlist: false });
    }
    assertError(await patch('bot', { left_side_userlist: true }), 400, 'BAD_REQUEST', 'This endpoint does not accept bot requests.');
  });

  test('time zone and name changes reach everyone as realm_user updates', async () => {
    const l = await Listeners.open(server, ['cordelia', 'polonius', 'shiva']);
    await ok('shiva', { timezone: 'Europe/Berlin', full_name: 'Shiva the Moderator' });
    for (const who of ['cordelia', 'polonius', 'shiva'] as const) {
      const people = (await l.take(who, 'realm_user')).map((e) => e.person);
      assert.deepEqual(people, [
        { user_id: server.users.shiva.id, email: server.users.shiva.email, timezone: 'Europe/Berlin' },
        { user_id: server.users.shiva.id, full_name: 'Shiva the Moderator' },
      ], who);
    }
    const me = await server.as('shiva').get('/users/me');
    assert.equal(me.body.full_name, 'Shiva the Moderator');
    assert.equal(me.body.timezone, 'Europe/Berlin');
  });

  test('full_name rules', async () => {
    const cases: [string, string][] = [
      ['x'.repeat(101), 'Name too long!'],
      [' x ', 'Name too short!'],
      ['Star*Man', 'Invalid characters in name!'],
      ['Mr "Quote"', 'Invalid characters in name!'],
      ['Hamlet|12', 'Invalid format!'],
    ];
    for (const [name, msg] of cases) assertError(await patch('shiva', { full_name: name }), 400, 'BAD_REQUEST', msg);
    await ok('shiva', { full_name: '  Shiva Again  ' });
    assert.equal((await server.as('shiva').get('/users/me')).body.full_name, 'Shiva Again');

    assertSuccess(await server.as('desdemona').patch('/realm', { require_unique_names: true }));
    assertError(await patch('shiva', { full_name: 'king hamlet' }), 400, 'BAD_REQUEST', 'Unique names required in this organization.');
    assertSuccess(await server.as('desdemona').patch('/realm', { require_unique_names: false, name_changes_disabled: true }));
    try {
      assertError(await patch('shiva', { full_name: 'Shiva Blocked' }), 400, 'BAD_REQUEST', 'Name changes are disabled in this organization. Please contact an administrator.');
      await ok('iago', { full_name: 'Iago Admin' });
      await ok('shiva', { full_name: 'Shiva Again' }); // unchanged: allowed
    } finally {
      assertSuccess(await server.as('desdemona').patch('/realm', { name_changes_disabled: false }));
    }
  });

  test('password change needs the old password and stores an argon2id hash', async () => {
    const c = server.as('cordelia');
    assertError(await c.patch('/settings', { new_password: 'another secret' }), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'old_password' argument");
    assertError(await c.patch('/settings', { old_password: 'wrong', new_password: 'another secret' }), 400, 'BAD_REQUEST', 'Wrong password!');
    assertError(await c.patch('/settings', { old_password: server.users.cordelia.password, new_password: 'abc' }), 400, 'BAD_REQUEST', 'New password is too weak!');
    await ok('cordelia', { old_password: server.users.cordelia.password, new_password: 'another secret' });
    const hash = await withDb(server, async (db) => (await db.selectFrom('users').select('password_hash').where('id', '=', server.users.cordelia.id).executeTakeFirstOrThrow()).password_hash);
    assert.match(String(hash), /^\$argon2id\$/);
    assert.equal((await server.anon().post('/fetch_api_key', { username: server.users.cordelia.email, password: 'another secret' })).status, 200);
    assert.equal((await server.anon().post('/fetch_api_key', { username: server.users.cordelia.email, password: server.users.cordelia.password })).status, 401);
    await ok('cordelia', { old_password: 'another secret', new_password: server.users.cordelia.password });
  });

  test('an e-mail change completes through the logged confirmation link', async () => {
    assertError(await patch('hamlet', { email: 'not an address' }), 400, 'BAD_REQUEST', "Invalid email 'not an address'");
    assertError(await patch('iago', { email: 'cordelia@zulip.example.com' }), 400, 'BAD_REQUEST', "Email 'cordelia@zulip.example.com' already in use");
    const res = await ok('hamlet', { email: 'prince@zulip.example.com' });
    assert.equal(res.account_email, 'Check your email for a confirmation link.');
    assert.equal((await server.as('hamlet').get('/users/me')).body.email, server.users.hamlet.email, 'unchanged until confirmed');
    await new Promise((r) => setTimeout(r, 200));
    const path = /"path":"(\/accounts\/confirm_new_email\/[A-Za-z0-9]+)"/.exec(server.stdout)?.[1];
    assert.ok(path, 'confirmation link logged');
    const l = await Listeners.open(server, ['cordelia', 'polonius']);
    assertSuccess(await server.anon().get(path!, {}, { root: true }));
    for (const who of ['cordelia', 'polonius'] as const) {
      const people = (await l.take(who, 'realm_user')).map((e) => e.person);
      // In the reference server's order (do_change_user_delivery_email): the address, then the API e-mail.
      assert.deepEqual(people, [
        { user_id: server.users.hamlet.id, delivery_email: 'prince@zulip.example.com' },
        { user_id: server.users.hamlet.id, new_email: 'prince@zulip.example.com' },
      ]);
    }
    assertError(await server.anon().get(path!, {}, { root: true }), 404, 'BAD_REQUEST', 'Invalid or expired confirmation link');
    server.users.hamlet.email = 'prince@zulip.example.com';
    assertSuccess(await server.as('desdemona').patch('/realm', { email_changes_disabled: true }));
    try {
      assertError(await patch('shiva', { email: 'shiva2@zulip.example.com' }), 400, 'BAD_REQUEST', 'Email address changes are disabled in this organization.');
      await ok('iago', { email: 'iago2@zulip.example.com' });
    } finally {
      assertSuccess(await server.as('desdemona').patch('/realm', { email_changes_disabled: false }));
    }
  });

  test('turning drafts synchronisation off deletes the stored drafts without drafts events', async () => {
    assertSuccess(await server.as('shiva').post('/drafts', { drafts: [{ type: '', to: [], topic: '', content: 'keep?' }] }));
    const l = await Listeners.open(server, ['shiva']);
    await ok('shiva', { enable_drafts_synchronization: false });
    assert.deepEqual((await l.take('shiva')).map((e) => [e.type, e.property]), [['user_settings', 'enable_drafts_synchronization']]);
    assert.equal((await server.as('shiva').get('/drafts')).body.count, 0);
    await ok('shiva', { enable_drafts_synchronization: true });
  });

  test('invisible mode: presence_enabled off shows the user offline at once', async () => {
    const l = await Listeners.open(server, ['cordelia'], { client_capabilities: { simplified_presence_events: true } });
    await server.as('shiva').post('/users/me/presence', { status: 'active' });
    await l.clear();
    const before = Math.floor(Date.now() / 1000);
    await ok('shiva', { presence_enabled: false });
    const [ev] = await l.take('cordelia', 'presence');
    const seen = ev.presences[server.users.shiva.id];
    assert.ok(seen.active_timestamp <= before - 140 && seen.idle_timestamp <= before - 140, JSON.stringify(seen));
    await ok('shiva', { presence_enabled: true });
    const [back] = await l.take('cordelia', 'presence');
    assert.ok(back.presences[server.users.shiva.id].active_timestamp >= before);
  });

  test('deprecated paths still work', async () => {
    for (const path of ['/settings/display', '/settings/notifications']) {
      const res = await server.as('cordelia').patch(path, { left_side_userlist: true, enable_sounds: false, bogus: 1 });
      assert.deepEqual(assertSuccess(res).ignored_parameters_unsupported, ['bogus']);
      const s = await mySettings('cordelia');
      assert.equal(s.left_side_userlist, true);
      assert.equal(s.enable_sounds, false);
      await ok('cordelia', { left_side_userlist: false, enable_sounds: true });
    }
  });
});

describe('bulk settings', () => {
  test('administrators and owners change listed users; others may not', async () => {
    const l = await Listeners.open(server, ['shiva', 'iago', 'cordelia']);
    await ok('iago', { starred_message_counts: false, target_users: { user_ids: [server.users.shiva.id, server.users.cordelia.id] } });
    for (const who of ['shiva', 'cordelia'] as const) assert.deepEqual((await l.take(who, 'user_settings')).map((e) => [e.property, e.value]), [['starred_message_counts', false]]);
    assert.deepEqual(await l.take('iago', 'user_settings'), []);
    await ok('desdemona', { starred_message_counts: true, target_users: { user_ids: [server.users.shiva.id, server.users.cordelia.id] } });
    assert.equal((await mySettings('shiva')).starred_message_counts, true);
    for (const who of ['shiva', 'hamlet', 'polonius'] as const) {
      assertError(await patch(who, { starred_message_counts: false, target_users: { user_ids: [server.users.cordelia.id] } }), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
    }
    assertError(await patch('bot', { starred_message_counts: false, target_users: { user_ids: [server.users.cordelia.id] } }), 400, 'BAD_REQUEST', 'This endpoint does not accept bot requests.');
    assert.equal((await mySettings('cordelia')).starred_message_counts, true);
    assertError(await patch('iago', { full_name: 'X Y', target_users: { user_ids: [server.users.shiva.id] } }), 400, 'BAD_REQUEST', 'Account details of other users cannot be changed with target_users');
  });

  test('one transaction: an invalid target or value changes nobody', async () => {
    assertError(await patch('iago', { fluid_layout_width: true, target_users: { user_ids: [server.users.shiva.id, 999999] } }), 400, 'BAD_REQUEST', 'Invalid user ID: 999999');
    assertError(await patch('iago', { fluid_layout_width: true, target_users: { group_ids: [999999] } }), 400, 'BAD_REQUEST', 'Invalid user group ID: 999999');
    assertError(await patch('iago', { fluid_layout_width: true, color_scheme: 9, target_users: { user_ids: [server.users.shiva.id] } }), 400, 'BAD_REQUEST', 'Invalid color_scheme');
    assert.equal((await mySettings('shiva')).fluid_layout_width, false);
  });

  test('group members (active ones), skipping users who edited the setting themselves', async () => {
    const made = await server.as('iago').post('/users', { email: `bulk${Date.now()}@zulip.example.com`, password: 'secret123', full_name: 'Bulk Person' });
    const gone = made.body.user_id as number;
    const groups = (await server.as('iago').get('/user_groups')).body.user_groups as { id: number; name: string }[];
    const members = groups.find((g) => g.name === 'role:members')!.id;
    assertSuccess(await server.as('iago').delete(`/users/${gone}`));
    assertError(await patch('iago', { fluid_layout_width: true, target_users: { user_ids: [gone] } }), 400, 'BAD_REQUEST', `Invalid user ID: ${gone}`);

    await ok('cordelia', { high_contrast_mode: false, fluid_layout_width: true });
    const l = await Listeners.open(server, ['cordelia', 'shiva', 'polonius']);
    await ok('iago', { fluid_layout_width: false, high_contrast_mode: true, target_users: { group_ids: [members], skip_if_already_edited: true } });
    assert.deepEqual((await l.take('cordelia', 'user_settings')).map((e) => e.property), [], 'both were her own choices');
    assert.deepEqual((await l.take('shiva', 'user_settings')).map((e) => e.property), ['high_contrast_mode']);
    assert.deepEqual(await l.take('polonius', 'user_settings'), [], 'guests are not in role:members');
    const cordelia = await mySettings('cordelia');
    assert.deepEqual([cordelia.fluid_layout_width, cordelia.high_contrast_mode], [true, false]);
    // Without skip_if_already_edited every member changes.
    await ok('iago', { high_contrast_mode: true, target_users: { group_ids: [members], user_ids: [server.users.polonius.id] } });
    assert.equal((await mySettings('cordelia')).high_contrast_mode, true);
    assert.equal((await mySettings('polonius')).high_contrast_mode, true);
  });

  test('the bulk form by role: owners and administrators only', async () => {
    const target = { user_ids: [server.users.polonius.id] };
    for (const name of ['desdemona', 'iago'] as const) {
      const res = await server.as(name).patch('/settings', { enter_sends: name === 'desdemona', target_users: target });
      assert.equal(res.status, 200, `${name}: ${res.text}`);
    }
    for (const name of ['shiva', 'cordelia', 'polonius'] as const) {
      const res = await server.as(name).patch('/settings', { enter_sends: true, target_users: target });
      assert.deepEqual([res.status, res.body.code, res.body.msg], [400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator'], name);
    }
    const res = await server.as('polonius').post('/register', { fetch_event_types: ['user_settings'] });
    assert.equal(res.body.user_settings.enter_sends, false, 'the last change, by an administrator');
    const deactivated = await server.as('iago').patch('/settings', { enter_sends: true, target_users: { group_ids: [999999] } });
    assert.equal(deactivated.body.msg, 'Invalid user group ID: 999999');
  });
});
