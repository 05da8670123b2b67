// Tables of the features built on the core (presence, drafts, uploads, invitations, profile fields and so on),
// kept apart so that each file stays readable; schema.ts gathers both into one Schema.
import type { Generated } from 'kysely';

export interface UserPresenceTable {
  user_id: number;
  realm_id: number;
  last_active_time: number | null;
  last_connected_time: number;
  last_update_id: number;
}

export interface PresenceSequenceTable {
  realm_id: number;
  last_update_id: number;
}

export interface DraftTable {
  id: Generated<number>;
  user_id: number;
  type: string;
  to: string;
  topic: string;
  content: string;
  timestamp: number;
}

export interface SavedSnippetTable {
  id: Generated<number>;
  user_id: number;
  title: string;
  content: string;
  date_created: number;
}

export interface NavigationViewTable {
  id: Generated<number>;
  user_id: number;
  fragment: string;
  is_pinned: number;
  name: string | null;
}

export interface ScheduledMessageTable {
  id: Generated<number>;
  realm_id: number;
  sender_id: number;
  type: string;
  to: string;
  topic: string;
  content: string;
  rendered_content: string;
  scheduled_timestamp: number;
  read_by_sender: number | null;
  delivered: Generated<number>;
  failed: Generated<number>;
  failure_message: string | null;
  delivered_message_id: number | null;
  reminder_target_message_id: number | null;
}

export interface ReactionTable {
  id: Generated<number>;
  message_id: number;
  user_id: number;
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
}

export interface RealmEmojiTable {
  id: Generated<number>;
  realm_id: number;
  name: string;
  author_id: number | null;
  file_name: string;
  deactivated: Generated<number>;
  size: Generated<number>;
}

export interface LinkifierTable {
  id: Generated<number>;
  realm_id: number;
  pattern: string;
  url_template: string;
  position: Generated<number>;
}

export interface CacheChangeTable {
  id: Generated<number>;
  created: number;
  origin: string;
  tables: string;
}

export interface AttachmentTable {
  id: Generated<number>;
  realm_id: number;
  owner_id: number;
  path_id: string;
  file_name: string;
  content_type: string | null;
  size: number;
  create_time: number;
}

// A resumable upload in progress: its declared length counts against the quota until it finishes or goes.
export interface StagedUploadTable {
  id: string;
  realm_id: number;
  user_id: number;
  size: number;
  created: number;
}

export interface AttachmentMessageTable {
  attachment_id: number;
  message_id: number;
}

export interface UserAvatarTable {
  user_id: number;
  file_name: string;
}

export interface MultiuseInviteTable {
  id: Generated<number>;
  realm_id: number;
  key: string;
  referred_by: number;
  invited_as: number;
  created: number;
  expiry: number | null;
  revoked: Generated<number>;
  include_realm_default_subscriptions: Generated<number>;
  stream_ids: string;
  group_ids: string;
  welcome_message_custom_text: string | null;
}

export interface AlertWordTable {
  id: Generated<number>;
  realm_id: number;
  user_id: number;
  word: string;
  word_key: string;
}

export interface CustomProfileFieldTable {
  id: Generated<number>;
  realm_id: number;
  name: string;
  hint: Generated<string>;
  field_type: number;
  field_data: Generated<string>;
  order: Generated<number>;
  display_in_profile_summary: Generated<number>;
  required: Generated<number>;
  editable_by_user: Generated<number>;
}

export interface CustomProfileFieldValueTable {
  user_id: number;
  field_id: number;
  value: string;
  rendered_value: string | null;
}

export interface RealmDomainTable {
  id: Generated<number>;
  realm_id: number;
  domain: string;
  allow_subdomains: Generated<number>;
}

export interface RealmUserDefaultsTable {
  realm_id: number;
  settings: string;
}

export interface BotSettingsTable {
  user_id: number;
  default_sending_stream_id: number | null;
  default_events_register_stream_id: number | null;
  default_all_public_streams: Generated<number>;
  service_name: string | null;
  service_base_url: string | null;
  service_interface: number | null;
  service_token: string | null;
  config_data: Generated<string>;
}

export interface BotStorageTable {
  user_id: number;
  key_hash: string;
  key: string;
  value: string;
  size: number;
}

export interface MutedUserTable {
  realm_id: number;
  user_id: number;
  muted_user_id: number;
  date_muted: number;
}

export interface SubmessageTable {
  id: Generated<number>;
  message_id: number;
  sender_id: number;
  msg_type: string;
  content: string;
}

export interface DeviceTable {
  id: Generated<number>;
  realm_id: number;
  user_id: number;
  created: number;
  push_key_id: number | null;
  push_key: string | null;
  token_kind: string | null;
  push_token_id: string | null;
  pending_push_token_id: string | null;
  pending_registration: string | null;
  push_token_last_updated: number | null;
  push_registration_error_code: string | null;
  bouncer_device_id: number | null;
}

export interface PushTokenTable {
  id: Generated<number>;
  realm_id: number;
  user_id: number;
  kind: number;
  token: string;
  token_hash: string;
  ios_app_id: string | null;
  created: number;
}

export interface DefaultStreamGroupTable {
  id: Generated<number>;
  realm_id: number;
  name: string;
  description: Generated<string>;
}

export interface DefaultStreamGroupChannelTable {
  group_id: number;
  stream_id: number;
}

export interface RealmPlaygroundTable {
  id: Generated<number>;
  realm_id: number;
  name: string;
  pygments_language: string;
  url_template: string;
}

export interface EmailInviteTable {
  id: Generated<number>;
  realm_id: number;
  email: string;
  key: string;
  invited_by: number;
  invited_at: number;
  expiry: number | null;
  invited_as: number;
  stream_ids: Generated<string>;
  group_ids: Generated<string>;
  include_realm_default_subscriptions: Generated<number>;
  notify_referrer_on_join: Generated<number>;
  welcome_message_custom_text: string | null;
  status: Generated<number>;
}

export interface OutgoingMailTable {
  id: Generated<number>;
  created: number;
  to_address: string;
  subject: string;
  body: string;
  attempts: Generated<number>;
  next_attempt: number;
  sent_at: number | null;
  last_error: string | null;
}

export interface ImagePreviewTable {
  path_id: string;
  realm_id: number;
  width: number;
  height: number;
  frames: number;
  content_type: string;
  thumbnail: string | null;
}

export interface SessionTable {
  token_hash: string;
  user_id: number;
  realm_id: number;
  csrf_token: string;
  created: number;
  expires: number;
}
