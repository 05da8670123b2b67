// The server state the app holds: the register snapshot, kept current by the event reducers (events/), plus the
// messages fetched so far and the lists of them per narrow. Plain immutable data: a change makes a new State that
// shares every untouched part with the old one, so components re-render only for what changed.
import type {
  Channel, Draft, Message, PresenceInfo, RealmEmoji, RegisterResponse, ScheduledMessage, Subscription, User, UserSettings,
} from '../api/types';
import { conversationIds, dmKey, topicKey, type Term } from './narrow';
import { emptyUnread, unreadFromRegister, type Unread } from './unread';
import { orgFromRegister, type OrgState } from './org';

export interface Me {
  userId: number;
  email: string;
  fullName: string;
  isAdmin: boolean;
  isOwner: boolean;
  isModerator: boolean;
  isGuest: boolean;
  role: number; // 100 owner, 200 administrator, 300 moderator, 400 member, 600 guest
  deliveryEmail: string;
}

export interface RealmInfo {
  name: string;
  url: string;
  emptyTopicName: string;
  maxFileUploadMib: number;
  maxTopicLength: number;
  maxMessageLength: number;
  allowEditing: boolean;
  editLimitSeconds: number | null;
  reportTypes: { key: string; name: string }[];
  moderationChannelId: number; // reports go there; -1: reporting is off
  pingIntervalSeconds: number;
  offlineThresholdSeconds: number;
  typingStartedExpiryMs: number;
  typingStoppedWaitMs: number;
  typingStartedWaitMs: number;
  emojiDataUrl: string;
}

export interface MessageList {
  terms: Term[];
  ids: number[]; // ascending, contiguous in the narrow: no message of the narrow between two of them is missing
  foundOldest: boolean;
  foundNewest: boolean;
}

export interface TopicInfo {
  name: string;
  maxId: number;
}

export interface State extends OrgState {
  me: Me;
  realm: RealmInfo;
  settings: UserSettings;
  users: Map<number, User>;
  channels: Map<number, Channel>; // every channel the user may know of
  subs: Map<number, Subscription>; // those they are subscribed to
  userTopics: Map<string, number>; // topicKey → visibility policy (1 muted, 2 unmuted, 3 followed)
  unread: Unread;
  starred: Set<number>;
  messages: Map<number, Message>;
  lists: Map<string, MessageList>;
  topics: Map<number, TopicInfo[]>; // per channel, newest first, as far as known
  recentDms: Map<string, number>; // dmKey → newest message id
  presence: Map<number, PresenceInfo>;
  presenceTime: number; // server time of the presence data, seconds
  clockOffset: number; // the server's clock minus this browser's, seconds (presence is judged by the server's)
  typing: Map<string, Map<number, number>>; // conversation key → typist → expiry (ms)
  drafts: Map<number, Draft>;
  scheduled: Map<number, ScheduledMessage>;
  realmEmoji: Map<string, RealmEmoji>;
  userStatus: Map<number, { status_text?: string; emoji_name?: string; away?: boolean }>;
}

export function fromRegister(r: RegisterResponse): State {
  const users = new Map<number, User>();
  for (const u of [...r.realm_users, ...(r.realm_non_active_users ?? []), ...(r.cross_realm_bots ?? [])]) users.set(u.user_id, u);
  const channels = new Map<number, Channel>();
  for (const c of [...(r.never_subscribed ?? []), ...(r.unsubscribed ?? []), ...r.subscriptions]) channels.set(c.stream_id, c);
  const topics = new Map<number, TopicInfo[]>();
  const me = r.user_id;
  const recentDms = new Map<string, number>();
  for (const c of r.recent_private_conversations ?? []) recentDms.set(dmKey(conversationIds(c.user_ids, me)), c.max_message_id);
  return {
    me: { userId: me, email: r.email, fullName: r.full_name, isAdmin: r.is_admin, isOwner: r.is_owner, isModerator: r.is_moderator, isGuest: r.is_guest, role: roleOf(r), deliveryEmail: String(r.delivery_email ?? r.email) },
    realm: {
      name: r.realm_name,
      url: r.realm_url,
      emptyTopicName: r.realm_empty_topic_display_name ?? 'general chat',
      maxFileUploadMib: r.max_file_upload_size_mib ?? 25,
      maxTopicLength: r.max_topic_length ?? 60,
      maxMessageLength: r.max_message_length ?? 10000,
      allowEditing: r.realm_allow_message_editing ?? true,
      editLimitSeconds: r.realm_message_content_edit_limit_seconds ?? null,
      reportTypes: r.server_report_message_types ?? [],
      moderationChannelId: Number(r.realm_moderation_request_channel_id ?? -1),
      pingIntervalSeconds: r.server_presence_ping_interval_seconds ?? 60,
      offlineThresholdSeconds: r.server_presence_offline_threshold_seconds ?? 140,
      typingStartedExpiryMs: r.server_typing_started_expiry_period_milliseconds ?? 15000,
      typingStoppedWaitMs: r.server_typing_stopped_wait_period_milliseconds ?? 5000,
      typingStartedWaitMs: r.server_typing_started_wait_period_milliseconds ?? 10000,
      emojiDataUrl: r.server_emoji_data_url ?? '',
    },
    settings: r.user_settings,
    users,
    channels,
    subs: new Map(r.subscriptions.map((s) => [s.stream_id, s])),
    userTopics: new Map((r.user_topics ?? []).map((t) => [topicKey(t.stream_id, t.topic_name), t.visibility_policy])),
    unread: r.unread_msgs ? unreadFromRegister(r.unread_msgs, me) : emptyUnread(),
    starred: new Set(r.starred_messages ?? []),
    messages: new Map(),
    lists: new Map(),
    topics,
    recentDms,
    presence: new Map(Object.entries(r.presences ?? {}).map(([id, p]) => [Number(id), p])),
    presenceTime: r.server_timestamp ?? Date.now() / 1000,
    clockOffset: r.server_timestamp ? r.server_timestamp - Date.now() / 1000 : 0,
    typing: new Map(),
    drafts: new Map((r.drafts ?? []).map((d) => [d.id, d])),
    scheduled: new Map((r.scheduled_messages ?? []).map((s) => [s.scheduled_message_id, s])),
    realmEmoji: new Map(Object.entries(r.realm_emoji ?? {})),
    userStatus: new Map(Object.entries(r.user_status ?? {}).map(([id, s]) => [Number(id), s])),
    ...orgFromRegister(r),
  };
}

function roleOf(r: RegisterResponse): number {
  const mine = r.realm_users.find((u) => u.user_id === r.user_id)?.role;
  if (typeof mine === 'number') return mine;
  return r.is_owner ? 100 : r.is_admin ? 200 : r.is_moderator ? 300 : r.is_guest ? 600 : 400;
}

// The flags the app reads, after a change of role.
export function meWithRole(me: Me, role: number): Me {
  return { ...me, role, isOwner: role === 100, isAdmin: role <= 200, isModerator: role === 300, isGuest: role === 600 };
}
