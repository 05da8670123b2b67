// Changing per-user message flags (by id or over a narrow); register's unread/starred blocks are in state/.
import type { App } from '../app.js';
import { ApiError } from '../lib/errors.js';
import type { Db, Tx } from '../store/db.js';
import { addHistoricalRows, changeFlag, dmMembers, FLAG_BITS, findMessages, userMessageFlags } from '../store/messages.js';
import type { Realm } from '../store/realms.js';
import { subscriptionsOfUser } from '../store/subscriptions.js';
import type { User } from '../store/users.js';
import { accessMessage } from './message-access.js';
import { narrowWindow, type WindowInput } from './messages-fetch.js';
import { inTransaction, type Emit } from './transaction.js';
import { MENTION_BITS, muteRule } from '../state/message-flags.js';

const EDITABLE = new Set(['read', 'starred', 'collapsed']);
const KNOWN = new Set(['read', 'starred', 'collapsed', 'mentioned', 'stream_wildcard_mentioned', 'topic_wildcard_mentioned', 'wildcard_mentioned', 'has_alert_word', 'historical']);
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
