// Personal settings (contract §2.3): defaults for a new user, the `user_settings` block of POST /register,
// and the value rules PATCH /settings applies.
import { codePointLength } from '../lib/text.js';
import type { User } from '../store/users.js';
import { AVAILABLE_NOTIFICATION_SOUNDS, EMOJISET_ALIASES, EMOJISET_CHOICES, LANGUAGES } from './user-settings-data.js';

export { AVAILABLE_NOTIFICATION_SOUNDS, EMOJISET_CHOICES, LANGUAGES } from './user-settings-data.js';

const LANGUAGE_NAMES = new Map(LANGUAGES.map((l) => [l.code, l.name]));

export function languageName(code: string): string | undefined {
  return LANGUAGE_NAMES.get(code);
}

// Every setting the reference server keeps per user, with its default for a new user. dense_mode is gone
// (removed at feature level 364). Enumerations the API names by string are stored by that string.
export const USER_SETTING_DEFAULTS = Object.freeze({
  // Display
  twenty_four_hour_time: false,
  web_mark_read_on_scroll_policy: 1,
  web_channel_default_view: 1,
  starred_message_counts: true,
  receives_typing_notifications: true,
  web_suggest_update_timezone: true,
  fluid_layout_width: false,
  high_contrast_mode: false,
  web_font_size_px: 16,
  web_line_height_percent: 140,
  color_scheme: 1,
  enable_drafts_synchronization: true,
  translate_emoticons: false,
  display_emoji_reaction_users: true,
  default_language: 'en',
  web_home_view: 'inbox',
  web_escape_navigates_to_home_view: true,
  left_side_userlist: false,
  emojiset: 'google',
  demote_inactive_streams: 1,
  user_list_style: 3,
  web_animate_image_previews: 'on_hover',
  web_stream_unreads_count_display_policy: 2,
  web_left_sidebar_unreads_count_summary: true,
  web_left_sidebar_show_channel_folders: true,
  web_inbox_show_channel_folders: true,
  web_navigate_to_sent_message: true,
  hide_ai_features: false,
  enter_sends: false,
  timezone: '',
  // Notifications
  enable_stream_desktop_notifications: false,
  enable_stream_email_notifications: false,
  enable_stream_push_notifications: false,
  enable_stream_audible_notifications: false,
  notification_sound: 'zulip',
  enable_desktop_notifications: true,
  enable_sounds: true,
  email_notifications_batching_period_seconds: 120,
  enable_offline_email_notifications: true,
  enable_offline_push_notifications: true,
  enable_online_push_notifications: true,
  enable_followed_topic_desktop_notifications: true,
  enable_followed_topic_email_notifications: true,
  enable_followed_topic_push_notifications: true,
  enable_followed_topic_audible_notifications: true,
  enable_followed_topic_wildcard_mentions_notify: true,
  enable_digest_emails: true,
  enable_login_emails: true,
  enable_marketing_emails: true,
  message_content_in_email_notifications: true,
  pm_content_in_desktop_notifications: true,
  wildcard_mentions_notify: true,
  desktop_icon_count_display: 1,
  realm_name_in_email_notifications_policy: 1,
  automatically_follow_topics_policy: 3,
  automatically_unmute_topics_in_muted_streams_policy: 2,
  automatically_follow_topics_where_mentioned: true,
  resolved_topic_notice_auto_read_policy: 'except_followed',
  presence_enabled: true,
  // Privacy
  send_private_typing_notifications: true,
  send_stream_typing_notifications: true,
  send_read_receipts: true,
  allow_private_data_export: false,
  email_address_visibility: 1,
});

export type UserSettingName = keyof typeof USER_SETTING_DEFAULTS;
export type UserSettings = { -readonly [K in UserSettingName]: (typeof USER_SETTING_DEFAULTS)[K] };

export type SettingKind =
  | { kind: 'boolean' }
  | { kind: 'integer'; min: number; max: number }
  | { kind: 'int_enum'; values: readonly number[] }
  // Aliases are accepted on input and stored as the name they stand for.
  | { kind: 'string_enum'; values: readonly string[]; aliases?: Readonly<Record<string, string>> }
  | { kind: 'string'; maxLength: number }
  | { kind: 'timezone' };

