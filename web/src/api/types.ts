// The API objects the app reads, as the server sends them (register snapshot, messages, events). Only the fields
// the app uses are named; the rest pass through untouched.

export interface Reaction {
  emoji_name: string;
  emoji_code: string;
  reaction_type: 'unicode_emoji' | 'realm_emoji' | 'zulip_extra_emoji';
  user_id: number;
}

export interface DmRecipient {
  id: number;
  email: string;
  full_name: string;
}

export interface Message {
  id: number;
  sender_id: number;
  sender_full_name: string;
  sender_email: string;
  avatar_url?: string | null;
  content: string; // rendered HTML (apply_markdown)
  timestamp: number;
  type: 'stream' | 'private';
  stream_id?: number;
  subject: string;
  display_recipient: string | DmRecipient[];
  reactions: Reaction[];
  flags: string[];
  is_me_message: boolean;
  last_edit_timestamp?: number;
  last_moved_timestamp?: number;
  topic_links?: { text: string; url: string }[];
  match_content?: string;
  match_subject?: string;
}

export interface User {
  user_id: number;
  email: string;
  full_name: string;
  is_active: boolean;
  is_bot: boolean;
  is_admin?: boolean;
  is_owner?: boolean;
  is_guest?: boolean;
  role?: number;
  avatar_url?: string | null;
  avatar_version?: number;
  timezone?: string;
  delivery_email?: string | null;
  date_joined?: string;
  bot_type?: number | null;
  bot_owner_id?: number | null;
  profile_data?: Record<string, { value: string; rendered_value?: string }>;
}

export interface Channel {
  stream_id: number;
  name: string;
  description: string;
  rendered_description?: string;
  invite_only: boolean;
  is_web_public?: boolean;
  is_archived?: boolean;
  subscriber_count?: number;
  first_message_id?: number | null;
}

export interface Subscription extends Channel {
  color: string;
  is_muted: boolean;
  pin_to_top: boolean;
  desktop_notifications: boolean | null;
  audible_notifications: boolean | null;
  subscribers?: number[];
}

export interface UserTopic {
  stream_id: number;
  topic_name: string;
  last_updated: number;
  visibility_policy: number; // 0 none, 1 muted, 2 unmuted, 3 followed
}

export interface Draft {
  id: number;
  type: 'stream' | 'private' | '';
  to: number[];
  topic: string;
  content: string;
  timestamp: number;
}

export interface ScheduledMessage {
  scheduled_message_id: number;
  type: 'stream' | 'private';
  to: number | number[];
  topic?: string;
  content: string;
  rendered_content: string;
  scheduled_delivery_timestamp: number;
  failed: boolean;
}

export interface RealmEmoji {
  id: string;
  name: string;
  source_url: string;
  deactivated: boolean;
  author_id?: number | null;
}

export interface PresenceInfo {
  active_timestamp: number;
  idle_timestamp: number;
}

export interface UnreadMsgs {
  count: number;
  pms: { other_user_id?: number; sender_id?: number; unread_message_ids: number[] }[];
  streams: { stream_id: number; topic: string; unread_message_ids: number[] }[];
  huddles: { user_ids_string: string; unread_message_ids: number[] }[];
  mentions: number[];
  old_unreads_missing: boolean;
}

export interface RecentDm {
  user_ids: number[];
  max_message_id: number;
}

export interface UserSettings {
  twenty_four_hour_time: boolean;
  web_mark_read_on_scroll_policy: number; // 1 always, 2 conversation views only, 3 never
  color_scheme: number; // 1 automatic, 2 dark, 3 light
  enter_sends: boolean;
  enable_desktop_notifications: boolean;
  enable_sounds: boolean;
  pm_content_in_desktop_notifications: boolean;
  enable_drafts_synchronization: boolean;
  display_emoji_reaction_users: boolean;
  web_escape_navigates_to_home_view: boolean;
  web_home_view: string;
  timezone: string;
  send_private_typing_notifications: boolean;
  send_stream_typing_notifications: boolean;
  receives_typing_notifications: boolean;
  starred_message_counts: boolean;
  presence_enabled: boolean;
  [key: string]: unknown;
}

export type Term = { operator: string; operand: string | number | number[]; negated?: boolean };

// One event from GET /events; `type` picks its shape.
export type ServerEvent = { id: number; type: string; [key: string]: unknown };

export interface RegisterResponse {
  queue_id: string;
  last_event_id: number;
  user_id: number;
  email: string;
  full_name: string;
  is_admin: boolean;
  is_owner: boolean;
  is_moderator: boolean;
  is_guest: boolean;
  realm_name: string;
  realm_url: string;
  realm_users: User[];
  realm_non_active_users: User[];
  cross_realm_bots: User[];
  subscriptions: Subscription[];
  unsubscribed: Subscription[];
  never_subscribed: Channel[];
  unread_msgs: UnreadMsgs;
  starred_messages: number[];
  recent_private_conversations: RecentDm[];
  presences: Record<string, PresenceInfo>;
  server_timestamp: number;
  drafts: Draft[];
  scheduled_messages: ScheduledMessage[];
  user_settings: UserSettings;
  user_topics: UserTopic[];
  realm_emoji: Record<string, RealmEmoji>;
  max_message_id: number;
  realm_empty_topic_display_name?: string;
  server_emoji_data_url?: string;
  server_presence_ping_interval_seconds?: number;
  server_presence_offline_threshold_seconds?: number;
  server_typing_started_expiry_period_milliseconds?: number;
  server_typing_stopped_wait_period_milliseconds?: number;
  server_typing_started_wait_period_milliseconds?: number;
  max_file_upload_size_mib?: number;
  max_topic_length?: number;
  max_message_length?: number;
  realm_message_content_edit_limit_seconds?: number | null;
  realm_allow_message_editing?: boolean;
  server_report_message_types?: { key: string; name: string }[];
  user_status?: Record<string, { status_text?: string; emoji_name?: string; away?: boolean }>;
  [key: string]: unknown;
}

// Organization settings and personal lists (the settings overlay reads them).

// A group-based permission: a group's id, or an anonymous group of users and groups.
export type GroupSettingValue = number | { direct_members: number[]; direct_subgroups: number[] };

export interface UserGroup {
  id: number;
  name: string;
  description: string;
  members: number[];
  direct_subgroup_ids: number[];
  is_system_group: boolean;
  deactivated?: boolean;
  creator_id?: number | null;
  date_created?: number | null;
  [setting: string]: unknown; // can_*_group
}

export interface Linkifier {
  id: number;
  pattern: string;
  url_template: string;
}

export interface Playground {
  id: number;
  name: string;
  pygments_language: string;
  url_template: string;
}

export interface ProfileField {
  id: number;
  type: number;
  name: string;
  hint: string;
  field_data: string;
  order: number;
  display_in_profile_summary?: boolean;
  required?: boolean;
}

export interface ChannelFolder {
  id: number;
  name: string;
  description: string;
  rendered_description?: string;
  order?: number;
  is_archived: boolean;
  creator_id?: number | null;
}

export interface Bot {
  user_id: number;
  full_name: string;
  email: string;
  bot_type: number | null;
  is_active: boolean;
  api_key?: string;
  owner_id?: number | null;
  avatar_url?: string;
  default_sending_stream?: string | null;
  services?: unknown[];
}

export interface PermissionSettingInfo {
  require_system_group: boolean;
  allow_internet_group: boolean;
  allow_nobody_group: boolean;
  allow_everyone_group: boolean;
  default_group_name: string;
  allowed_system_groups: string[];
}
