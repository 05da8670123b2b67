// Static tables behind the `realm` block of POST /register: the permission-setting metadata the reference
// server publishes as server_supported_permission_settings, and the server-wide constants and option lists.
import type { SystemGroupName } from '../store/groups.js';

export interface GroupPermissionSetting {
  require_system_group: boolean;
  allow_internet_group: boolean;
  allow_nobody_group: boolean;
  allow_everyone_group: boolean;
  // A system group name, or 'channel_creator' / 'group_creator' for an anonymous group holding the creator.
  default_group_name: string;
  default_for_system_groups: string | null;
  allowed_system_groups: string[];
}

function setting(
  allowNobody: boolean,
  allowEveryone: boolean,
  defaultGroup: SystemGroupName | 'channel_creator' | 'group_creator',
  extra: Partial<GroupPermissionSetting> = {},
): GroupPermissionSetting {
  return {
    require_system_group: false,
    allow_internet_group: false,
    allow_nobody_group: allowNobody,
    allow_everyone_group: allowEveryone,
    default_group_name: defaultGroup,
    default_for_system_groups: null,
    allowed_system_groups: [],
    ...extra,
  };
}

// Organization-level group settings. Each default is also the value a new organization starts with
// (REALM_SETTING_DEFAULTS takes them from here), so this table is the one place to change one.
export const REALM_PERMISSION_SETTINGS = {
  can_access_all_users_group: setting(false, true, 'role:everyone', {
    require_system_group: true,
    allowed_system_groups: ['role:everyone', 'role:members'],
  }),
  can_add_custom_emoji_group: setting(true, false, 'role:members'),
  can_add_subscribers_group: setting(true, false, 'role:members'),
  can_create_bots_group: setting(true, false, 'role:members'),
  can_create_groups: setting(true, false, 'role:members'),
  can_create_private_channel_group: setting(true, false, 'role:members'),
  can_create_public_channel_group: setting(true, false, 'role:members'),
  can_create_web_public_channel_group: setting(true, false, 'role:owners', {
    require_system_group: true,
    allowed_system_groups: ['role:moderators', 'role:administrators', 'role:owners', 'role:nobody'],
  }),
  can_create_write_only_bots_group: setting(true, false, 'role:members'),
  can_delete_any_message_group: setting(true, false, 'role:administrators'),
  can_delete_own_message_group: setting(true, true, 'role:everyone'),
  can_invite_users_group: setting(true, false, 'role:members'),
  can_manage_all_groups: setting(false, false, 'role:owners'),
  can_manage_billing_group: setting(false, false, 'role:administrators'),
  can_mention_many_users_group: setting(true, true, 'role:administrators'),
  can_move_messages_between_channels_group: setting(true, false, 'role:members'),
  can_move_messages_between_topics_group: setting(true, true, 'role:everyone'),
  can_resolve_topics_group: setting(true, true, 'role:everyone'),
  can_set_delete_message_policy_group: setting(true, false, 'role:moderators'),
  can_set_topics_policy_group: setting(true, true, 'role:members'),
  can_summarize_topics_group: setting(true, true, 'role:everyone'),
  create_multiuse_invite_group: setting(true, false, 'role:administrators'),
  direct_message_initiator_group: setting(true, true, 'role:everyone'),
  direct_message_permission_group: setting(true, true, 'role:everyone'),
} satisfies Record<string, GroupPermissionSetting>;

export type RealmGroupSettingName = keyof typeof REALM_PERMISSION_SETTINGS;

export const STREAM_PERMISSION_SETTINGS: Record<string, GroupPermissionSetting> = {
  can_add_subscribers_group: setting(true, false, 'role:nobody'),
  can_administer_channel_group: setting(true, false, 'channel_creator'),
  can_create_topic_group: setting(true, true, 'role:everyone'),
  can_delete_any_message_group: setting(true, true, 'role:nobody'),
  can_delete_own_message_group: setting(true, true, 'role:nobody'),
  can_move_messages_out_of_channel_group: setting(true, true, 'role:nobody'),
  can_move_messages_within_channel_group: setting(true, true, 'role:nobody'),
  can_remove_subscribers_group: setting(true, true, 'role:administrators'),
  can_resolve_topics_group: setting(true, true, 'role:nobody'),
  can_send_message_group: setting(true, true, 'role:everyone'),
  can_subscribe_group: setting(true, false, 'role:nobody'),
};

