import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../src/config.js';
import { SYSTEM_GROUPS } from '../src/store/groups.js';
import type { Realm } from '../src/store/realms.js';
import { ROLE, type User } from '../src/store/users.js';
import { REALM_GROUP_SETTING_NAMES, REALM_SETTING_DEFAULTS, realmSettings, realmState } from '../src/state/realm.js';
import {
  AVAILABLE_NOTIFICATION_SOUNDS,
  EMOJISET_CHOICES,
  LANGUAGES,
  USER_SETTING_DEFAULTS,
  USER_SETTING_KINDS,
  checkUserSetting,
  languageName,
  userSettings,
  userSettingsState,
} from '../src/state/user-settings.js';
import { registerSchemaProperties, validateRegisterResponse } from './helpers/openapi-register.js';

const config = loadConfig({}, {});
const systemGroups = new Map<string, number>(SYSTEM_GROUPS.map((g, i) => [g.name, 101 + i]));
const realmUrl = 'http://chat.example.com:9991';

function makeRealm(settings: Record<string, unknown> = {}): Realm {
  return {
    id: 7,
    stringId: 'acme',
    name: 'Acme',
    description: 'The **Acme** organization',
    deactivated: false,
    passwordAuthEnabled: true,
    dateCreated: 1_700_000_000,
    settings,
  };
}

function makeUser(settings: Record<string, unknown> = {}): User {
  return {
    id: 42,
    realmId: 7,
    email: 'hamlet@example.com',
    deliveryEmail: 'hamlet@example.com',
    fullName: 'King Hamlet',
    role: ROLE.member,
    isBot: false,
    botType: null,
    botOwnerId: null,
    isActive: true,
    passwordHash: null,
    apiKey: 'k'.repeat(32),
    dateJoined: 1_700_000_100,
    timezone: 'Europe/Copenhagen',
    avatarSource: 'G',
    avatarVersion: 1,
    settings,
  };
}

function realmBlock(settings: Record<string, unknown> = {}, user: User | null = makeUser()) {
  return realmState({ realm: makeRealm(settings), user, realmUrl, systemGroups, config });
}

// What every register reply carries besides the requested blocks.
const envelope = { result: 'success', msg: '', queue_id: 'q1', last_event_id: -1, zulip_feature_level: 496, zulip_version: '12.0', zulip_merge_base: '12.0' };

