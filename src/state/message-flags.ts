// The unread, starred and recent-conversation register blocks.
import { Pacer } from '../lib/pace.js';
import type { Db } from '../store/db.js';
import { dmMembers, FLAG_BITS, starredMessageIds, recentDmConversations, topicKey, unreadMessages } from '../store/messages.js';
import { subscriptionsOfUser } from '../store/subscriptions.js';
import { listUserTopics } from '../store/user-topics.js';
import type { User } from '../store/users.js';

// The unread_msgs register block. Messages of channels the user left are not unread any more.
export async function unreadState(db: Db, user: User) {
  const subscribed = new Set((await subscriptionsOfUser(db, user.id)).filter((s) => s.active).map((s) => s.streamId));
  const fetched = await unreadMessages(db, user.id, MAX_UNREAD_MESSAGES);
  const unread = fetched.filter((u) => u.streamId === null || subscribed.has(u.streamId)).reverse();
  const members = await dmMembers(db, [...new Set(unread.filter((u) => u.streamId === null).map((u) => u.recipientId))]);
  const isMuted = await muteRule(db, user);
  const streams = new Map<string, { stream_id: number; topic: string; unread_message_ids: number[] }>();
  const pms = new Map<number, number[]>();
  const huddles = new Map<string, number[]>();
  const mentions: number[] = [];
  let count = 0;
  // Appends in place: copying the list for each message made 50,000 unread messages in one conversation quadratic.
  const push = <K>(map: Map<K, number[]>, key: K, id: number) => {
    const list = map.get(key);
    if (list) list.push(id);
    else map.set(key, [id]);
  };
  const pacer = new Pacer();
  for (const u of unread) {
    if (pacer.due()) await pacer.pause();
    const muted = u.streamId !== null && isMuted(u.streamId, u.topic);
    if (!muted) count++;
    // Wildcard mentions in muted topics do not count as mentions; personal mentions always do.
    if ((u.flags & FLAG_BITS.mentioned) !== 0 || ((u.flags & MENTION_BITS) !== 0 && !muted)) mentions.push(u.id);
    if (u.streamId !== null) {
      const key = `${u.streamId}\u0000${topicKey(u.topic)}`;
      const entry = streams.get(key) ?? { stream_id: u.streamId, topic: u.topic, unread_message_ids: [] };
      entry.unread_message_ids.push(u.id);
      streams.set(key, entry);
      continue;
    }
    const ids = members.get(u.recipientId) ?? [user.id];
    if (ids.length <= 2) push(pms, ids.find((id) => id !== user.id) ?? user.id, u.id);
    else push(huddles, ids.join(','), u.id);
  }
  return {
    unread_msgs: {
      count,
      pms: [...pms].map(([other, ids]) => ({ other_user_id: other, sender_id: other, unread_message_ids: ids })),
      streams: [...streams.values()],
      huddles: [...huddles].map(([key, ids]) => ({ user_ids_string: key, unread_message_ids: ids })),
      mentions,
      old_unreads_missing: fetched.length === MAX_UNREAD_MESSAGES,
    },
  };
}

export async function starredState(db: Db, user: User) {
  return { starred_messages: await starredMessageIds(db, user.id) };
}

export async function recentConversationsState(db: Db, user: User) {
  const recent = await recentDmConversations(db, user.id);
  const members = await dmMembers(db, recent.map((r) => r.recipientId));
  return {
    recent_private_conversations: recent.map((r) => ({
      max_message_id: r.maxMessageId,
      user_ids: (members.get(r.recipientId) ?? []).filter((id) => id !== user.id),
    })),
  };
}

export const MAX_UNREAD_MESSAGES = 50000;

// Muted channels (unless the topic is unmuted or followed) and muted topics leave the unread count, as in the
// reference server; their messages are still listed.
export async function muteRule(db: Db, user: User) {
  const muted = new Set((await subscriptionsOfUser(db, user.id)).filter((s) => s.active && s.isMuted).map((s) => s.streamId));
  const policies = new Map((await listUserTopics(db, user.id)).map((t) => [`${t.streamId}\u0000${topicKey(t.topicName)}`, t.visibilityPolicy]));
  return (streamId: number, topic: string) => {
    const policy = policies.get(`${streamId}\u0000${topicKey(topic)}`) ?? 0;
    return muted.has(streamId) ? policy !== 2 && policy !== 3 : policy === 1;
  };
}

export const MENTION_BITS = FLAG_BITS.mentioned | FLAG_BITS.stream_wildcard_mentioned | FLAG_BITS.topic_wildcard_mentioned;
