// Changing per-user message flags, and the unread/starred state register reports.
import type { App } from '../app.js';
import { ApiError } from '../http/errors.js';
import type { Db } from '../store/db.js';
import { addHistoricalRows, changeFlag, dmMembers, FLAG_BITS, findMessages, flaggedMessageIds, recentDmConversations, unreadMessages, userMessageFlags } from '../store/messages.js';
import type { Realm } from '../store/realms.js';
import type { User } from '../store/users.js';
import { accessMessage } from './messages-fetch.js';
import { inTransaction } from './transaction.js';

const EDITABLE = new Set(['read', 'starred', 'collapsed']);
const KNOWN = new Set(['read', 'starred', 'collapsed', 'mentioned', 'stream_wildcard_mentioned', 'topic_wildcard_mentioned', 'wildcard_mentioned', 'has_alert_word', 'historical']);

export async function doUpdateFlags(app: App, realm: Realm, user: User, ids: number[], op: 'add' | 'remove', flag: string): Promise<number[]> {
  if (!KNOWN.has(flag)) throw new ApiError(`Invalid flag: '${flag}'`);
  if (!EDITABLE.has(flag)) throw new ApiError(`Flag not editable: '${flag}'`);
  const bit = FLAG_BITS[flag as 'read'];
  return inTransaction(app, async (tx, emit) => {
    const unique = [...new Set(ids)];
    const have = await userMessageFlags(tx, user.id, unique);
    // Starring a message read from a channel's history gives the user a row for it.
    const missing = unique.filter((id) => !have.has(id));
    if (missing.length && op === 'add' && flag !== 'read') {
      for (const id of missing) await accessMessage(tx, realm, user, id);
      await addHistoricalRows(tx, user.id, missing, FLAG_BITS.read | FLAG_BITS.historical);
    }
    const changed = await changeFlag(tx, user.id, unique, bit, op === 'add');
    if (changed.length) {
      const event: Record<string, unknown> = { type: 'update_message_flags', op, operation: op, flag, messages: changed, all: false };
      if (op === 'remove' && flag === 'read') event.message_details = await messageDetails(tx, realm, user, changed);
      emit(realm.id, event, [user.id]);
    }
    return changed;
  });
}

// For marking unread, clients need to know where each message lives.
async function messageDetails(db: Db, realm: Realm, user: User, ids: number[]) {
  const messages = await findMessages(db, realm.id, ids);
  const flags = await userMessageFlags(db, user.id, ids);
  const members = await dmMembers(db, messages.map((m) => m.recipientId));
  const details: Record<string, Record<string, unknown>> = {};
  for (const m of messages) {
    const mentioned = ((flags.get(m.id) ?? 0) & (FLAG_BITS.mentioned | FLAG_BITS.stream_wildcard_mentioned | FLAG_BITS.topic_wildcard_mentioned)) !== 0;
    details[m.id] = m.streamId !== null
      ? { type: 'stream', stream_id: m.streamId, topic: m.topic, unmuted_stream_msg: true, ...(mentioned ? { mentioned } : {}) }
      : { type: 'private', user_ids: (members.get(m.recipientId) ?? []).filter((id) => id !== user.id), ...(mentioned ? { mentioned } : {}) };
  }
  return details;
}

// The register blocks of unread and starred messages (§2.9 recent conversations too).
export async function unreadState(db: Db, user: User) {
  const unread = await unreadMessages(db, user.id, 50000);
  const members = await dmMembers(db, [...new Set(unread.filter((u) => u.streamId === null).map((u) => u.recipientId))]);
  const streams = new Map<string, { stream_id: number; topic: string; unread_message_ids: number[] }>();
  const pms = new Map<number, number[]>();
  const huddles = new Map<string, number[]>();
  const mentions: number[] = [];
  for (const u of [...unread].reverse()) {
    if (u.flags & (FLAG_BITS.mentioned | FLAG_BITS.stream_wildcard_mentioned | FLAG_BITS.topic_wildcard_mentioned)) mentions.push(u.id);
    if (u.streamId !== null) {
      const key = `${u.streamId}\u0000${u.topic.toLowerCase()}`;
      const entry = streams.get(key) ?? { stream_id: u.streamId, topic: u.topic, unread_message_ids: [] };
      entry.unread_message_ids.push(u.id);
      streams.set(key, entry);
    } else {
      const ids = members.get(u.recipientId) ?? [user.id];
      if (ids.length <= 2) {
        const other = ids.find((id) => id !== user.id) ?? user.id;
        pms.set(other, [...(pms.get(other) ?? []), u.id]);
      } else huddles.set(ids.join(','), [...(huddles.get(ids.join(',')) ?? []), u.id]);
    }
  }
  return {
    unread_msgs: {
      count: unread.length,
      pms: [...pms].map(([other, ids]) => ({ other_user_id: other, sender_id: other, unread_message_ids: ids })),
      streams: [...streams.values()],
      huddles: [...huddles].map(([key, ids]) => ({ user_ids_string: key, unread_message_ids: ids })),
      mentions,
      old_unreads_missing: false,
    },
  };
}

export async function starredState(db: Db, user: User) {
  return { starred_messages: await flaggedMessageIds(db, user.id, FLAG_BITS.starred) };
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
