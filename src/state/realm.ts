// The `realm` block of POST /register: organization settings with their defaults, plus the server-wide facts
// the reference server sends in the same block (limits, timings, option lists).
import crypto from 'node:crypto';
import { longpollTimeoutSeconds, realmUploadQuotaMib, type Config } from '../config.js';
import { resolveGroupSetting, type GroupSettingValue } from '../permissions/groups.js';
import { hostOf } from '../lib/urls.js';
import type { Realm } from '../store/realms.js';
import type { User } from '../store/users.js';
import {
  DEFAULT_EXTERNAL_ACCOUNTS,
  DEFAULT_JITSI_SERVER_URL,
  DEFAULT_LOGO_PATH,
  EMPTY_TOPIC_DISPLAY_NAME,
  GIF_RATING_POLICY_OPTIONS,
  GROUP_PERMISSION_SETTINGS,
  POLICY,
  REALM_PERMISSION_SETTINGS,
  REPORT_MESSAGE_TYPES,
  SERVER_GENERATION,
  SERVER_LIMITS,
  STREAM_PERMISSION_SETTINGS,
  SYSTEM_GROUP_POLICY,
  UPGRADE_TEXT_STANDARD,
  VIDEO_CHAT_PROVIDERS,
  WILDCARD_MENTION_POLICY,
  type RealmGroupSettingName,
} from './realm-data.js';

export { REALM_PERMISSION_SETTINGS, type RealmGroupSettingName } from './realm-data.js';

// Settings whose values are not group settings. Enumerations are stored by their API names
// (topics_policy, message_edit_history_visibility_policy) so that stored overrides read like the API.
// name and description are columns of the realms table, not settings.
const PLAIN_DEFAULTS = {
  allow_message_editing: true,
  avatar_changes_disabled: false,
  default_avatar_source: 'G' as 'G' | 'J',
  default_code_block_language: '',
  default_language: 'en',
  digest_emails_enabled: false,
  digest_weekday: 1,
  disallow_disposable_email_addresses: true,
  email_changes_disabled: false,
  emails_restricted_to_domains: false,
  enable_guest_user_dm_warning: true,
  enable_guest_user_indicator: true,
  // The reference server turns read receipts on for new organizations that are not schools.
  enable_read_receipts: true,
  enable_spectator_access: false,
  gif_rating_policy: 2,
  inline_image_preview: true,
  inline_url_embed_preview: false,
  invite_required: true,
  jitsi_server_url: null as string | null,
  media_preview_size: 100,
  message_content_allowed_in_email_notifications: true,
  message_content_delete_limit_seconds: 600 as number | null,
  message_content_edit_limit_seconds: 600 as number | null,
  message_edit_history_visibility_policy: 'all' as 'all' | 'moves' | 'none',
  message_retention_days: -1,
  move_messages_between_streams_limit_seconds: 604800 as number | null,
  move_messages_within_stream_limit_seconds: 604800 as number | null,
  name_changes_disabled: false,
  org_type: 0,
  owner_full_content_access: false,
  push_notifications_enabled: false,
  require_e2ee_push_notifications: false,
  require_unique_names: false,
  send_channel_events_messages: false,
  send_welcome_emails: true,
  topics_policy: 'allow_empty_topic' as 'allow_empty_topic' | 'disable_empty_topic',
  video_chat_provider: 1,
  waiting_period_threshold: 0,
  want_advertise_in_communities_directory: false,
  welcome_message_custom_text: '',
  // Channel references; null means none and is sent as -1.
  moderation_request_channel_id: null as number | null,
  new_stream_announcements_stream_id: null as number | null,
  signup_announcements_stream_id: null as number | null,
  zulip_update_announcements_stream_id: null as number | null,
  // Branding: 'G' is the generated icon, 'D' the default logo, 'U' an upload with the given version.
  icon_source: 'G' as 'G' | 'U',
  icon_version: 1,
  logo_source: 'D' as 'D' | 'U',
  logo_version: 1,
  night_logo_source: 'D' as 'D' | 'U',
  night_logo_version: 1,
  demo_organization_scheduled_deletion_date: null as number | null,
};

// A stored group setting: a system group's name (the defaults), a group id, or {direct_members, direct_subgroups}.
export type StoredGroupSetting = string | GroupSettingValue;

export const REALM_GROUP_SETTING_NAMES = Object.keys(REALM_PERMISSION_SETTINGS) as RealmGroupSettingName[];