const bool: SettingKind = { kind: 'boolean' };
const ints = (...values: number[]): SettingKind => ({ kind: 'int_enum', values });
const strings = (values: readonly string[], aliases?: Record<string, string>): SettingKind => ({ kind: 'string_enum', values, aliases });

export const USER_SETTING_KINDS: Readonly<Record<UserSettingName, SettingKind>> = Object.freeze({
  twenty_four_hour_time: bool,
  web_mark_read_on_scroll_policy: ints(1, 2, 3),
  // 3 (list of topics) exists but the parameter constraint allows only these (contract §2.3).
  web_channel_default_view: ints(1, 2, 4),
  starred_message_counts: bool,
  receives_typing_notifications: bool,
  web_suggest_update_timezone: bool,
  fluid_layout_width: bool,
  high_contrast_mode: bool,
  // Sizes a reader can use; the web app offers 12–20 px and 122–158 %.
  web_font_size_px: { kind: 'integer', min: 8, max: 48 },
  web_line_height_percent: { kind: 'integer', min: 80, max: 300 },
  color_scheme: ints(1, 2, 3),
  enable_drafts_synchronization: bool,
  translate_emoticons: bool,
  display_emoji_reaction_users: bool,
  default_language: strings(LANGUAGES.map((l) => l.code)),
  // recent_topics is the name before feature level 454.
  web_home_view: strings(['recent', 'inbox', 'all_messages'], { recent_topics: 'recent' }),
  web_escape_navigates_to_home_view: bool,
  left_side_userlist: bool,
  emojiset: strings(
    EMOJISET_CHOICES.map((c) => c.key),
    EMOJISET_ALIASES,
  ),
  demote_inactive_streams: ints(1, 2, 3),
  user_list_style: ints(1, 2, 3),
  web_animate_image_previews: strings(['always', 'on_hover', 'never']),
  web_stream_unreads_count_display_policy: ints(1, 2, 3),
  web_left_sidebar_unreads_count_summary: bool,
  web_left_sidebar_show_channel_folders: bool,
  web_inbox_show_channel_folders: bool,
  web_navigate_to_sent_message: bool,
  hide_ai_features: bool,
  enter_sends: bool,
  timezone: { kind: 'timezone' },
  enable_stream_desktop_notifications: bool,
  enable_stream_email_notifications: bool,
  enable_stream_push_notifications: bool,
  enable_stream_audible_notifications: bool,
  notification_sound: strings([...AVAILABLE_NOTIFICATION_SOUNDS, 'none']),
  enable_desktop_notifications: bool,
  enable_sounds: bool,
  // At most a week, as the reference server allows.
  email_notifications_batching_period_seconds: { kind: 'integer', min: 1, max: 7 * 24 * 3600 },
  enable_offline_email_notifications: bool,
  enable_offline_push_notifications: bool,
  enable_online_push_notifications: bool,
  enable_followed_topic_desktop_notifications: bool,
  enable_followed_topic_email_notifications: bool,
  enable_followed_topic_push_notifications: bool,
  enable_followed_topic_audible_notifications: bool,
  enable_followed_topic_wildcard_mentions_notify: bool,
  enable_digest_emails: bool,
  enable_login_emails: bool,
  enable_marketing_emails: bool,
  message_content_in_email_notifications: bool,
  pm_content_in_desktop_notifications: bool,
  wildcard_mentions_notify: bool,
  desktop_icon_count_display: ints(1, 2, 3, 4),
  realm_name_in_email_notifications_policy: ints(1, 2, 3),
  automatically_follow_topics_policy: ints(1, 2, 3, 4),
  automatically_unmute_topics_in_muted_streams_policy: ints(1, 2, 3, 4),
  automatically_follow_topics_where_mentioned: bool,
  resolved_topic_notice_auto_read_policy: strings(['always', 'except_followed', 'never']),
  presence_enabled: bool,
  send_private_typing_notifications: bool,
  send_stream_typing_notifications: bool,
  send_read_receipts: bool,
  allow_private_data_export: bool,
  email_address_visibility: ints(1, 2, 3, 4, 5),
});

