// The unread, starred and recent-conversation register blocks.
import { Pacer } from '../lib/pace.js';
import type { Db } from '../store/db.js';
import { dmMembers, FLAG_BITS, starredMessageIds, recentDmConversations, topicKey, unreadConversations } from '../store/messages.js';
import { subscriptionsOfUser } from '../store/subscriptions.js';
import { listUserTopics } from '../store/user-topics.js';
import type { User } from '../store/users.js';

// The unread_msgs register block. Messages of channels the user left are not unread any more.
export async function unreadState(db: Db, user: User) {
  const subscribed = new Set((await subscriptionsOfUser(db, user.id)).filter((s) => s.active).map((s) => s.streamId));
  const { conversations, total } = await unreadConversations(db, user.id, MAX_UNREAD_MESSAGES);
  // Oldest first, as the lists are: a topic spelled two ways is listed under its oldest message's spelling.
  const unread = conversations.filter((c) => c.streamId === null || subscribed.has(c.streamId)).sort((a, b) => a.ids[0] - b.ids[0]);
  const members = await dmMembers(db, [...new Set(unread.filter((c) => c.streamId === null).map((c) => c.recipientId))]);
  const isMuted = await muteRule(db, user);
  const streams = new Map<string, { stream_id: number; topic: string; unread_message_ids: number[] }>();
  const pms = new Map<number, number[]>();
  const huddles = new Map<string, number[]>();
  const mentions: number[] = [];
  let count = 0;
  // Appends in place (copying a list for each message made 50,000 unread messages quadratic); a list that gets
  // a second conversation's ids (a topic spelled two ways) is sorted again at the end.
  const merged = new Set<number[]>();
  const add = (list: number[], ids: number[]) => {
    if (list.length) merged.add(list);
    for (const id of ids) list.push(id);
  };
  const listOf = <K>(map: Map<K, number[]>, key: K) => map.get(key) ?? (map.set(key, []).get(key) as number[]);
  const pacer = new Pacer();
  for (const c of unread) {
    if (pacer.due()) await pacer.pause();
    const muted = c.streamId !== null && isMuted(c.streamId, c.topic);
    if (!muted) count += c.ids.length;
    // Wildcard mentions in muted topics do not count as mentions; personal mentions always do.
    add(mentions, c.mentioned);
    if (!muted) add(mentions, c.wildcardMentioned);
    if (c.streamId !== null) {
      const key = `${c.streamId}\u0000${topicKey(c.topic)}`;
      const entry = streams.get(key) ?? { stream_id: c.streamId, topic: c.topic, unread_message_ids: [] };
      streams.set(key, entry);
      add(entry.unread_message_ids, c.ids);
      continue;
    }
    const ids = members.get(c.recipientId) ?? [user.id];
    if (ids.length <= 2) add(listOf(pms, ids.find((id) => id !== user.id) ?? user.id), c.ids);
    else add(listOf(huddles, ids.join(',')), c.ids);
  }
  for (const list of merged) list.sort((a, b) => a - b);
  return {
    unread_msgs: {
      count,
      pms: [...pms].map(([other, ids]) => ({ other_user_id: other, sender_id: other, unread_message_ids: ids })),
      streams: [...streams.values()],
      huddles: [...huddles].map(([key, ids]) => ({ user_ids_string: key, unread_message_ids: ids })),
      mentions,
      old_unreads_missing: total === MAX_UNREAD_MESSAGES,
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
