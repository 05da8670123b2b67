// Moving messages to another topic or channel: who may, within which time limits, which messages a
// propagate_mode takes along, and what happens to recipients' rows when the channel changes.
import { ApiError } from '../lib/errors.js';
import { canAdminister, hasContentAccess, inGroupSetting, isRealmAdmin, type Viewer } from '../permissions/channels.js';
import { realmSettings } from '../state/realm.js';
import type { Db, Tx } from '../store/db.js';
import { addMissingRows, deleteRows, messageHolderIds, topicMessages, type TopicMessage } from '../store/message-edits.js';
import { FLAG_BITS, topicExists, userMessageFlags, type Message } from '../store/messages.js';
import type { Realm } from '../store/realms.js';
import { findStream, type Stream } from '../store/streams.js';
import { findSubscription } from '../store/subscriptions.js';
import { ROLE } from '../store/users.js';
import { holdsRealmSetting } from './channels.js';
import { channelReaders } from './message-audience.js';

export const RESOLVED_TOPIC_PREFIX = '✔ ';
// Grace the reference server allows past each time limit, for clients that start an edit just before it.
export const EDIT_LIMIT_BUFFER = 20;

export const isModerator = (v: Viewer) => v.user.role <= ROLE.moderator;

export interface MoveRequest {
  message: Message;
  origStream: Stream;
  targetStream: Stream;
  origTopic: string;
  targetTopic: string;
  topicEdited: boolean;
  streamEdited: boolean;
  resolveToggle: boolean; // the topic change only adds or removes the resolved prefix
  propagateMode: string;
}

// `rawTopic` is the requested topic before truncation, which resolving compares against.
export function isResolveToggle(origTopic: string, targetTopic: string, rawTopic: string): boolean {
  const p = RESOLVED_TOPIC_PREFIX;
  const resolved = targetTopic.startsWith(p) && !origTopic.startsWith(p) && rawTopic.slice(p.length) === origTopic;
  const unresolved = origTopic.startsWith(p) && !targetTopic.startsWith(p) && origTopic.replace(/^[✔ ]+/u, '') === targetTopic;
  return resolved || unresolved;
}

// The channel messages are moved to: one the caller may read, not archived.
export async function accessTargetChannel(db: Db, realm: Realm, v: Viewer, id: number): Promise<Stream> {
  const stream = await findStream(db, realm.id, id);
  const sub = stream && (await findSubscription(db, v.user.id, stream.id));
  if (!stream || stream.isArchived || !hasContentAccess(v, stream, sub)) throw new ApiError('Invalid channel ID');
  return stream;
}

const canMoveWithin = (v: Viewer, s: Stream) =>
  isRealmAdmin(v.user) || canAdminister(v, s) || inGroupSetting(v, s.groups.can_move_messages_within_channel_group);

function canEditTopic(v: Viewer, realm: Realm, r: MoveRequest, systemGroups: Map<string, number>): boolean {
  if (holdsRealmSetting(v, realm, 'can_move_messages_between_topics_group', systemGroups)) return true;
  return canMoveWithin(v, r.origStream) || (r.streamEdited && canMoveWithin(v, r.targetStream));
}

function canResolve(v: Viewer, realm: Realm, r: MoveRequest, systemGroups: Map<string, number>): boolean {
  if (holdsRealmSetting(v, realm, 'can_resolve_topics_group', systemGroups)) return true;
  return inGroupSetting(v, r.origStream.groups.can_resolve_topics_group) || (r.streamEdited && inGroupSetting(v, r.targetStream.groups.can_resolve_topics_group));
}

function canMoveOutOf(v: Viewer, realm: Realm, s: Stream, systemGroups: Map<string, number>): boolean {
  return isRealmAdmin(v.user) || holdsRealmSetting(v, realm, 'can_move_messages_between_channels_group', systemGroups) ||
    canAdminister(v, s) || inGroupSetting(v, s.groups.can_move_messages_out_of_channel_group);
}

const tooOld = (m: { dateSent: number }, limit: number, now: number) => now - m.dateSent > limit;