// Account fields PATCH /settings also takes; they live in columns, not in the settings object.
export const ACCOUNT_FIELD_KINDS: Readonly<Record<'full_name' | 'email' | 'old_password' | 'new_password', SettingKind>> = Object.freeze({
  full_name: { kind: 'string', maxLength: 100 },
  email: { kind: 'string', maxLength: 254 },
  old_password: { kind: 'string', maxLength: 100 },
  new_password: { kind: 'string', maxLength: 100 },
});

let timezones: Set<string> | undefined;

export function isValidTimezone(tz: string): boolean {
  timezones ??= new Set(Intl.supportedValuesOf('timeZone'));
  if (timezones.has(tz) || tz === 'UTC') return true;
  // Links such as Asia/Calcutta are valid IANA names that supportedValuesOf leaves out; offsets are not names.
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(tz)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

export type SettingCheck = { ok: true; value: boolean | number | string } | { ok: false; message: string };

// Checks an already-decoded value against its kind and returns the value to store (aliases resolved).
export function checkSettingValue(name: string, kind: SettingKind, value: unknown): SettingCheck {
  const bad = (message = `Invalid ${name}`): SettingCheck => ({ ok: false, message });
  switch (kind.kind) {
    case 'boolean':
      return typeof value === 'boolean' ? { ok: true, value } : bad(`${name} is not a boolean`);
    case 'integer':
    case 'int_enum': {
      if (typeof value !== 'number' || !Number.isInteger(value)) return bad(`${name} is not an integer`);
      if (kind.kind === 'int_enum') return kind.values.includes(value) ? { ok: true, value } : bad();
      if (name === 'email_notifications_batching_period_seconds' && (value < kind.min || value > kind.max)) {
        return bad(`Invalid email batching period: ${value} seconds`);
      }
      return value >= kind.min && value <= kind.max ? { ok: true, value } : bad();
    }
    case 'string_enum': {
      if (typeof value !== 'string') return bad(`${name} is not a string`);
      const resolved = kind.aliases?.[value] ?? value;
      if (kind.values.includes(resolved)) return { ok: true, value: resolved };
      return name === 'notification_sound' ? bad(`Invalid notification sound '${value}'`) : bad();
    }
    case 'string':
      if (typeof value !== 'string') return bad(`${name} is not a string`);
      return codePointLength(value) <= kind.maxLength ? { ok: true, value } : bad(`${name} is too long (limit: ${kind.maxLength} characters)`);
    case 'timezone':
      if (typeof value !== 'string') return bad(`${name} is not a string`);
      // The empty string clears the profile time zone, which is also a new user's value.
      return value === '' || isValidTimezone(value) ? { ok: true, value } : bad();
  }
}

export function checkUserSetting(name: string, value: unknown): SettingCheck {
  const kind = (USER_SETTING_KINDS as Record<string, SettingKind>)[name];
  return kind ? checkSettingValue(name, kind, value) : { ok: false, message: `Unknown setting ${name}` };
}

// Overrides are validated when written, so they are trusted here; the time zone is a column of its own.
// Only known settings are read from the stored object, which may also hold bookkeeping (names starting with `_`).
export function userSettings(user: User): UserSettings {
  const out: Record<string, unknown> = { ...USER_SETTING_DEFAULTS };
  for (const key of Object.keys(USER_SETTING_DEFAULTS)) if (key in user.settings) out[key] = user.settings[key];
  out.timezone = user.timezone;
  return out as UserSettings;
}

// One setting, without building the whole object (for checks made per user of a large organization).
export function userSetting<K extends UserSettingName>(user: User, name: K): UserSettings[K] {
  if (name === 'timezone') return user.timezone as UserSettings[K];
  return (name in user.settings ? user.settings[name] : USER_SETTING_DEFAULTS[name]) as UserSettings[K];
}

// The user_settings_object capability has no effect at this feature level (contract §4.5): every client gets
// the user_settings object and no legacy top-level copies, whose event types were removed at feature level 439.
export function userSettingsState(user: User, _capabilities: { user_settings_object?: boolean } = {}): { user_settings: Record<string, unknown> } {
  return {
    user_settings: {
      ...userSettings(user),
      emojiset_choices: EMOJISET_CHOICES.map((c) => ({ ...c })),
      available_notification_sounds: [...AVAILABLE_NOTIFICATION_SOUNDS],
    },
  };
}
