import { test, after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type SeedName, type TestServer } from './helpers/server.js';
import type { ParamValue } from './helpers/client.js';
import { Listeners } from './helpers/events.js';

let server: TestServer;
let groups: Map<string, number>;
before(async () => {
  server = await startTestServer();
  const res = await server.as('iago').post('/register', { fetch_event_types: ['realm_user_groups'] });
  groups = new Map(res.body.realm_user_groups.map((g: { name: string; id: number }) => [g.name, g.id]));
});
after(() => server.close());

const EVERYONE: SeedName[] = ['desdemona', 'iago', 'shiva', 'hamlet', 'cordelia', 'polonius', 'bot'];
let n = 0;
const unique = (base: string) => `${base} ${++n}`;
const group = (name: string) => groups.get(name)!;

const patch = (as: SeedName, params: Record<string, ParamValue>) => server.as(as).patch('/realm', params);

async function realmState(as: SeedName = 'hamlet'): Promise<Record<string, any>> {
  const res = await server.as(as).post('/register', { fetch_event_types: ['realm'] });
  assert.equal(res.status, 200, res.text);
  return res.body;
}

function expectError(res: { status: number; body: any; text: string }, msg: string, code = 'BAD_REQUEST') {
  assert.equal(res.status, 400, res.text);
  assert.equal(res.body.msg, msg);
  assert.equal(res.body.code, code);
}

const stripIds = (events: Record<string, any>[]) => events.map(({ id: _id, ...e }) => e);

async function createChannel(as: SeedName, params: Record<string, ParamValue> = {}) {
  const name = unique('Channel');
  const res = await server.as(as).post('/users/me/subscriptions', { subscriptions: [{ name }], ...params });
  return { res, name, id: res.status === 200 ? (await server.as(as).get('/get_stream_id', { stream: name })).body.stream_id : undefined };
}