const forSystemGroups = { default_for_system_groups: 'role:nobody' };
export const GROUP_PERMISSION_SETTINGS: Record<string, GroupPermissionSetting> = {
  can_add_members_group: setting(true, false, 'group_creator', forSystemGroups),
  can_join_group: setting(true, false, 'role:nobody', forSystemGroups),
  can_leave_group: setting(true, true, 'role:everyone', forSystemGroups),
  can_manage_group: setting(true, false, 'group_creator', forSystemGroups),
  can_mention_group: setting(true, true, 'role:everyone', forSystemGroups),
  can_remove_members_group: setting(true, false, 'role:nobody', forSystemGroups),
};

// Legacy integer policies still sent next to the group settings that replaced them, for old mobile clients.
export const POLICY = { members: 1, admins: 2, fullMembers: 3, moderators: 4, everyone: 5, nobody: 6, owners: 7 } as const;
export const SYSTEM_GROUP_POLICY: Record<string, number> = {
  'role:owners': POLICY.owners,
  'role:administrators': POLICY.admins,
  'role:moderators': POLICY.moderators,
  'role:fullmembers': POLICY.fullMembers,
  'role:members': POLICY.members,
  'role:everyone': POLICY.everyone,
  'role:nobody': POLICY.nobody,
};
export const WILDCARD_MENTION_POLICY: Record<string, number> = {
  'role:everyone': 1,
  'role:members': 2,
  'role:fullmembers': 3,
  'role:administrators': 5,
  'role:nobody': 6,
  'role:moderators': 7,
};

export const VIDEO_CHAT_PROVIDERS = {
  disabled: { name: 'None', id: 0 },
  jitsi_meet: { name: 'Jitsi Meet', id: 1 },
};

export const GIF_RATING_POLICY_OPTIONS = {
  disabled: { name: 'GIF integration disabled', id: 0 },
  y: { name: 'Allow GIFs rated Y (Very young audience)', id: 1 },
  g: { name: 'Allow GIFs rated G (General audience)', id: 2 },
  pg: { name: 'Allow GIFs rated PG (Parental guidance)', id: 3 },
  'pg-13': { name: 'Allow GIFs rated PG-13 (Parental guidance - under 13)', id: 4 },
  r: { name: 'Allow GIFs rated R (Restricted)', id: 5 },
};

export const REPORT_MESSAGE_TYPES = [
  { key: 'spam', name: 'Spam' },
  { key: 'harassment', name: 'Harassment' },
  { key: 'inappropriate', name: 'Inappropriate content' },
  { key: 'norms', name: 'Violates community norms' },
  { key: 'other', name: 'Other reason' },
];

export const DEFAULT_EXTERNAL_ACCOUNTS = {
  github: {
    name: 'GitHub',
    text: 'GitHub',
    hint: 'Enter your GitHub username',
    url_pattern: 'https://github.com/%(username)s',
  },
  twitter: {
    name: 'Twitter',
    text: 'Twitter',
    hint: 'Enter your Twitter username',
    url_pattern: 'https://twitter.com/%(username)s',
  },
};

// Shown by the reference server to every organization; clients display it only on limited plans.
export const UPGRADE_TEXT_STANDARD = 'Available on Zulip Cloud Standard. Upgrade to access.';

export { EMPTY_TOPIC_DISPLAY_NAME } from '../lib/text.js';
export const DEFAULT_LOGO_PATH = '/static/images/logo/zulip-org-logo.svg';
export const DEFAULT_JITSI_SERVER_URL = 'https://meet.jit.si';
// The reference server's SERVER_GENERATION: when this process started.
export const SERVER_GENERATION = Math.floor(Date.now() / 1000);

// Limits and protocol timings. Lengths count Unicode code points (contract §2.1).
export const SERVER_LIMITS = {
  max_avatar_file_size_mib: 5,
  max_icon_file_size_mib: 5,
  max_logo_file_size_mib: 5,
  max_stream_name_length: 60,
  max_stream_description_length: 1024,
  max_bulk_new_subscription_messages: 100,
  max_topic_length: 60,
  max_message_length: 10000,
  max_channel_folder_name_length: 60,
  max_channel_folder_description_length: 1024,
  max_reminder_note_length: 1000,
  password_min_length: 6,
  password_max_length: 100,
  password_min_guesses: 10000,
  server_presence_ping_interval_seconds: 60,
  server_presence_offline_threshold_seconds: 140,
  server_typing_started_expiry_period_milliseconds: 45000,
  server_typing_stopped_wait_period_milliseconds: 5000,
  server_typing_started_wait_period_milliseconds: 10000,
  server_min_deactivated_realm_deletion_days: 14,
  server_max_deactivated_realm_deletion_days: null,
};
