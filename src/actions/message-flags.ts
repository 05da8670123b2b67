// Changing per-user message flags (by id or over a narrow), and the unread/starred state register reports.
import type { App } from '../app.js';
import { ApiError } from '../lib/errors.js';
import { Pacer } from '../lib/pace.js';
import type { Db, Tx } from '../store/db.js';
import {
  addHistoricalRows, changeFlag, dmMembers, FLAG_BITS, findMessages, starredMessageIds, recentDmConversations, topicKey, unreadMessages,
  userMessageFlags,
} from '../store/messages.js';
import type { Realm } from '../store/realms.js';
import { subscriptionsOfUser } from '../store/subscriptions.js';
import { listUserTopics } from '../store/user-topics.js';
import type { User } from '../store/users.js';
import { accessMessage } from './message-access.js';
import { narrowWindow, type WindowInput } from './messages-fetch.js';
import { inTransaction, type Emit } from './transaction.js';

const EDITABLE = new Set(['read', 'starred', 'collapsed']);
const KNOWN = new Set(['read', 'starred', 'collapsed', 'mentioned', 'stream_wildcard_mentioned', 'topic_wildcard_mentioned', 'wildcard_mentioned', 'has_alert_word', 'historical']);
const MENTION_BITS = FLAG_BITS.mentioned | FLAG_BITS.stream_wildcard_mentioned | FLAG_BITS.topic_wildcard_mentioned;
// POST /messages/flags/narrow updates at most this many messages per request, as the reference server does.
const MAX_MESSAGES_PER_UPDATE = 5000;

export type FlagOp = 'add' | 'remove';

function flagBit(flag: string): number {
  if (!KNOWN.has(flag)) throw new ApiError(`Invalid flag: '${flag}'`);
  if (!EDITABLE.has(flag)) throw new ApiError(`Flag not editable: '${flag}'`);
  return FLAG_BITS[flag as 'read'];
}

// `readable`: the ids come from a narrow that already applied the caller's access.
async function updateFlagsInTx(tx: Tx, emit: Emit, realm: Realm, user: User, ids: number[], op: FlagOp, flag: string, readable: boolean) {
  const bit = flagBit(flag);
  let unique = [...new Set(ids)];
  const have = await userMessageFlags(tx, user.id, unique);
  const missing = unique.filter((id) => !have.has(id));
  if (!readable) for (const id of missing) await accessMessage(tx, realm, user, id);
  // Unread channel messages exist only in channels the user is subscribed to; marking others unread is ignored.
  let ignoredChannels: number[] = [];
  if (op === 'remove' && flag === 'read') {
    const subscribed = new Set((await subscriptionsOfUser(tx, user.id)).filter((s) => s.active).map((s) => s.streamId));
    const skipped = (await findMessages(tx, realm.id, unique)).filter((m) => m.streamId !== null && !subscribed.has(m.streamId));
    const skippedIds = new Set(skipped.map((m) => m.id));
    ignoredChannels = [...new Set(skipped.map((m) => m.streamId!))].sort((a, b) => a - b);
    unique = unique.filter((id) => !skippedIds.has(id));
  }
  // Starring (or collapsing) a message read from a channel's history gives the user a row for it.
  if (missing.length && op === 'add' && flag !== 'read') await addHistoricalRows(tx, user.id, missing, FLAG_BITS.read | FLAG_BITS.historical);
  const changed = await changeFlag(tx, user.id, unique, bit, op === 'add');
  if (changed.length) {
    const event: Record<string, unknown> = { type: 'update_message_flags', op, operation: op, flag, messages: changed, all: false };
    if (op === 'remove' && flag === 'read') event.message_details = await messageDetails(tx, realm, user, changed);
    emit(realm.id, event, [user.id]);
  }
  return { changed, ignoredChannels };
}

export async function doUpdateFlags(app: App, realm: Realm, user: User, ids: number[], op: FlagOp, flag: string): Promise<number[]> {
  flagBit(flag);
  const { changed } = await inTransaction(app, (tx, emit) => updateFlagsInTx(tx, emit, realm, user, ids, op, flag, false));
  return changed;
}

export async function doUpdateFlagsForNarrow(app: App, realm: Realm, user: User, input: WindowInput & { op: FlagOp; flag: string }) {
  flagBit(input.flag);
  if (input.numBefore > 0 && input.numAfter > 0 && !input.includeAnchor) throw new ApiError('The anchor can only be excluded at an end of the range');
  const numBefore = Math.min(input.numBefore, Math.max(MAX_MESSAGES_PER_UPDATE - input.numAfter, 0));
  const numAfter = Math.min(input.numAfter, MAX_MESSAGES_PER_UPDATE - numBefore);
  const { ids, found } = await narrowWindow(app, realm, user, { ...input, numBefore, numAfter });
  const { changed, ignoredChannels } = await inTransaction(app, (tx, emit) => updateFlagsInTx(tx, emit, realm, user, ids, input.op, input.flag, true));
  return {
    processed_count: ids.length,
    updated_count: changed.length,
    first_processed_id: ids[0] ?? null,
    last_processed_id: ids.at(-1) ?? null,
    found_oldest: found.found_oldest,
    found_newest: found.found_newest,
    ignored_because_not_subscribed_channels: ignoredChannels,
  };
}

// Muted channels (unless the topic is unmuted or followed) and muted topics leave the unread count, as in the
// reference server; their messages are still listed.
async function muteRule(db: Db, user: User) {
  const muted = new Set((await subscriptionsOfUser(db, user.id)).filter((s) => s.active && s.isMuted).map((s) => s.streamId));
  const policies = new Map((await listUserTopics(db, user.id)).map((t) => [`${t.streamId}\u0000${topicKey(t.topicName)}`, t.visibilityPolicy]));
  return (streamId: number, topic: string) => {
    const policy = policies.get(`${streamId}\u0000${topicKey(topic)}`) ?? 0;
    return muted.has(streamId) ? policy !== 2 && policy !== 3 : policy === 1;
  };
}

// For marking unread, clients need to know where each message lives.
async function messageDetails(db: Db, realm: Realm, user: User, ids: number[]) {
  const messages = await findMessages(db, realm.id, ids);
  const flags = await userMessageFlags(db, user.id, ids);
  const members = await dmMembers(db, messages.map((m) => m.recipientId));
  const isMuted = await muteRule(db, user);
  const details: Record<string, Record<string, unknown>> = {};
  for (const m of messages) {
    const mentioned = ((flags.get(m.id) ?? 0) & MENTION_BITS) !== 0;
    details[m.id] = m.streamId !== null
      ? { type: 'stream', stream_id: m.streamId, topic: m.topic, unmuted_stream_msg: !isMuted(m.streamId, m.topic), ...(mentioned ? { mentioned } : {}) }
      : { type: 'private', user_ids: (members.get(m.recipientId) ?? []).filter((id) => id !== user.id), ...(mentioned ? { mentioned } : {}) };
  }
  return details;
}

const MAX_UNREAD_MESSAGES = 50000;

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