export type RealmSettings = typeof PLAIN_DEFAULTS & Record<RealmGroupSettingName, StoredGroupSetting> & Record<string, unknown>;

export const REALM_SETTING_DEFAULTS: Readonly<RealmSettings> = Object.freeze({
  ...PLAIN_DEFAULTS,
  ...(Object.fromEntries(REALM_GROUP_SETTING_NAMES.map((k) => [k, REALM_PERMISSION_SETTINGS[k].default_group_name])) as Record<
    RealmGroupSettingName,
    string
  >),
});

// Realms read from the store's cache are shared and frozen: their settings are merged once (and frozen too).
const mergedSettings = new WeakMap<Realm, RealmSettings>();

// Overrides are validated when written, so they are trusted here.
export function realmSettings(realm: Realm): RealmSettings {
  if (!Object.isFrozen(realm)) return { ...REALM_SETTING_DEFAULTS, ...realm.settings } as RealmSettings;
  let merged = mergedSettings.get(realm);
  if (!merged) mergedSettings.set(realm, (merged = Object.freeze({ ...REALM_SETTING_DEFAULTS, ...realm.settings }) as RealmSettings));
  return merged;
}

// Stored settings that reach clients only through other keys (image URLs, an unprefixed date).
const NOT_SENT_AS_IS = new Set(['icon_version', 'logo_version', 'night_logo_version', 'demo_organization_scheduled_deletion_date']);

export interface RealmStateInput {
  realm: Realm;
  user: User | null;
  realmUrl: string;
  systemGroups: Map<string, number>;
  config: Config;
}

function gravatarHash(s: string): string {
  return crypto.createHash('md5').update(s.toLowerCase()).digest('hex');
}