export async function checkMove(tx: Tx, realm: Realm, v: Viewer, r: MoveRequest, systemGroups: Map<string, number>, now: number): Promise<void> {
  const settings = realmSettings(realm);
  const withinLimit = settings.move_messages_within_stream_limit_seconds;
  const betweenLimit = settings.move_messages_between_streams_limit_seconds;
  if (r.topicEdited) {
    if (r.resolveToggle) {
      if (!canResolve(v, realm, r, systemGroups)) throw new ApiError("You don't have permission to resolve topics in this channel.");
    } else {
      if (!canEditTopic(v, realm, r, systemGroups)) throw new ApiError("You don't have permission to edit this message");
      if (withinLimit !== null && !isModerator(v) && tooOld(r.message, withinLimit + EDIT_LIMIT_BUFFER, now)) {
        throw new ApiError("The time limit for editing this message's topic has passed.");
      }
    }
  }
  if (r.streamEdited) {
    if (!canMoveOutOf(v, realm, r.origStream, systemGroups)) throw new ApiError("You don't have permission to move this message");
    if (!inGroupSetting(v, r.targetStream.groups.can_send_message_group)) throw new ApiError('You do not have permission to post in this channel.');
    if (betweenLimit !== null && !isModerator(v) && tooOld(r.message, betweenLimit + EDIT_LIMIT_BUFFER, now)) {
      throw new ApiError("The time limit for editing this message's channel has passed");
    }
  }
  if (r.propagateMode === 'change_all' && !isModerator(v) && !r.resolveToggle) {
    const limits = [r.topicEdited ? withinLimit : null, r.streamEdited ? betweenLimit : null].filter((l): l is number => l !== null);
    if (limits.length) await checkWholeTopicMovable(tx, realm, v, r, Math.min(...limits) + EDIT_LIMIT_BUFFER, now);
  }
  if (!(await topicExists(tx, r.targetStream.id, r.targetTopic)) && !inGroupSetting(v, r.targetStream.groups.can_create_topic_group)) {
    throw new ApiError('You do not have permission to create new topics in this channel.');
  }
}

// The topic's messages the caller can see: all of them with access to the channel's history, else those they
// received.
export async function visibleTopicMessages(tx: Tx, realm: Realm, v: Viewer, stream: Stream, topic: string): Promise<TopicMessage[]> {
  const all = await topicMessages(tx, stream.id, topic);
  const readers = await channelReaders(tx, realm.id, stream, new Map([[v.user.id, v.user]]));
  if (stream.historyPublicToSubscribers && (await readers.canRead(v.user.id))) return all;
  const held = await userMessageFlags(tx, v.user.id, all.map((m) => m.id));
  return all.filter((m) => held.has(m.id));
}

async function checkWholeTopicMovable(tx: Tx, realm: Realm, v: Viewer, r: MoveRequest, deadline: number, now: number): Promise<void> {
  const visible = await visibleTopicMessages(tx, realm, v, r.origStream, r.origTopic);
  const allowed = visible.filter((m) => !tooOld(m, deadline, now));
  if (allowed.length === visible.length) return;
  throw new ApiError(
    `You only have permission to move the ${allowed.length}/${visible.length} most recent messages in this topic.`,
    'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED',
    400,
    { first_message_id_allowed_to_move: allowed[0]?.id ?? null, total_messages_in_topic: visible.length, total_messages_allowed_to_move: allowed.length },
  );
}

// The other messages a move takes along. Within a channel a topic moves whole, as the reference server keeps
// topics together; to another channel only what the caller can see goes, so nobody gains access by moving.
export async function propagatedIds(tx: Tx, realm: Realm, v: Viewer, r: MoveRequest): Promise<number[]> {
  if (r.propagateMode === 'change_one') return [];
  const candidates = r.streamEdited
    ? await visibleTopicMessages(tx, realm, v, r.origStream, r.origTopic)
    : await topicMessages(tx, r.origStream.id, r.origTopic);
  const id = r.message.id;
  return candidates.map((m) => m.id).filter((m) => (r.propagateMode === 'change_all' ? m !== id : m > id));
}

// Rows follow the messages as the reference moves them: holders not subscribed to the new channel lose their
// rows, and those of them who cannot read it there are told the messages were deleted; a channel whose history
// is not public to subscribers gives each subscriber a row (read) where they have none, since there a row is what
// grants access. Elsewhere subscribers read the moved messages from the channel's history, without rows.
// Returns the users who lost access.
export async function moveRows(tx: Tx, realm: Realm, target: Stream, messageIds: number[]): Promise<number[]> {
  const readers = await channelReaders(tx, realm.id, target);
  const leaving = (await messageHolderIds(tx, messageIds)).filter((id) => !readers.subscribers.has(id));
  const losing: number[] = [];
  for (const id of leaving) if (!(await readers.canRead(id, false))) losing.push(id);
  await deleteRows(tx, leaving, messageIds);
  if (!target.historyPublicToSubscribers) await addMissingRows(tx, [...readers.subscribers], messageIds, FLAG_BITS.read);
  return losing;
}
