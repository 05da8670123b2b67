// Who may read messages of a channel, and so who is told when they change, move or disappear.
import { ApiError } from '../http/errors.js';
import { hasContentAccess, isGuest } from '../permissions/channels.js';
import type { Db, Tx } from '../store/db.js';
import { groupsOfUser } from '../store/groups.js';
import { messageRows, oldestMessageId } from '../store/message-edits.js';
import { flagNames, type Message } from '../store/messages.js';
import type { Realm } from '../store/realms.js';
import { findStream, updateStream, type Stream } from '../store/streams.js';
import { findSubscription, subscriberIds } from '../store/subscriptions.js';
import { listUsers, type User } from '../store/users.js';
import { channelAudience } from './channels.js';
import { accessMessage } from './messages-fetch.js';
import type { Emit } from './transaction.js';

// A message the caller is about to change (edit, delete, announce typing on): one they may read, and for a
// channel message one in a channel they may read now, as the reference server requires of modifications.
export async function accessMessageForChange(db: Db, realm: Realm, user: User, id: number): Promise<{ message: Message; stream: Stream | null }> {
  const { message } = await accessMessage(db, realm, user, id);
  if (message.streamId === null) return { message, stream: null };
  const stream = (await findStream(db, realm.id, message.streamId))!;
  const sub = await findSubscription(db, user.id, stream.id);
  if (!hasContentAccess({ user, groups: await groupsOfUser(db, user.id) }, stream, sub)) throw new ApiError('Invalid message(s)');
  return { message, stream };
}

export interface ChannelReaders {
  subscribers: Set<number>;
  // Whether a user may read the channel's messages they hold a row for.
  canRead(userId: number): Promise<boolean>;
}

// Subscribers read a channel; others when it is public (not to guests) or web-public, or through the groups
// that grant content access. Groups are loaded only for the users that last case concerns.
export async function channelReaders(db: Db, realmId: number, stream: Stream, users?: Map<number, User>): Promise<ChannelReaders> {
  const subscribers = new Set((await subscriberIds(db, [stream.id])).get(stream.id) ?? []);
  const byId = users ?? new Map((await listUsers(db, realmId)).map((u) => [u.id, u]));
  return {
    subscribers,
    async canRead(userId) {
      const user = byId.get(userId);
      if (!user?.isActive) return false;
      if (subscribers.has(userId)) return true;
      if ((!stream.inviteOnly && !isGuest(user)) || stream.isWebPublic) return true;
      return hasContentAccess({ user, groups: await groupsOfUser(db, userId) }, stream);
    },
  };
}

export type Audience = Map<number, string[]>; // user id → their flags for the message an event is about

// Everyone to tell about a change to these messages (one conversation): holders of a row who may still read
// them, and, when the channel's history is public to subscribers, its subscribers (who see the messages
// without rows). Flags are those of `targetId`; a reader without a row for it gets ['read'], as the reference
// server sends to subscribers.
export async function messageAudience(db: Db, realmId: number, stream: Stream | null, messageIds: number[], targetId: number): Promise<Audience> {
  const rows = await messageRows(db, messageIds);
  const holders = new Set(rows.map((r) => r.userId));
  const targetFlags = new Map(rows.filter((r) => r.messageId === targetId).map((r) => [r.userId, flagNames(r.flags)]));
  const audience: Audience = new Map();
  if (!stream) {
    for (const id of holders) audience.set(id, targetFlags.get(id) ?? ['read']);
    return audience;
  }
  const readers = await channelReaders(db, realmId, stream);
  for (const id of holders) if (await readers.canRead(id)) audience.set(id, targetFlags.get(id) ?? ['read']);
  if (stream.historyPublicToSubscribers) for (const id of readers.subscribers) if (!audience.has(id)) audience.set(id, ['read']);
  return audience;
}

// Events carry per-user flags, so one event is emitted per distinct set of flags.
export function byFlags(audience: Audience): { flags: string[]; userIds: number[] }[] {
  const groups = new Map<string, { flags: string[]; userIds: number[] }>();
  for (const [id, flags] of audience) {
    const key = flags.join(',');
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { flags, userIds: [] }));
    g.userIds.push(id);
  }
  return [...groups.values()];
}

// delete_message in bulk form; queues without bulk_message_deletion get it reshaped to one `message_id` (see
// src/events/filter.ts), and for several messages single-message copies marked `_single` are logged as well.
export function emitDeletion(emit: Emit, realmId: number, ids: number[], where: { stream: Stream; topic: string } | null, userIds: number[]): void {
  if (!userIds.length || !ids.length) return;
  const sorted = [...ids].sort((a, b) => a - b);
  const base = where ? { message_type: 'stream', stream_id: where.stream.id, topic: where.topic } : { message_type: 'private' };
  emit(realmId, { type: 'delete_message', message_ids: sorted, ...base }, userIds);
  if (sorted.length > 1) for (const id of sorted) emit(realmId, { type: 'delete_message', message_id: id, ...base, _single: true }, userIds);
}

// Keeps a channel's first_message_id right after messages left or entered it.
export async function refreshFirstMessageId(tx: Tx, emit: Emit, realm: Realm, stream: Stream): Promise<void> {
  const first = await oldestMessageId(tx, stream.id);
  if (first === stream.firstMessageId) return;
  await updateStream(tx, stream.id, { firstMessageId: first });
  const event = { type: 'stream', op: 'update', stream_id: stream.id, name: stream.name, property: 'first_message_id', value: first };
  emit(realm.id, event, await channelAudience(tx, realm.id, stream));
}
