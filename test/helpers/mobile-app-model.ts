// What the official mobile app (zulip-flutter, lib/api/) requires of each reply and event it parses: the fields it
// reads without a fallback, with their types, as JSON Schemas written from reading its model classes (their
// generated fromJson code: `json['x'] as T` required, `as T?` optional or null). A reply that fails one of these
// is one the app rejects (MalformedServerResponseException) or an event it cannot apply.
import { Ajv, type ValidateFunction } from 'ajv';

type Json = Record<string, unknown>;
const int = { type: 'integer' };
const num = { type: 'number' };
const str = { type: 'string' };
const bool = { type: 'boolean' };
const nul = (s: Json) => ({ anyOf: [s, { type: 'null' }] });
const list = (items: Json) => ({ type: 'array', items });
const map = (values: Json) => ({ type: 'object', additionalProperties: values });
// Required fields, then fields that may be absent or null.
const obj = (required: Json, optional: Json = {}) => ({
  type: 'object',
  properties: { ...required, ...Object.fromEntries(Object.entries(optional).map(([k, v]) => [k, nul(v as Json)])) },
  required: Object.keys(required),
});
const ints = list(int);
const groupSetting = { anyOf: [int, obj({ direct_members: ints, direct_subgroups: ints })] };

const user = obj(
  { user_id: int, email: str, full_name: str, date_joined: str, is_active: bool, is_bot: bool, role: int, timezone: str, avatar_version: int },
  { delivery_email: str, bot_type: int, bot_owner_id: int, avatar_url: str, profile_data: map(obj({ value: str }, { rendered_value: str })), is_system_bot: bool },
);
const channelCommon = {
  stream_id: int, name: str, description: str, rendered_description: str, date_created: int, invite_only: bool, is_web_public: bool,
  history_public_to_subscribers: bool,
};
const channelOptional = {
  is_archived: bool, first_message_id: int, message_retention_days: int, topics_policy: str, stream_post_policy: int, folder_id: int,
  can_add_subscribers_group: groupSetting, can_delete_any_message_group: groupSetting, can_delete_own_message_group: groupSetting,
  can_send_message_group: groupSetting, can_subscribe_group: groupSetting, is_recently_active: bool, stream_weekly_traffic: int,
};
const stream = obj(channelCommon, channelOptional);
const subscription = obj(
  { ...channelCommon, pin_to_top: bool, is_muted: bool, color: { type: 'string', pattern: '^#[0-9a-f]{6}$' } },
  { ...channelOptional, desktop_notifications: bool, email_notifications: bool, wildcard_mentions_notify: bool, push_notifications: bool, audible_notifications: bool },
);
const userGroup = obj({ id: int, members: ints, direct_subgroup_ids: ints, name: str, description: str, is_system_group: bool }, { deactivated: bool });
const profileField = obj({ id: int, type: int, order: int, name: str, hint: str, field_data: str }, { display_in_profile_summary: bool });
const realmEmoji = obj({ id: str, name: str, source_url: str, deactivated: bool }, { still_url: str, author_id: int });
const savedSnippet = obj({ id: int, title: str, content: str, date_created: int });
const channelFolder = obj({ id: int, name: str, description: str, rendered_description: str, is_archived: bool }, { order: int, date_created: int, creator_id: int });
const device = obj({}, { push_key_id: int, push_token_id: str, pending_push_token_id: str, push_token_last_updated_timestamp: int, push_registration_error_code: str });
const reaction = obj({ emoji_name: str, emoji_code: str, reaction_type: { enum: ['unicode_emoji', 'realm_emoji', 'zulip_extra_emoji'] }, user_id: int });
const submessage = obj({ sender_id: int, msg_type: str, content: str });
const messageBase = {
  client: str, content: str, content_type: str, id: int, is_me_message: bool, reactions: list(reaction), sender_email: str, sender_full_name: str,
  sender_id: int, sender_realm_str: str, timestamp: int, flags: list(str),
};
const messageOptional = { last_edit_timestamp: int, match_content: str, match_subject: str, submessages: list(submessage) };
const messageOf = (base: Json) => ({
  anyOf: [
    obj({ ...base, type: { enum: ['stream'] }, stream_id: int, subject: str, display_recipient: str }, messageOptional),
    obj({ ...base, type: { enum: ['private'] }, display_recipient: list(obj({ id: int, email: str, full_name: str })) }, messageOptional),
  ],
});
const message = messageOf(messageBase);
// A message event carries the flags beside the message (the app puts them in).
const { flags: _flags, ...eventMessageBase } = messageBase;
const eventMessage = messageOf(eventMessageBase);
const topicItem = obj({ stream_id: int, topic_name: str, last_updated: int, visibility_policy: int });
const statusChange = obj({}, { status_text: str, emoji_name: str, emoji_code: str, reaction_type: str });

