// Who is told when messages change, move or disappear: those who may access them by the rule of
// src/permissions/messages.ts, as the reference server's event_recipient_ids_for_action_on_messages.
import { canAccessMessage } from '../permissions/messages.js';
import type { Db, Tx } from '../store/db.js';
import { groupsOfUser } from '../store/groups.js';
import { messageRows, oldestMessageId } from '../store/message-edits.js';
import { flagNames } from '../store/messages.js';
import type { Realm } from '../store/realms.js';
import { updateStream, type Stream } from '../store/streams.js';
import { subscriberIds } from '../store/subscriptions.js';
import { listUsers, type User } from '../store/users.js';
import { channelAudience } from './channels.js';
import type { Emit } from './transaction.js';
import { usersById } from './user-index.js';

export interface ChannelReaders {
  subscribers: Set<number>;
  // Whether a user may access the channel's messages: those they hold a row for (`received`), or any. Decided at
  // once (no promise) when the user's groups are not needed: a channel's 50,000 subscribers are not 50,000 awaits.
  canRead(userId: number, received?: boolean): boolean | Promise<boolean>;
}

const NO_GROUPS = new Set<number>();

// The access rule applied to many users of one channel. Groups can only add access and a subscriber needs none,
// so they are loaded only for the few others the rule refuses without them (removed members, guests).
export async function channelReaders(db: Db, realmId: number, stream: Stream, users?: Map<number, User>): Promise<ChannelReaders> {
  const subscribers = new Set((await subscriberIds(db, [stream.id])).get(stream.id) ?? []);
  const userOf = users ? (id: number) => users.get(id) : usersById(await listUsers(db, realmId));
  const withGroups = async (user: User, place: Parameters<typeof canAccessMessage>[1]) => canAccessMessage({ user, groups: await groupsOfUser(db, user.id) }, place);
  return {
    subscribers,
    canRead(userId, received = true) {
      const user = userOf(userId);
      if (!user?.isActive) return false;
      const subscribed = subscribers.has(userId);
      const place = { stream, received, sub: { active: subscribed } };
      if (canAccessMessage({ user, groups: NO_GROUPS }, place)) return true;
      return !subscribed && withGroups(user, place);
    },
  };
}

export type Audience = Map<number, string[]>; // user id → their flags for the message an event is about

// The flags of every reader without a row, one array for all (frozen: the audience's arrays are only read).
const READ = Object.freeze(['read']) as string[];

// Everyone to tell about a change to these messages (one conversation): of those holding a row for them and,
// for a channel, its subscribers, whoever may access them. So a member removed from a private channel hears no
// more of it, nor does a subscriber of a channel with protected history of what was sent before they joined;
// readers of a public channel who hold no row are not told, as on the reference server. Flags are those of
// `targetId`; a reader without a row for it gets ['read'], as the reference server sends to subscribers.
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
  // Holders first, then the other subscribers; awaiting only where a user's groups must be read.
  for (const ids of [holders, readers.subscribers]) {
    for (const id of ids) {
      if (ids !== holders && holders.has(id)) continue;
      const may = readers.canRead(id, holders.has(id));
      if (may === true || (may !== false && (await may))) audience.set(id, targetFlags.get(id) ?? READ);
    }
  }
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