// responses.md's list for the `realm` fetch type at the contract's feature level (giphy_rating and
// gif_rating_options renamed at 453, realm_is_zephyr_mirror_realm removed at 426).
const REALM_KEYS_FROM_RESPONSES_MD = [
  ...[
    'allow_message_editing', 'avatar_changes_disabled', 'default_code_block_language', 'default_language', 'description',
    'digest_emails_enabled', 'digest_weekday', 'disallow_disposable_email_addresses', 'email_changes_disabled',
    'emails_restricted_to_domains', 'enable_guest_user_dm_warning', 'enable_guest_user_indicator', 'enable_read_receipts',
    'enable_spectator_access', 'gif_rating_policy', 'inline_image_preview', 'inline_url_embed_preview', 'invite_required',
    'jitsi_server_url', 'message_content_allowed_in_email_notifications', 'message_content_edit_limit_seconds',
    'message_content_delete_limit_seconds', 'message_edit_history_visibility_policy',
    'move_messages_between_streams_limit_seconds', 'move_messages_within_stream_limit_seconds', 'message_retention_days',
    'name', 'name_changes_disabled', 'push_notifications_enabled', 'require_e2ee_push_notifications', 'require_unique_names',
    'send_channel_events_messages', 'send_welcome_emails', 'topics_policy', 'video_chat_provider', 'waiting_period_threshold',
    'want_advertise_in_communities_directory', 'welcome_message_custom_text',
    'can_access_all_users_group', 'can_add_custom_emoji_group', 'can_add_subscribers_group', 'can_create_bots_group',
    'can_create_groups', 'can_create_private_channel_group', 'can_create_public_channel_group',
    'can_create_web_public_channel_group', 'can_create_write_only_bots_group', 'can_delete_any_message_group',
    'can_delete_own_message_group', 'can_invite_users_group', 'can_manage_all_groups', 'can_manage_billing_group',
    'can_mention_many_users_group', 'can_move_messages_between_channels_group', 'can_move_messages_between_topics_group',
    'can_resolve_topics_group', 'can_set_delete_message_policy_group', 'can_set_topics_policy_group',
    'can_summarize_topics_group', 'direct_message_initiator_group', 'direct_message_permission_group',
    'logo_url', 'logo_source', 'night_logo_url', 'night_logo_source', 'moderation_request_channel_id',
    'new_stream_announcements_stream_id', 'signup_announcements_stream_id', 'zulip_update_announcements_stream_id',
    'owner_full_content_access', 'create_public_stream_policy', 'create_private_stream_policy',
    'create_web_public_stream_policy', 'wildcard_mention_policy', 'authentication_methods', 'presence_disabled',
    'upload_quota_mib', 'icon_url', 'icon_source', 'url', 'uri', 'bot_domain', 'available_video_chat_providers',
    'email_auth_enabled', 'password_auth_enabled', 'org_type', 'plan_type', 'push_notifications_enabled_end_timestamp',
    'default_external_accounts', 'date_created', 'empty_topic_display_name', 'allow_edit_history', 'mandatory_topics',
    'uuid', 'default_avatar_source',
  ].map((k) => `realm_${k}`),
  'max_avatar_file_size_mib', 'max_file_upload_size_mib', 'max_icon_file_size_mib', 'settings_send_digest_emails',
  'server_generation', 'development_environment', 'zulip_plan_is_not_limited', 'upgrade_text_for_wide_organization_logo',
  'password_min_length', 'password_max_length', 'password_min_guesses', 'server_inline_image_preview',
  'server_inline_url_embed_preview', 'server_thumbnail_formats', 'server_avatar_changes_disabled',
  'server_name_changes_disabled', 'server_web_public_streams_enabled', 'gif_rating_policy_options', 'server_emoji_data_url',
  'server_needs_upgrade', 'event_queue_longpoll_timeout_seconds', 'server_jitsi_server_url', 'jitsi_server_url',
  'server_can_summarize_topics', 'max_stream_name_length', 'max_stream_description_length',
  'max_bulk_new_subscription_messages', 'max_topic_length', 'max_message_length', 'max_channel_folder_name_length',
  'max_channel_folder_description_length', 'max_reminder_note_length', 'server_report_message_types',
  'server_presence_ping_interval_seconds', 'server_presence_offline_threshold_seconds',
  'server_typing_started_expiry_period_milliseconds', 'server_typing_stopped_wait_period_milliseconds',
  'server_typing_started_wait_period_milliseconds', 'server_supported_permission_settings',
  'server_min_deactivated_realm_deletion_days', 'server_max_deactivated_realm_deletion_days', 'max_logo_file_size_mib',
];

// Contract §2.3, less the account fields (full_name, email, passwords) that are columns, not settings.
const SECTION_2_3_SETTINGS = [
  'twenty_four_hour_time', 'web_channel_default_view', 'starred_message_counts', 'receives_typing_notifications',
  'web_suggest_update_timezone', 'fluid_layout_width', 'high_contrast_mode', 'web_font_size_px', 'web_line_height_percent',
  'color_scheme', 'enable_drafts_synchronization', 'translate_emoticons', 'display_emoji_reaction_users',
  'default_language', 'web_home_view', 'web_escape_navigates_to_home_view', 'left_side_userlist', 'emojiset',
  'demote_inactive_streams', 'user_list_style', 'web_animate_image_previews', 'web_stream_unreads_count_display_policy',
  'hide_ai_features', 'web_inbox_show_channel_folders', 'timezone', 'enable_stream_desktop_notifications',
  'enable_stream_email_notifications', 'enable_stream_push_notifications', 'enable_stream_audible_notifications',
  'notification_sound', 'enable_desktop_notifications', 'enable_sounds', 'email_notifications_batching_period_seconds',
];

describe('the OpenAPI register validator', () => {
  test('rejects a wrongly typed key and accepts null where the schema is nullable', () => {
    assert.notDeepEqual(validateRegisterResponse({ ...envelope, realm_name: 5 }), []);
    assert.notDeepEqual(validateRegisterResponse({ ...envelope, user_settings: { color_scheme: 'dark' } }), []);
    assert.deepEqual(validateRegisterResponse({ ...envelope, realm_jitsi_server_url: null, brand_new_key: 1 }), []);
  });
});

