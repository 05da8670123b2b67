// Row types of every table. Flags are stored as 0/1 integers (SQLite cannot bind booleans); timestamps are
// integer UNIX seconds.
import type { Generated } from 'kysely';
import type {
  UserPresenceTable,
  PresenceSequenceTable,
  DraftTable,
  SavedSnippetTable,
  NavigationViewTable,
  ScheduledMessageTable,
  ReactionTable,
  RealmEmojiTable,
  LinkifierTable,
  CacheChangeTable,
  AttachmentTable,
  AttachmentMessageTable,
  StagedUploadTable,
  UserAvatarTable,
  MultiuseInviteTable,
  AlertWordTable,
  CustomProfileFieldTable,
  CustomProfileFieldValueTable,
  RealmDomainTable,
  RealmUserDefaultsTable,
  BotSettingsTable,
  BotStorageTable,
  MutedUserTable,
  SubmessageTable,
  DeviceTable,
  PushTokenTable,
  DefaultStreamGroupTable,
  DefaultStreamGroupChannelTable,
  RealmPlaygroundTable,
  EmailInviteTable,
  OutgoingMailTable,
  ImagePreviewTable,
  SessionTable,
} from './schema-features.js';

import type { ChannelEmailTokenTable, WebhookDeliveryTable } from './schema-integrations.js';

export type * from './schema-features.js';
export type * from './schema-integrations.js';
export type * from './schema-mail.js';
import type { MissedMessageNoticeTable, PasswordResetTable } from './schema-mail.js';

export interface RealmTable {
  id: Generated<number>;
  string_id: string;
  name: string;
  description: Generated<string>;
  deactivated: Generated<number>;
  password_auth_enabled: Generated<number>;
  date_created: number;
  settings: Generated<string>;
}

export interface UserTable {
  id: Generated<number>;
  realm_id: number;
  email: string;
  delivery_email: string;
  email_key: string;
  identity_key: Generated<string>; // src/lib/identity.ts addressKey of delivery_email
  system_bot: string | null; // the server's own bot this row is: 'notification' | 'welcome' | 'emailGateway'
  full_name: string;
  role: number;
  is_bot: Generated<number>;
  bot_type: number | null;
  bot_owner_id: number | null;
  is_active: Generated<number>;
  password_hash: string | null;
  api_key: string;
  date_joined: number;
  timezone: Generated<string>;
  avatar_source: Generated<string>;
  avatar_version: Generated<number>;
  settings: Generated<string>;
  row_version: Generated<number>; // taken by a trigger at every change of the row (migration 039)
}

export interface UserGroupTable {
  id: Generated<number>;
  realm_id: number;
  name: string;
  description: Generated<string>;
  is_system_group: Generated<number>;
  deactivated: Generated<number>;
  creator_id: number | null;
  date_created: number | null;
  group_settings: Generated<string>;
}

export interface UserGroupMemberTable {
  group_id: number;
  user_id: number;
}

export interface UserGroupSubgroupTable {
  supergroup_id: number;
  subgroup_id: number;
}

export interface EventTable {
  id: Generated<number>;
  realm_id: number;
  created: number;
  event: string;
  users: string | null;
}

export interface EventQueueTable {
  id: string;
  realm_id: number;
  user_id: number;
  options: string;
  created: number;
  last_poll: number;
  idle_timeout: number;
  base_event_id: number;
  acked_event_id: number;
  last_id: number;
}

export interface ChannelFolderTable {
  id: Generated<number>;
  realm_id: number;
  name: string;
  name_key: string;
  description: Generated<string>;
  rendered_description: Generated<string>;
  creator_id: number | null;
  date_created: number;
  is_archived: Generated<number>;
  order: Generated<number>;
}

export interface StreamTable {
  id: Generated<number>;
  realm_id: number;
  name: string;
  name_key: string;
  description: Generated<string>;
  rendered_description: Generated<string>;
  date_created: number;
  creator_id: number | null;
  invite_only: Generated<number>;
  is_web_public: Generated<number>;
  history_public_to_subscribers: Generated<number>;
  message_retention_days: number | null;
  is_archived: Generated<number>;
  folder_id: number | null;
  topics_policy: Generated<string>;
  first_message_id: number | null;
  group_settings: string;
}