describe('PATCH /realm: plain settings', () => {
  test('an administrator changes a setting: every user of the organization is told, and register follows', async () => {
    const l = await Listeners.open(server, [...EVERYONE, 'lear']);
    const res = await patch('iago', { name_changes_disabled: true, send_welcome_emails: false, no_such_setting: 1 });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { result: 'success', msg: '', name_changes_disabled: true, send_welcome_emails: false, ignored_parameters_unsupported: ['no_such_setting'] });
    for (const who of EVERYONE) {
      assert.deepEqual(stripIds(await l.take(who)), [
        { type: 'realm', op: 'update', property: 'name_changes_disabled', value: true },
        { type: 'realm', op: 'update', property: 'send_welcome_emails', value: false },
      ], who);
    }
    assert.deepEqual(await l.take('lear'), [], 'other organizations hear nothing');
    const state = await realmState();
    assert.equal(state.realm_name_changes_disabled, true);
    assert.equal(state.realm_send_welcome_emails, false);
    const again = await patch('iago', { name_changes_disabled: true });
    assert.deepEqual(again.body, { result: 'success', msg: '' }, 'unchanged: nothing to report');
    assert.deepEqual(await l.take('hamlet'), []);
    assert.equal((await patch('iago', { name_changes_disabled: false, send_welcome_emails: true })).status, 200);
  });

  test('name and description', async () => {
    const l = await Listeners.open(server, ['hamlet']);
    const res = await patch('iago', { name: 'Elsinore', description: 'A **castle**' });
    assert.deepEqual(res.body, { result: 'success', msg: '', name: 'updated', description: 'updated' });
    assert.deepEqual(stripIds(await l.take('hamlet')), [
      { type: 'realm', op: 'update', property: 'name', value: 'Elsinore' },
      { type: 'realm', op: 'update', property: 'description', value: 'A **castle**' },
    ]);
    const state = await realmState();
    assert.equal(state.realm_name, 'Elsinore');
    assert.equal(state.realm_description, 'A **castle**');
    expectError(await patch('iago', { name: '   ' }), "Organization name can't be empty.");
    expectError(await patch('iago', { name: 'x'.repeat(41) }), 'name is too long (limit: 40 characters)');
    expectError(await patch('iago', { description: 'x'.repeat(1001) }), 'description is too long (limit: 1000 characters)');
  });

  test('message editing settings travel as update_dict; "unlimited" means no limit', async () => {
    const l = await Listeners.open(server, ['hamlet']);
    const res = await patch('iago', { allow_message_editing: false, message_content_edit_limit_seconds: 'unlimited', message_content_delete_limit_seconds: 3600 });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { result: 'success', msg: '', allow_message_editing: false, message_content_edit_limit_seconds: null, message_content_delete_limit_seconds: 3600 });
    assert.deepEqual(stripIds(await l.take('hamlet')), [
      { type: 'realm', op: 'update_dict', property: 'default', data: { allow_message_editing: false } },
      { type: 'realm', op: 'update', property: 'message_content_delete_limit_seconds', value: 3600 },
      { type: 'realm', op: 'update_dict', property: 'default', data: { message_content_edit_limit_seconds: null } },
    ]);
    const state = await realmState();
    assert.equal(state.realm_allow_message_editing, false);
    assert.equal(state.realm_message_content_edit_limit_seconds, null);
    assert.equal(state.realm_message_content_delete_limit_seconds, 3600);
    for (const bad of [0, -5, 'soon']) {
      const r = await patch('iago', { move_messages_within_stream_limit_seconds: bad });
      expectError(r, `Bad value for 'move_messages_within_stream_limit_seconds': ${bad}`, 'REQUEST_VARIABLE_INVALID');
      assert.equal(r.body.var_name, 'move_messages_within_stream_limit_seconds');
    }
    assert.equal((await patch('iago', { allow_message_editing: true, message_content_edit_limit_seconds: 600, message_content_delete_limit_seconds: 'unlimited' })).status, 200);
  });

  test('enumerations, languages and providers are checked, and their events carry the API names', async () => {
    const l = await Listeners.open(server, ['hamlet']);
    const res = await patch('iago', {
      topics_policy: 'disable_empty_topic',
      message_edit_history_visibility_policy: 'moves',
      default_language: 'de',
      video_chat_provider: 0,
      giphy_rating: 3,
      digest_weekday: 4,
      org_type: 35,
      default_code_block_language: 'python',
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.topics_policy, 'updated');
    assert.equal(res.body.gif_rating_policy, 3);
    const events = stripIds(await l.take('hamlet'));
    assert.deepEqual(events.find((e) => e.data?.topics_policy), { type: 'realm', op: 'update_dict', property: 'default', data: { topics_policy: 'disable_empty_topic', mandatory_topics: true } });
    for (const [property, value] of [['message_edit_history_visibility_policy', 'moves'], ['default_language', 'de'], ['video_chat_provider', 0], ['gif_rating_policy', 3], ['digest_weekday', 4], ['org_type', 35], ['default_code_block_language', 'python']]) {
      assert.ok(events.some((e) => e.op === 'update' && e.property === property && e.value === value), String(property));
    }
    const state = await realmState();
    assert.equal(state.realm_topics_policy, 'disable_empty_topic');
    assert.equal(state.realm_mandatory_topics, true);
    assert.equal(state.realm_message_edit_history_visibility_policy, 'moves');
    assert.equal(state.realm_allow_edit_history, true);
    assert.equal(state.realm_default_language, 'de');
    assert.equal(state.realm_gif_rating_policy, 3);
    assert.equal(state.realm_org_type, 35);
    const cases: [Record<string, ParamValue>, string][] = [
      [{ topics_policy: 'sometimes' }, 'Invalid topics_policy'],
      [{ message_edit_history_visibility_policy: 'some' }, 'Invalid message_edit_history_visibility_policy'],
      [{ default_language: 'xx' }, "Invalid language 'xx'"],
      [{ video_chat_provider: 99 }, 'Invalid video_chat_provider 99'],
      [{ gif_rating_policy: 9 }, 'Invalid gif_rating_policy 9'],
      [{ digest_weekday: 7 }, 'Invalid digest_weekday'],
      [{ org_type: 36 }, 'Invalid org_type'],
      [{ send_welcome_emails: 'maybe' }, 'send_welcome_emails is not a boolean'],
      [{ digest_weekday: 'monday' }, 'digest_weekday is not an integer'],
      [{ jitsi_server_url: 'not a url' }, 'jitsi_server_url is not an allowed_type'],
      [{ jitsi_server_url: `https://${'j'.repeat(200)}.example.com` }, 'jitsi_server_url is not an allowed_type'],
      [{ welcome_message_custom_text: 'x'.repeat(8001) }, 'welcome_message_custom_text is too long (limit: 8000 characters)'],
    ];
    for (const [params, msg] of cases) expectError(await patch('iago', params), msg);
    assert.equal((await patch('iago', { topics_policy: 'allow_empty_topic', default_language: 'en', message_edit_history_visibility_policy: 'all' })).status, 200);
  });

  test('jitsi_server_url: a URL, or "default" for the server setting', async () => {
    assert.equal((await patch('iago', { jitsi_server_url: 'https://jitsi.example.com' })).status, 200);
    assert.equal((await realmState()).realm_jitsi_server_url, 'https://jitsi.example.com');
    const l = await Listeners.open(server, ['hamlet']);
    const res = await patch('iago', { jitsi_server_url: 'default' });
    assert.deepEqual(res.body, { result: 'success', msg: '', jitsi_server_url: null });
    assert.deepEqual(stripIds(await l.take('hamlet')), [{ type: 'realm', op: 'update', property: 'jitsi_server_url', value: null }]);
    assert.equal((await realmState()).realm_jitsi_server_url, null);
  });

  test('channel settings: an accessible active channel, or -1 for none', async () => {
    const pub = await createChannel('iago');
    const priv = await createChannel('iago', { invite_only: true });
    const l = await Listeners.open(server, ['hamlet']);
    const res = await patch('iago', { new_stream_announcements_stream_id: pub.id, moderation_request_channel_id: priv.id });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(stripIds(await l.take('hamlet')), [
      { type: 'realm', op: 'update', property: 'moderation_request_channel_id', value: priv.id },
      { type: 'realm', op: 'update', property: 'new_stream_announcements_stream_id', value: pub.id },
    ]);
    let state = await realmState();
    assert.equal(state.realm_new_stream_announcements_stream_id, pub.id);
    assert.equal(state.realm_moderation_request_channel_id, priv.id);
    expectError(await patch('iago', { signup_announcements_stream_id: 999999 }), 'Invalid channel ID');
    expectError(await patch('iago', { moderation_request_channel_id: pub.id }), 'Moderation request channel must be private.');
    assert.deepEqual((await patch('iago', { new_stream_announcements_stream_id: -1 })).body, { result: 'success', msg: '', new_stream_announcements_stream_id: -1 });
    state = await realmState();
    assert.equal(state.realm_new_stream_announcements_stream_id, -1);
  });

  test('a request applies whole or not at all', async () => {
    expectError(await patch('iago', { send_welcome_emails: false, default_language: 'xx' }), "Invalid language 'xx'");
    expectError(await patch('iago', { name: 'Half done', can_create_groups_typo: 1, can_add_custom_emoji_group: { new: group('role:everyone') } }), "'can_add_custom_emoji_group' setting cannot be set to 'role:everyone' group.");
    const state = await realmState();
    assert.equal(state.realm_send_welcome_emails, true);
    assert.notEqual(state.realm_name, 'Half done');
  });
});