export const initialSnapshot = obj(
  {
    last_event_id: int, zulip_feature_level: int, zulip_version: str, zulip_merge_base: str, alert_words: list(str), custom_profile_fields: list(profileField),
    max_stream_name_length: int, max_topic_length: int, server_presence_ping_interval_seconds: int, server_presence_offline_threshold_seconds: int,
    muted_users: list(obj({ id: int })), presences: map(obj({ active_timestamp: int, idle_timestamp: int })), realm_emoji: map(realmEmoji),
    realm_user_groups: list(userGroup), recent_private_conversations: list(obj({ max_message_id: int, user_ids: ints })), subscriptions: list(subscription),
    unread_msgs: obj({
      count: int, pms: list(obj({ other_user_id: int, unread_message_ids: ints })), streams: list(obj({ topic: str, stream_id: int, unread_message_ids: ints })),
      huddles: list(obj({ user_ids_string: str, unread_message_ids: ints })), mentions: ints, old_unreads_missing: bool,
    }),
    starred_messages: ints, streams: list(stream), user_status: map(statusChange),
    user_settings: obj({ starred_message_counts: bool, display_emoji_reaction_users: bool, emojiset: str, presence_enabled: bool }, { twenty_four_hour_time: bool, web_inbox_show_channel_folders: bool }),
    user_topics: list(topicItem), realm_wildcard_mention_policy: { enum: [1, 2, 3, 5, 6, 7] }, realm_name: str, realm_waiting_period_threshold: int,
    realm_allow_message_editing: bool, realm_enable_read_receipts: bool, realm_icon_url: str, realm_presence_disabled: bool,
    realm_default_external_accounts: map(obj({ name: str, text: str, hint: str, url_pattern: str })), max_file_upload_size_mib: int,
    server_emoji_data_url: str, event_queue_longpoll_timeout_seconds: int, realm_users: list(user), realm_non_active_users: list(user), cross_realm_bots: list(user),
  },
  {
    queue_id: str, server_typing_started_expiry_period_milliseconds: int, server_typing_stopped_wait_period_milliseconds: int,
    server_typing_started_wait_period_milliseconds: int, saved_snippets: list(savedSnippet), channel_folders: list(channelFolder), devices: map(device),
    realm_can_delete_any_message_group: groupSetting, realm_can_delete_own_message_group: groupSetting, realm_delete_own_message_policy: { enum: [1, 2, 3, 4, 5] },
    realm_topics_policy: str, realm_mandatory_topics: bool, realm_message_content_delete_limit_seconds: int, realm_message_content_edit_limit_seconds: int,
    server_thumbnail_formats: list(obj({ name: str, max_width: int, max_height: int, animated: bool, format: str })), realm_moderation_request_channel_id: int,
    realm_empty_topic_display_name: str, server_report_message_types: list(obj({ key: str, name: str })),
  },
);