describe('realm block', () => {
  test('validates against the published /register response schema', () => {
    const errors = validateRegisterResponse({ ...envelope, ...realmBlock() });
    assert.deepEqual(errors, []);
  });

  test('validates for a spectator and with every kind of override', () => {
    const overrides = {
      message_content_edit_limit_seconds: null,
      jitsi_server_url: 'https://jitsi.example.com',
      moderation_request_channel_id: 12,
      can_add_custom_emoji_group: { direct_members: [42], direct_subgroups: [105] },
      icon_source: 'U',
      logo_source: 'U',
    };
    assert.deepEqual(validateRegisterResponse({ ...envelope, ...realmBlock(overrides, null) }), []);
  });

  test('has every key responses.md lists for the realm fetch type', () => {
    const state = realmBlock();
    const missing = REALM_KEYS_FROM_RESPONSES_MD.filter((k) => !(k in state));
    assert.deepEqual(missing, []);
  });

  test('leaves out keys the contract or the reference server removed', () => {
    const state = realmBlock();
    for (const key of ['realm_is_zephyr_mirror_realm', 'realm_giphy_rating', 'giphy_rating_options', 'realm_add_custom_emoji_policy']) {
      assert.ok(!(key in state), key);
    }
  });

  test('sends every organization key of the published schema except those since replaced', () => {
    // Integer policies replaced by group settings (their last users, the stream and wildcard policies, are still
    // sent), GIPHY names renamed to gif_* at 453, and the zephyr flag removed at 426.
    const replaced = [
      'realm_add_custom_emoji_policy', 'realm_delete_own_message_policy', 'realm_bot_creation_policy',
      'realm_invite_to_stream_policy', 'realm_invite_to_realm_policy', 'realm_move_messages_between_streams_policy',
      'realm_private_message_policy', 'realm_user_group_edit_policy', 'realm_edit_topic_policy',
      'realm_giphy_rating', 'giphy_rating_options', 'realm_is_zephyr_mirror_realm',
    ];
    // Keys of other fetch types that happen to match the pattern below.
    const otherBlocks = /^realm_(users|non_active_users|bots|emoji|domains|linkifiers|filters|playgrounds|user_groups|default_streams|default_stream_groups|embedded_bots|incoming_webhook_bots|user_settings_defaults|name_in_email_notifications_policy)$/;
    const state = realmBlock();
    const unsent = Object.keys(registerSchemaProperties()).filter(
      (k) => /^(realm_|server_|max_|password_|upgrade_|development_|settings_send_|event_queue_|jitsi_|giphy_rating|zulip_plan)/.test(k) && !otherBlocks.test(k) && !(k in state),
    );
    assert.deepEqual(unsent.filter((k) => k !== 'max_message_id' && k !== 'server_timestamp').sort(), [...replaced].sort());
  });

  test('group settings come out as the ids of the system groups passed in', () => {
    const state = realmBlock();
    for (const name of REALM_GROUP_SETTING_NAMES) {
      const expected = systemGroups.get(REALM_SETTING_DEFAULTS[name] as string);
      assert.equal(state[`realm_${name}`], expected, name);
    }
    assert.equal(state.realm_can_create_public_channel_group, systemGroups.get('role:members'));
    assert.equal(state.realm_can_create_web_public_channel_group, systemGroups.get('role:owners'));
    assert.equal(state.realm_can_delete_any_message_group, systemGroups.get('role:administrators'));
    assert.equal(state.realm_direct_message_permission_group, systemGroups.get('role:everyone'));
  });

  test('stored group-setting values pass through: ids, anonymous groups, system group names', () => {
    const anonymous = { direct_members: [42], direct_subgroups: [105] };
    const state = realmBlock({
      can_add_custom_emoji_group: anonymous,
      can_invite_users_group: 999,
      can_create_groups: 'role:moderators',
    });
    assert.deepEqual(state.realm_can_add_custom_emoji_group, anonymous);
    assert.equal(state.realm_can_invite_users_group, 999);
    assert.equal(state.realm_can_create_groups, systemGroups.get('role:moderators'));
  });

  test('legacy policies follow the group settings', () => {
    const defaults = realmBlock();
    assert.equal(defaults.realm_create_public_stream_policy, 1);
    assert.equal(defaults.realm_create_private_stream_policy, 1);
    assert.equal(defaults.realm_create_web_public_stream_policy, 7);
    assert.equal(defaults.realm_wildcard_mention_policy, 5);
    const changed = realmBlock({
      can_create_public_channel_group: systemGroups.get('role:administrators'),
      can_create_private_channel_group: { direct_members: [1], direct_subgroups: [] },
      can_mention_many_users_group: 'role:everyone',
    });
    assert.equal(changed.realm_create_public_stream_policy, 2);
    assert.equal(changed.realm_create_private_stream_policy, 1);
    assert.equal(changed.realm_wildcard_mention_policy, 1);
  });

  test('a stored override changes the output', () => {
    const defaults = realmBlock();
    assert.equal(defaults.realm_message_content_edit_limit_seconds, 600);
    assert.equal(defaults.realm_topics_policy, 'allow_empty_topic');
    assert.equal(defaults.realm_mandatory_topics, false);
    assert.equal(defaults.realm_moderation_request_channel_id, -1);
    assert.equal(defaults.realm_waiting_period_threshold, 0);
    const changed = realmBlock({
      message_content_edit_limit_seconds: null,
      topics_policy: 'disable_empty_topic',
      moderation_request_channel_id: 12,
      waiting_period_threshold: 3,
      message_edit_history_visibility_policy: 'none',
      enable_spectator_access: true,
    });
    assert.equal(changed.realm_message_content_edit_limit_seconds, null);
    assert.equal(changed.realm_topics_policy, 'disable_empty_topic');
    assert.equal(changed.realm_mandatory_topics, true);
    assert.equal(changed.realm_moderation_request_channel_id, 12);
    assert.equal(changed.realm_waiting_period_threshold, 3);
    assert.equal(changed.realm_allow_edit_history, false);
    assert.equal(changed.realm_enable_spectator_access, true);
    assert.equal(realmSettings(makeRealm({ waiting_period_threshold: 3 })).waiting_period_threshold, 3);
    assert.equal(realmSettings(makeRealm()).allow_message_editing, true);
  });

  test('columns, configuration and server facts', () => {
    const state = realmBlock();
    assert.equal(state.realm_name, 'Acme');
    assert.equal(state.realm_description, 'The **Acme** organization');
    assert.equal(state.realm_url, realmUrl);
    assert.equal(state.realm_uri, realmUrl);
    assert.equal(state.realm_bot_domain, 'chat.example.com');
    assert.equal(state.realm_date_created, 1_700_000_000);
    assert.match(state.realm_uuid as string, /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(state.realm_uuid, realmBlock().realm_uuid);
    assert.equal(state.max_file_upload_size_mib, config.maxFileUploadMib);
    assert.equal(state.event_queue_longpoll_timeout_seconds, 90);
    assert.equal(state.max_stream_name_length, 60);
    assert.equal(state.max_stream_description_length, 1024);
    assert.equal(state.max_topic_length, 60);
    assert.equal(state.max_message_length, 10000);
    assert.equal(state.password_min_length, 6);
    assert.equal(state.password_max_length, 100);
    assert.equal(state.realm_empty_topic_display_name, 'general chat');
    assert.deepEqual(state.server_thumbnail_formats, []);
    assert.equal(state.server_can_summarize_topics, false);
    assert.deepEqual(state.realm_authentication_methods, { Email: { enabled: true, available: true } });
    assert.deepEqual(
      (state.server_report_message_types as { key: string }[]).map((t) => t.key),
      ['spam', 'harassment', 'inappropriate', 'norms', 'other'],
    );
    const perms = state.server_supported_permission_settings as Record<string, Record<string, Record<string, unknown>>>;
    assert.deepEqual(Object.keys(perms), ['realm', 'stream', 'group']);
    assert.deepEqual(Object.keys(perms.realm).sort(), [...REALM_GROUP_SETTING_NAMES].sort());
    assert.equal(perms.realm.can_create_web_public_channel_group.require_system_group, true);
    assert.equal(perms.stream.can_administer_channel_group.default_group_name, 'channel_creator');
    assert.equal(perms.group.can_mention_group.default_for_system_groups, 'role:nobody');
  });

  test('spectators cannot edit and see no presence', () => {
    const state = realmBlock({}, null);
    assert.equal(state.realm_allow_message_editing, false);
    assert.equal(state.realm_presence_disabled, true);
    assert.equal(realmBlock().realm_allow_message_editing, true);
    assert.equal(realmBlock().realm_presence_disabled, false);
  });
});

describe('user_settings block', () => {
  test('validates against the published /register response schema', () => {
    const errors = validateRegisterResponse({ ...envelope, ...userSettingsState(makeUser(), {}) });
    assert.deepEqual(errors, []);
  });

  test('has every §2.3 setting, the option lists, and no removed or legacy keys', () => {
    for (const capabilities of [{}, { user_settings_object: true }]) {
      const block = userSettingsState(makeUser(), capabilities);
      assert.deepEqual(Object.keys(block), ['user_settings']);
      const settings = block.user_settings;
      const missing = SECTION_2_3_SETTINGS.filter((k) => !(k in settings));
      assert.deepEqual(missing, []);
      assert.ok(!('dense_mode' in settings));
      assert.deepEqual(settings.emojiset_choices, EMOJISET_CHOICES);
      assert.deepEqual(settings.available_notification_sounds, AVAILABLE_NOTIFICATION_SOUNDS);
    }
  });

  test('defaults of a new user', () => {
    const s = userSettingsState(makeUser(), {}).user_settings;
    assert.equal(s.twenty_four_hour_time, false);
    assert.equal(s.web_channel_default_view, 1);
    assert.equal(s.color_scheme, 1);
    assert.equal(s.emojiset, 'google');
    assert.equal(s.default_language, 'en');
    assert.equal(s.web_home_view, 'inbox');
    assert.equal(s.enable_drafts_synchronization, true);
    assert.equal(s.email_notifications_batching_period_seconds, 120);
    assert.equal(s.notification_sound, 'zulip');
    assert.equal(s.email_address_visibility, 1);
    assert.equal(s.timezone, 'Europe/Copenhagen');
    assert.equal(USER_SETTING_DEFAULTS.timezone, '');
  });

  test('a stored override changes the output; the time zone comes from its column', () => {
    const user = makeUser({ color_scheme: 2, emojiset: 'twitter', timezone: 'Asia/Tokyo' });
    const s = userSettingsState(user, {}).user_settings;
    assert.equal(s.color_scheme, 2);
    assert.equal(s.emojiset, 'twitter');
    assert.equal(s.timezone, 'Europe/Copenhagen');
    assert.equal(userSettings(user).twenty_four_hour_time, false);
  });

  test('languages', () => {
    assert.equal(languageName('de'), 'German');
    assert.equal(languageName('en'), 'English');
    assert.equal(languageName('xx'), undefined);
    assert.ok(LANGUAGES.length >= 40);
    assert.equal(new Set(LANGUAGES.map((l) => l.code)).size, LANGUAGES.length);
  });
});

describe('user setting kinds', () => {
  test('every setting has a kind and every default passes its own rule', () => {
    assert.deepEqual(Object.keys(USER_SETTING_KINDS).sort(), Object.keys(USER_SETTING_DEFAULTS).sort());
    for (const [name, value] of Object.entries(USER_SETTING_DEFAULTS)) {
      assert.deepEqual(checkUserSetting(name, value), { ok: true, value }, name);
    }
  });

  test('allowed values of §2.3 and §4.2, with the established aliases', () => {
    assert.deepEqual(checkUserSetting('emojiset', 'vendor_a'), { ok: true, value: 'google' });
    assert.deepEqual(checkUserSetting('emojiset', 'vendor_b'), { ok: true, value: 'twitter' });
    assert.deepEqual(checkUserSetting('emojiset', 'text'), { ok: true, value: 'text' });
    assert.equal(checkUserSetting('emojiset', 'apple').ok, false);
    for (const v of [1, 2, 4]) assert.equal(checkUserSetting('web_channel_default_view', v).ok, true);
    assert.equal(checkUserSetting('web_channel_default_view', 3).ok, false);
    for (const v of [1, 2, 3]) assert.equal(checkUserSetting('color_scheme', v).ok, true);
    assert.equal(checkUserSetting('color_scheme', 4).ok, false);
    assert.equal(checkUserSetting('color_scheme', '2').ok, false);
    assert.deepEqual(checkUserSetting('web_home_view', 'recent_topics'), { ok: true, value: 'recent' });
    assert.equal(checkUserSetting('web_home_view', 'home').ok, false);
    assert.equal(checkUserSetting('web_animate_image_previews', 'never').ok, true);
    assert.equal(checkUserSetting('twenty_four_hour_time', 'true').ok, false);
    assert.equal(checkUserSetting('default_language', 'de').ok, true);
    assert.equal(checkUserSetting('default_language', 'klingon').ok, false);
    assert.equal(checkUserSetting('notification_sound', 'none').ok, true);
    assert.deepEqual(checkUserSetting('notification_sound', 'boom'), { ok: false, message: "Invalid notification sound 'boom'" });
    assert.equal(checkUserSetting('email_notifications_batching_period_seconds', 0).ok, false);
    assert.equal(checkUserSetting('email_notifications_batching_period_seconds', 600).ok, true);
    assert.equal(checkUserSetting('dense_mode', true).ok, false);
  });

  test('time zones are IANA names', () => {
    for (const tz of ['Europe/Berlin', 'America/New_York', 'UTC', 'Asia/Calcutta', '']) {
      assert.equal(checkUserSetting('timezone', tz).ok, true, tz);
    }
    for (const tz of ['Mars/Olympus', '+01:00', 'not a zone']) {
      assert.equal(checkUserSetting('timezone', tz).ok, false, tz);
    }
  });
});