describe('PATCH /realm: who may change what', () => {
  test('only administrators and owners may change settings', async () => {
    for (const who of ['shiva', 'hamlet', 'polonius', 'bot'] as const) {
      expectError(await patch(who, { send_welcome_emails: false }), 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
    }
    for (const who of ['desdemona', 'iago'] as const) {
      assert.equal((await patch(who, { inline_image_preview: who === 'iago' })).status, 200, who);
    }
    assert.equal((await realmState()).realm_inline_image_preview, true);
  });

  test('settings reserved to owners', async () => {
    const ownerOnly: Record<string, ParamValue>[] = [
      { invite_required: false },
      { emails_restricted_to_domains: true },
      { disallow_disposable_email_addresses: false },
      { waiting_period_threshold: 3 },
      { message_retention_days: 30 },
      { create_multiuse_invite_group: { new: group('role:moderators') } },
      { can_create_groups: { new: group('role:moderators') } },
      { can_invite_users_group: { new: group('role:moderators') } },
      { can_manage_all_groups: { new: group('role:administrators') } },
      { can_manage_billing_group: { new: group('role:owners') } },
    ];
    for (const params of ownerOnly) {
      expectError(await patch('iago', params), 'Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL');
      const res = await patch('desdemona', params);
      assert.equal(res.status, 200, `${JSON.stringify(params)}: ${res.text}`);
    }
    const state = await realmState();
    assert.equal(state.realm_invite_required, false);
    assert.equal(state.realm_waiting_period_threshold, 3);
    assert.equal(state.realm_message_retention_days, 30);
    assert.equal(state.realm_can_manage_billing_group, group('role:owners'));
    assert.deepEqual((await patch('desdemona', { message_retention_days: 'unlimited' })).body, { result: 'success', msg: '', message_retention_days: -1 });
    expectError(await patch('desdemona', { message_retention_days: 0 }), "Bad value for 'message_retention_days': 0", 'REQUEST_VARIABLE_INVALID');
    expectError(await patch('desdemona', { waiting_period_threshold: -1 }), 'waiting_period_threshold is too small');
    assert.equal((await patch('iago', { can_create_web_public_channel_group: { new: group('role:administrators') } })).status, 200, 'administrators keep the rest');
  });
});

describe('PATCH /realm: group settings', () => {
  test('a system group: update_dict event, register value, legacy policy and the permission itself follow', async () => {
    const l = await Listeners.open(server, EVERYONE);
    const mods = group('role:moderators');
    const res = await patch('iago', { can_create_public_channel_group: { new: mods, old: group('role:members') } });
    assert.deepEqual(res.body, { result: 'success', msg: '', can_create_public_channel_group: mods });
    for (const who of EVERYONE) {
      assert.deepEqual(stripIds(await l.take(who)), [{ type: 'realm', op: 'update_dict', property: 'default', data: { can_create_public_channel_group: mods } }], who);
    }
    const state = await realmState();
    assert.equal(state.realm_can_create_public_channel_group, mods);
    assert.equal(state.realm_create_public_stream_policy, 4);
    expectError((await createChannel('hamlet')).res, 'Insufficient permission');
    assert.equal((await createChannel('shiva')).res.status, 200);
    assert.equal((await patch('iago', { can_create_public_channel_group: { new: group('role:members') } })).status, 200);
    assert.equal((await createChannel('hamlet')).res.status, 200);
  });

  test('anonymous groups are stored and sent in their one normal form', async () => {
    const l = await Listeners.open(server, ['hamlet']);
    const value = { direct_members: [server.users.hamlet.id, server.users.cordelia.id, server.users.hamlet.id], direct_subgroups: [group('role:administrators')] };
    const res = await patch('iago', { can_add_custom_emoji_group: { new: value } });
    const normal = { direct_members: [server.users.hamlet.id, server.users.cordelia.id].sort((a, b) => a - b), direct_subgroups: [group('role:administrators')] };
    assert.deepEqual(res.body.can_add_custom_emoji_group, normal);
    assert.deepEqual(stripIds(await l.take('hamlet')), [{ type: 'realm', op: 'update_dict', property: 'default', data: { can_add_custom_emoji_group: normal } }]);
    assert.deepEqual((await realmState()).realm_can_add_custom_emoji_group, normal);
    const same = await patch('iago', { can_add_custom_emoji_group: { new: { direct_members: [...normal.direct_members].reverse(), direct_subgroups: normal.direct_subgroups }, old: normal } });
    assert.deepEqual(same.body, { result: 'success', msg: '' }, 'the same value in another order changes nothing');
    assert.deepEqual(await l.take('hamlet'), []);
    const one = await patch('iago', { can_add_custom_emoji_group: { new: { direct_members: [], direct_subgroups: [group('role:moderators')] } } });
    assert.equal(one.body.can_add_custom_emoji_group, group('role:moderators'), 'a lone subgroup is that group');
    const none = await patch('iago', { can_add_custom_emoji_group: { new: { direct_members: [], direct_subgroups: [] } } });
    assert.equal(none.body.can_add_custom_emoji_group, group('role:nobody'));
    assert.equal((await patch('iago', { can_add_custom_emoji_group: { new: group('role:members') } })).status, 200);
  });

  test('old must match the current value', async () => {
    const res = await patch('iago', { can_delete_any_message_group: { new: group('role:moderators'), old: group('role:members') } });
    expectError(res, "'old' value does not match the expected value.", 'EXPECTATION_MISMATCH');
    assert.equal((await realmState()).realm_can_delete_any_message_group, group('role:administrators'));
  });

  test('per-setting restrictions and invalid values', async () => {
    const created = await server.as('iago').post('/user_groups/create', { name: unique('Crew'), description: '', members: [server.users.hamlet.id] });
    assert.equal(created.status, 200, created.text);
    const crew = created.body.group_id as number;
    const cases: [Record<string, ParamValue>, string, string?][] = [
      [{ can_access_all_users_group: { new: group('role:moderators') } }, "'can_access_all_users_group' setting cannot be set to 'role:moderators' group."],
      [{ can_access_all_users_group: { new: crew } }, "'can_access_all_users_group' must be a system user group.", 'SYSTEM_GROUP_REQUIRED'],
      [{ can_create_web_public_channel_group: { new: { direct_members: [server.users.iago.id], direct_subgroups: [] } } }, "'can_create_web_public_channel_group' must be a system user group.", 'SYSTEM_GROUP_REQUIRED'],
      [{ can_create_web_public_channel_group: { new: group('role:members') } }, "'can_create_web_public_channel_group' setting cannot be set to 'role:members' group."],
      [{ can_invite_users_group: { new: group('role:everyone') } }, "'can_invite_users_group' setting cannot be set to 'role:everyone' group."],
      [{ can_manage_billing_group: { new: group('role:nobody') } }, "'can_manage_billing_group' setting cannot be set to 'role:nobody' group."],
      [{ can_mention_many_users_group: { new: group('role:internet') } }, "'can_mention_many_users_group' setting cannot be set to 'role:internet' group."],
      [{ can_resolve_topics_group: { new: 999999 } }, 'Invalid user group'],
      [{ can_resolve_topics_group: { new: { direct_members: [999999], direct_subgroups: [] } } }, 'Invalid user ID: 999999'],
    ];
    for (const [params, msg, code] of cases) expectError(await patch('desdemona', params), msg, code);
    const bare = await patch('iago', { can_resolve_topics_group: group('role:members') });
    assert.equal(bare.status, 400, 'only the update form is accepted');
    assert.equal(bare.body.code, 'BAD_REQUEST');
    const ok = await patch('iago', { can_resolve_topics_group: { new: crew }, can_access_all_users_group: { new: group('role:everyone') } });
    assert.deepEqual(ok.body, { result: 'success', msg: '', can_resolve_topics_group: crew });
    assert.equal((await realmState()).realm_can_resolve_topics_group, crew);
  });
});