// Replies of the routes the app calls (lib/api/route/).
export const REPLIES: Record<string, Json> = {
  'POST /fetch_api_key': obj({ api_key: str, email: str }, { user_id: int }),
  'GET /server_settings': obj({
    authentication_methods: obj({ ldap: bool }), external_authentication_methods: list(obj({ name: str, display_name: str, login_url: str, signup_url: str }, { display_icon: str })),
    zulip_feature_level: int, zulip_version: str, zulip_merge_base: str, push_notifications_enabled: bool, is_incompatible: bool, email_auth_enabled: bool,
    require_email_format_usernames: bool, realm_uri: str, realm_name: str, realm_icon: str, realm_description: str, realm_web_public_access_enabled: bool,
  }),
  'POST /register': initialSnapshot,
  'GET /events': obj({ events: list({ type: 'object', properties: { id: int }, required: ['id'] }) }, { queue_id: str }),
  'POST /register_client_device': obj({ device_id: int }),
  'GET /users/me': obj({ user_id: int }),
  'GET /messages': obj({ anchor: int, found_newest: bool, found_oldest: bool, found_anchor: bool, history_limited: bool, messages: list(message) }),
  'GET /messages/{id}': obj({ message }),
  'POST /messages': obj({ id: int }),
  'POST /messages/flags': obj({ messages: ints }),
  'POST /messages/flags/narrow': obj({ processed_count: int, updated_count: int, found_oldest: bool, found_newest: bool }, { first_processed_id: int, last_processed_id: int }),
  'GET /messages/{id}/read_receipts': obj({ user_ids: ints }),
  'POST /user_uploads': obj({ uri: str }),
  'GET /user_uploads/{path}': obj({ url: str }),
  'GET /users/me/{id}/topics': obj({ topics: list(obj({ max_id: int, name: str })) }),
  'POST /users/me/presence': obj({}, { presence_last_update_id: int, server_timestamp: num, presences: map(obj({ active_timestamp: int, idle_timestamp: int })) }),
  'POST /saved_snippets': obj({ saved_snippet_id: int }),
  'server_emoji_data_url': obj({ code_to_names: map(list(str)) }),
};