export interface SubscriptionTable {
  id: Generated<number>;
  user_id: number;
  stream_id: number;
  active: Generated<number>;
  is_muted: Generated<number>;
  pin_to_top: Generated<number>;
  color: string;
  desktop_notifications: number | null;
  audible_notifications: number | null;
  push_notifications: number | null;
  email_notifications: number | null;
  wildcard_mentions_notify: number | null;
}

export interface DefaultStreamTable {
  realm_id: number;
  stream_id: number;
}

export interface UserTopicTable {
  id: Generated<number>;
  user_id: number;
  stream_id: number;
  topic_name: string;
  topic_key: string;
  visibility_policy: number;
  last_updated: number;
}

export interface RecipientTable {
  id: Generated<number>;
  realm_id: number;
  stream_id: number | null;
  dm_key: string | null;
}

export interface MessageTable {
  id: Generated<number>;
  realm_id: number;
  sender_id: number;
  recipient_id: number;
  stream_id: number | null;
  topic: string;
  topic_key: string;
  content: string;
  rendered_content: string;
  date_sent: number;
  client: string;
  last_edit_time: number | null;
  last_moved_time: number | null;
  edit_history: string | null;
  has_link: Generated<number>;
  has_image: Generated<number>;
  has_attachment: Generated<number>;
  is_me_message: Generated<number>;
}

export interface UserMessageTable {
  user_id: number;
  message_id: number;
  flags: number;
}

export interface EmailChangeTable {
  key: string;
  user_id: number;
  new_email: string;
  created: number;
}

export interface Schema {
  cache_changes: CacheChangeTable;
  attachments: AttachmentTable;
  attachment_messages: AttachmentMessageTable;
  staged_uploads: StagedUploadTable;
  user_avatars: UserAvatarTable;
  multiuse_invites: MultiuseInviteTable;
  alert_words: AlertWordTable;
  custom_profile_fields: CustomProfileFieldTable;
  custom_profile_field_values: CustomProfileFieldValueTable;
  realm_domains: RealmDomainTable;
  realm_user_defaults: RealmUserDefaultsTable;
  bot_settings: BotSettingsTable;
  bot_storage: BotStorageTable;
  muted_users: MutedUserTable;
  submessages: SubmessageTable;
  devices: DeviceTable;
  push_tokens: PushTokenTable;
  default_stream_groups: DefaultStreamGroupTable;
  default_stream_group_channels: DefaultStreamGroupChannelTable;
  realm_playgrounds: RealmPlaygroundTable;
  email_invites: EmailInviteTable;
  outgoing_mail: OutgoingMailTable;
  webhook_deliveries: WebhookDeliveryTable;
  channel_email_tokens: ChannelEmailTokenTable;
  image_previews: ImagePreviewTable;
  sessions: SessionTable;
  password_resets: PasswordResetTable;
  missed_message_notices: MissedMessageNoticeTable;
  reactions: ReactionTable;
  realm_emoji: RealmEmojiTable;
  linkifiers: LinkifierTable;
  scheduled_messages: ScheduledMessageTable;
  saved_snippets: SavedSnippetTable;
  navigation_views: NavigationViewTable;
  drafts: DraftTable;
  user_presence: UserPresenceTable;
  presence_sequence: PresenceSequenceTable;
  email_changes: EmailChangeTable;
  recipients: RecipientTable;
  messages: MessageTable;
  user_messages: UserMessageTable;
  channel_folders: ChannelFolderTable;
  streams: StreamTable;
  subscriptions: SubscriptionTable;
  default_streams: DefaultStreamTable;
  user_topics: UserTopicTable;
  events: EventTable;
  event_queues: EventQueueTable;
  realms: RealmTable;
  users: UserTable;
  user_groups: UserGroupTable;
  user_group_members: UserGroupMemberTable;
  user_group_subgroups: UserGroupSubgroupTable;
}
