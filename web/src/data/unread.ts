// Unread messages by conversation (a topic of a channel, or a direct-message conversation), from register's
// unread_msgs and kept by the flag and message events. Counts that leave out muted channels and topics are
// derived in selectors.ts.
import type { UnreadMsgs } from '../api/types';
import { conversationIds, dmKey, topicKey } from './narrow';

export type UnreadConv =
  | { key: string; kind: 'stream'; streamId: number; topic: string; ids: number[] }
  | { key: string; kind: 'dm'; userIds: number[]; ids: number[] };

export interface Unread {
  convs: Map<string, UnreadConv>;
  convOf: Map<number, string>; // message id → conversation key
  mentions: Set<number>;
  oldMissing: boolean;
}

export const emptyUnread = (): Unread => ({ convs: new Map(), convOf: new Map(), mentions: new Set(), oldMissing: false });

export const streamConvKey = (streamId: number, topic: string) => `s:${topicKey(streamId, topic)}`;
export const dmConvKey = (others: number[]) => `d:${dmKey(others)}`;

export type Where = { kind: 'stream'; streamId: number; topic: string } | { kind: 'dm'; userIds: number[] };

export function whereKey(w: Where): string {
  return w.kind === 'stream' ? streamConvKey(w.streamId, w.topic) : dmConvKey(w.userIds);
}

// A copy whose maps may be changed (once per batch of events; see draft.ts).
export const cloneUnread = (u: Unread): Unread => ({ convs: new Map(u.convs), convOf: new Map(u.convOf), mentions: new Set(u.mentions), oldMissing: u.oldMissing });

function insertSorted(ids: number[], id: number): number[] {
  if (!ids.length || ids[ids.length - 1] < id) return [...ids, id];
  if (ids.includes(id)) return ids;
  return [...ids, id].sort((a, b) => a - b);
}

// On a mutable Unread (cloneUnread).
export function addUnread(u: Unread, id: number, where: Where, mentioned: boolean): void {
  if (u.convOf.has(id)) return;
  const key = whereKey(where);
  const conv = u.convs.get(key);
  const next: UnreadConv = conv
    ? { ...conv, ids: insertSorted(conv.ids, id) }
    : where.kind === 'stream'
      ? { key, kind: 'stream', streamId: where.streamId, topic: where.topic, ids: [id] }
      : { key, kind: 'dm', userIds: where.userIds, ids: [id] };
  u.convs.set(key, next);
  u.convOf.set(id, key);
  if (mentioned) u.mentions.add(id);
}

export function removeUnread(u: Unread, id: number): void {
  u.mentions.delete(id);
  const key = u.convOf.get(id);
  if (key === undefined) return;
  u.convOf.delete(id);
  const conv = u.convs.get(key)!;
  const ids = conv.ids.filter((x) => x !== id);
  if (ids.length) u.convs.set(key, { ...conv, ids });
  else u.convs.delete(key);
}

export function unreadFromRegister(r: UnreadMsgs, me: number): Unread {
  const u = emptyUnread();
  const mentions = new Set(r.mentions);
  for (const s of r.streams) for (const id of s.unread_message_ids) addUnread(u, id, { kind: 'stream', streamId: s.stream_id, topic: s.topic }, mentions.has(id));
  for (const p of r.pms) {
    const other = p.other_user_id ?? p.sender_id!;
    for (const id of p.unread_message_ids) addUnread(u, id, { kind: 'dm', userIds: conversationIds([other], me) }, mentions.has(id));
  }
  for (const h of r.huddles) {
    const ids = conversationIds(h.user_ids_string.split(',').map(Number), me);
    for (const id of h.unread_message_ids) addUnread(u, id, { kind: 'dm', userIds: ids }, mentions.has(id));
  }
  // Mentions among messages not otherwise listed (older unreads) still count as mentions.
  for (const id of mentions) if (!u.convOf.has(id)) u.mentions.delete(id);
  u.oldMissing = r.old_unreads_missing;
  return u;
}