// Every event class the app parses (lib/api/model/events.dart), by type and op: 45 of them.
const event = (fields: Json, optional: Json = {}) => obj({ id: int, ...fields }, optional);
const userGroupUpdate = event({ group_id: int, data: obj({}, { name: str, description: str, deactivated: bool }) });
export const EVENTS: Record<string, Json> = {
  'realm_emoji/add': event({ emoji: realmEmoji }),
  'realm_emoji/update_one': event({ emoji_id: str, data: obj({}, { deactivated: bool }) }),
  'realm_emoji/update': event({ realm_emoji: map(realmEmoji) }),
  alert_words: event({ alert_words: list(str) }),
  'user_settings/update': event({ property: str }),
  'device/add': event({ device_id: int }),
  'device/remove': event({ device_id: int }),
  'device/update': event({ device_id: int }, { push_key_id: int, push_token_id: str, pending_push_token_id: str, push_token_last_updated_timestamp: int, push_registration_error_code: str }),
  custom_profile_fields: event({ fields: list(profileField) }),
  'user_group/add': event({ group: userGroup }),
  'user_group/update': userGroupUpdate,
  'user_group/add_members': event({ group_id: int, user_ids: ints }),
  'user_group/remove_members': event({ group_id: int, user_ids: ints }),
  'user_group/add_subgroups': event({ group_id: int, direct_subgroup_ids: ints }),
  'user_group/remove_subgroups': event({ group_id: int, direct_subgroup_ids: ints }),
  'user_group/remove': event({ group_id: int }),
  'realm_user/add': event({ person: user }),
  'realm_user/remove': event({ person: obj({ user_id: int }) }),
  'realm_user/update': event({ person: obj({ user_id: int }, { full_name: str, avatar_url: str, avatar_version: int, timezone: str, bot_owner_id: int, role: int, new_email: str, is_active: bool }) }),
  'saved_snippets/add': event({ saved_snippet: savedSnippet }),
  'saved_snippets/update': event({ saved_snippet: savedSnippet }),
  'saved_snippets/remove': event({ saved_snippet_id: int }),
  'stream/create': event({ streams: list(stream) }),
  'stream/delete': { anyOf: [event({ stream_ids: ints }), event({ streams: list(obj({ stream_id: int })) })] },
  'stream/update': event({ stream_id: int, name: str, property: str }, { rendered_description: str, history_public_to_subscribers: bool, is_web_public: bool }),
  'subscription/add': event({ subscriptions: list(subscription) }),
  'subscription/remove': event({ subscriptions: list(obj({ stream_id: int })) }),
  'subscription/update': event({ stream_id: int, property: str }),
  'subscription/peer_add': event({ stream_ids: ints, user_ids: ints }),
  'subscription/peer_remove': event({ stream_ids: ints, user_ids: ints }),
  'channel_folder/add': event({ channel_folder: channelFolder }),
  'channel_folder/reorder': event({ order: ints }),
  'channel_folder/update': event({ channel_folder_id: int, data: obj({}, { name: str, description: str, rendered_description: str, is_archived: bool }) }),
  user_status: event({ user_id: int }, { status_text: str, emoji_name: str, emoji_code: str, reaction_type: str }),
  user_topic: event({ stream_id: int, topic_name: str, last_updated: int, visibility_policy: int }),
  muted_users: event({ muted_users: list(obj({ id: int })) }),
  message: event({ message: eventMessage, flags: list(str) }, { local_message_id: str }),
  update_message: event(
    { rendering_only: bool, message_id: int, message_ids: ints, flags: list(str), edit_timestamp: int },
    { user_id: int, stream_id: int, new_stream_id: int, orig_subject: str, subject: str, propagate_mode: str, orig_content: str, orig_rendered_content: str, content: str, rendered_content: str, is_me_message: bool },
  ),
  delete_message: event({ message_ids: ints, message_type: { enum: ['stream', 'private'] } }, { stream_id: int, topic: str }),
  'update_message_flags/add': event({ flag: str, messages: ints, all: bool }),
  'update_message_flags/remove': event({ flag: str, messages: ints }, { message_details: map(obj({ type: { enum: ['stream', 'private'] } }, { mentioned: bool, user_ids: ints, stream_id: int, topic: str })) }),
  submessage: event({ msg_type: str, content: str, message_id: int, sender_id: int, submessage_id: int }),
  typing: event({ op: { enum: ['start', 'stop'] }, message_type: { enum: ['stream', 'private', 'direct'] }, sender: obj({ user_id: int }) }, { recipients: list(obj({ user_id: int })), stream_id: int, topic: str }),
  presence: event({ user_id: int, server_timestamp: int, presence: map(obj({ client: str, status: { enum: ['active', 'idle'] }, timestamp: int, pushable: bool })) }),
  reaction: event({ op: { enum: ['add', 'remove'] }, emoji_name: str, emoji_code: str, reaction_type: { enum: ['unicode_emoji', 'realm_emoji', 'zulip_extra_emoji'] }, user_id: int, message_id: int }),
  heartbeat: event({}),
};

// The app dispatches on type, and on op where a type has several (lib/api/model/events.dart Event.fromJson).
export function appEventKey(e: Json): string | null {
  const withOp = `${String(e.type)}/${String(e.op)}`;
  if (withOp in EVENTS) return withOp;
  return String(e.type) in EVENTS ? String(e.type) : null;
}

const ajv = new Ajv({ strict: false, allErrors: true });
const compiled = new Map<Json, ValidateFunction>();
const validatorOf = (schema: Json) => {
  let v = compiled.get(schema);
  if (!v) compiled.set(schema, (v = ajv.compile(schema)));
  return v;
};
const errorsOf = (v: ValidateFunction, what: string) => (v.errors ?? []).slice(0, 5).map((e) => `${what} ${e.instancePath || '(root)'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);

// Error lines for a reply the app would not parse; empty when it would.
export function appReplyErrors(route: string, body: unknown): string[] {
  const v = validatorOf(REPLIES[route]);
  return v(body) ? [] : errorsOf(v, route);
}

// Error lines for an event the app would not parse (unknown types are kept aside by the app, not refused).
export function appEventErrors(e: Json): string[] {
  const key = appEventKey(e);
  if (!key) return [];
  const v = validatorOf(EVENTS[key]);
  return v(e) ? [] : errorsOf(v, key);
}
