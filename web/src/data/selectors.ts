// Derived views of the state, each recomputed only when the parts it reads change.
import type { Subscription, User } from '../api/types';
import { dmKey, topicKey } from './narrow';
import type { State } from './state';
import { memo } from './store';
import type { Unread } from './unread';

export interface UnreadCounts {
  streams: Map<number, number>; // channel → unread messages that count (not muted)
  streamMentions: Map<number, number>;
  topics: Map<string, number>; // topicKey → unread messages
  dms: Map<string, number>; // dmKey → unread messages
  dmTotal: number;
  mentions: number;
  total: number; // what the title and the feed show: unmuted channel messages and direct messages
}

// A topic counts unless muted, or in a muted channel without being unmuted or followed.
export function topicMuted(subs: Map<number, Subscription>, userTopics: Map<string, number>, streamId: number, topic: string): boolean {
  const policy = userTopics.get(topicKey(streamId, topic));
  if (policy === 1) return true;
  if (policy === 2 || policy === 3) return false;
  return subs.get(streamId)?.is_muted ?? false;
}

export const unreadCounts = memo((unread: Unread, subs: Map<number, Subscription>, userTopics: Map<string, number>): UnreadCounts => {
  const out: UnreadCounts = { streams: new Map(), streamMentions: new Map(), topics: new Map(), dms: new Map(), dmTotal: 0, mentions: unread.mentions.size, total: 0 };
  for (const conv of unread.convs.values()) {
    if (conv.kind === 'dm') {
      out.dms.set(dmKey(conv.userIds), conv.ids.length);
      out.dmTotal += conv.ids.length;
      out.total += conv.ids.length;
      continue;
    }
    if (!subs.has(conv.streamId)) continue; // channels left: not unread any more
    out.topics.set(topicKey(conv.streamId, conv.topic), conv.ids.length);
    const mentions = conv.ids.filter((id) => unread.mentions.has(id)).length;
    if (mentions) out.streamMentions.set(conv.streamId, (out.streamMentions.get(conv.streamId) ?? 0) + mentions);
    if (topicMuted(subs, userTopics, conv.streamId, conv.topic)) continue;
    out.streams.set(conv.streamId, (out.streams.get(conv.streamId) ?? 0) + conv.ids.length);
    out.total += conv.ids.length;
  }
  return out;
});

export const countsOf = (s: State) => unreadCounts(s.unread, s.subs, s.userTopics);

// Pinned channels first, then by name.
export const sortedSubs = memo((subs: Map<number, Subscription>): Subscription[] =>
  [...subs.values()].filter((s) => !s.is_archived).sort((a, b) => Number(b.pin_to_top) - Number(a.pin_to_top) || a.name.localeCompare(b.name)),
);

export interface DmConversation {
  key: string;
  userIds: number[];
  maxId: number;
}

// Recent direct-message conversations, newest first, and any with unread messages.
export const dmConversations = memo((recent: Map<string, number>, unread: Unread): DmConversation[] => {
  const byKey = new Map<string, DmConversation>();
  for (const [key, maxId] of recent) byKey.set(key, { key, userIds: key.split(',').map(Number), maxId });
  for (const conv of unread.convs.values()) {
    if (conv.kind !== 'dm') continue;
    const key = dmKey(conv.userIds);
    const maxId = Math.max(byKey.get(key)?.maxId ?? 0, conv.ids[conv.ids.length - 1]);
    byKey.set(key, { key, userIds: conv.userIds, maxId });
  }
  return [...byKey.values()].sort((a, b) => b.maxId - a.maxId);
});

export type PresenceStatus = 'active' | 'idle' | 'offline';

// `now`: this browser's clock, in seconds; the timestamps are the server's, hence the offset.
export function presenceOf(s: Pick<State, 'presence' | 'clockOffset' | 'realm'>, userId: number, local = Date.now() / 1000): PresenceStatus {
  const p = s.presence.get(userId);
  if (!p) return 'offline';
  const now = local + s.clockOffset;
  const threshold = s.realm.offlineThresholdSeconds;
  if (now - p.active_timestamp < threshold) return 'active';
  if (now - p.idle_timestamp < threshold) return 'idle';
  return 'offline';
}

// Active people first, then idle, then the rest, each by name; bots and deactivated users left out.
export const peopleList = memo((users: Map<number, User>): User[] =>
  [...users.values()].filter((u) => u.is_active && !u.is_bot).sort((a, b) => a.full_name.localeCompare(b.full_name)),
);

export const userName = (s: Pick<State, 'users'>, id: number) => s.users.get(id)?.full_name ?? 'Unknown user';

export function conversationTitle(s: Pick<State, 'users' | 'me'>, userIds: number[]): string {
  if (userIds.length === 1 && userIds[0] === s.me.userId) return `${s.me.fullName} (you)`;
  return userIds.map((id) => userName(s, id)).join(', ');
}