// Stable per organization without a stored column: a name-based (version 5 layout) UUID.
export function realmUuid(realm: Realm): string {
  const h = crypto.createHash('sha1').update(`parlance-realm:${realm.id}:${realm.dateCreated}`).digest();
  h[6] = (h[6] & 0x0f) | 0x50;
  h[8] = (h[8] & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function uploadedImage(realm: Realm, file: string, version: number): string {
  return `/user_avatars/${realm.id}/realm/${file}.png?version=${version}`;
}

// The legacy integer policy matching a group setting: the system group's policy when that policy is one of
// `allowed`, else the policy of the largest group the old setting could express, as the reference server does.
function legacyPolicy(value: GroupSettingValue, idToName: Map<number, string>, allowed: number[], fallback: number): number {
  const name = typeof value === 'number' ? idToName.get(value) : undefined;
  const policy = name === undefined ? undefined : SYSTEM_GROUP_POLICY[name];
  return policy !== undefined && allowed.includes(policy) ? policy : fallback;
}

export function realmState(input: RealmStateInput): Record<string, unknown> {
  const { realm, user, realmUrl, systemGroups, config } = input;
  const s = realmSettings(realm);
  const state: Record<string, unknown> = {};

  for (const key of Object.keys(PLAIN_DEFAULTS)) if (!NOT_SENT_AS_IS.has(key)) state[`realm_${key}`] = s[key];
  state.realm_name = realm.name;
  state.realm_description = realm.description;

  const groups = {} as Record<RealmGroupSettingName, GroupSettingValue>;
  for (const key of REALM_GROUP_SETTING_NAMES) {
    groups[key] = resolveGroupSetting(s[key], systemGroups);
    state[`realm_${key}`] = groups[key];
  }
  const idToName = new Map([...systemGroups].map(([name, id]) => [id, name]));
  const common = [POLICY.members, POLICY.admins, POLICY.fullMembers, POLICY.moderators];
  state.realm_create_public_stream_policy = legacyPolicy(groups.can_create_public_channel_group, idToName, common, POLICY.members);
  state.realm_create_private_stream_policy = legacyPolicy(groups.can_create_private_channel_group, idToName, common, POLICY.members);
  state.realm_create_web_public_stream_policy = legacyPolicy(
    groups.can_create_web_public_channel_group,
    idToName,
    [POLICY.admins, POLICY.moderators, POLICY.nobody, POLICY.owners],
    POLICY.moderators,
  );
  const mention = groups.can_mention_many_users_group;
  state.realm_wildcard_mention_policy = (typeof mention === 'number' && WILDCARD_MENTION_POLICY[idToName.get(mention) ?? '']) || 1;

  for (const key of ['moderation_request_channel_id', 'new_stream_announcements_stream_id', 'signup_announcements_stream_id', 'zulip_update_announcements_stream_id'] as const) {
    state[`realm_${key}`] = s[key] ?? -1;
  }
  state.realm_topics_policy = s.topics_policy;
  state.realm_mandatory_topics = s.topics_policy === 'disable_empty_topic';
  state.realm_message_edit_history_visibility_policy = s.message_edit_history_visibility_policy;
  state.realm_allow_edit_history = s.message_edit_history_visibility_policy !== 'none';

  // Spectators cannot edit, and get no presence or user list.
  state.realm_allow_message_editing = user !== null && s.allow_message_editing;
  state.realm_presence_disabled = user === null;

  state.realm_authentication_methods = { Email: { enabled: realm.passwordAuthEnabled, available: true } };
  state.realm_email_auth_enabled = realm.passwordAuthEnabled;
  state.realm_password_auth_enabled = realm.passwordAuthEnabled;
  // This server sends no e-mail, so there are no digests whatever the organization chose.
  state.settings_send_digest_emails = false;
  state.realm_digest_emails_enabled = false;

  state.realm_icon_url =
    s.icon_source === 'U'
      ? uploadedImage(realm, 'icon', s.icon_version)
      : `https://secure.gravatar.com/avatar/${gravatarHash(realm.stringId)}?d=identicon&version=${s.icon_version}`;
  state.realm_logo_url = s.logo_source === 'U' ? uploadedImage(realm, 'logo', s.logo_version) : `${DEFAULT_LOGO_PATH}?version=0`;
  state.realm_night_logo_url =
    s.night_logo_source === 'U' ? uploadedImage(realm, 'night_logo', s.night_logo_version) : `${DEFAULT_LOGO_PATH}?version=0`;

  state.realm_url = realmUrl;
  state.realm_uri = realmUrl;
  state.realm_uuid = realmUuid(realm);
  // The domain bots' addresses are made with: the host name, without the port (an address cannot carry one).
  state.realm_bot_domain = hostOf(realmUrl);
  state.realm_date_created = realm.dateCreated;
  if (s.demo_organization_scheduled_deletion_date !== null) {
    state.demo_organization_scheduled_deletion_date = s.demo_organization_scheduled_deletion_date;
  }
  state.realm_plan_type = 1; // self-hosted
  state.zulip_plan_is_not_limited = true;
  state.upgrade_text_for_wide_organization_logo = UPGRADE_TEXT_STANDARD;
  state.realm_push_notifications_enabled_end_timestamp = null;
  state.realm_upload_quota_mib = realmUploadQuotaMib(config);
  state.realm_available_video_chat_providers = VIDEO_CHAT_PROVIDERS;
  state.realm_default_external_accounts = DEFAULT_EXTERNAL_ACCOUNTS;
  state.realm_empty_topic_display_name = EMPTY_TOPIC_DISPLAY_NAME;
  state.gif_rating_policy_options = GIF_RATING_POLICY_OPTIONS;
  state.server_jitsi_server_url = DEFAULT_JITSI_SERVER_URL;
  state.jitsi_server_url = s.jitsi_server_url ?? DEFAULT_JITSI_SERVER_URL;

  Object.assign(state, SERVER_LIMITS);
  state.max_file_upload_size_mib = config.maxFileUploadMib;
  // Same formula as the register endpoint's own value, which this block would otherwise overwrite.
  state.event_queue_longpoll_timeout_seconds = longpollTimeoutSeconds(config);
  state.server_generation = SERVER_GENERATION;
  state.development_environment = false;
  state.server_needs_upgrade = false;
  state.server_inline_image_preview = true;
  state.server_inline_url_embed_preview = false;
  state.server_avatar_changes_disabled = false;
  state.server_name_changes_disabled = false;
  state.server_web_public_streams_enabled = true;
  state.server_can_summarize_topics = false;
  state.server_thumbnail_formats = [];
  state.server_emoji_data_url = `${realmUrl}/static/generated/emoji/emoji_api.json`;
  state.server_report_message_types = REPORT_MESSAGE_TYPES;
  state.server_supported_permission_settings = {
    realm: REALM_PERMISSION_SETTINGS,
    stream: STREAM_PERMISSION_SETTINGS,
    group: GROUP_PERMISSION_SETTINGS,
  };
  return state;
}
