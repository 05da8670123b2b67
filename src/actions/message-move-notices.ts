// What follows a move (PATCH /messages/{id} changing topic or channel), as in the reference server's
// zerver/actions/message_edit.py: topic settings follow a whole moved topic, and the Notification Bot posts the
// resolve notice and the breadcrumbs in the old and new topics.
import { messageUrl, silentMention, topicLinkSyntax } from '../lib/mention-syntax.js';
import type { Viewer } from '../permissions/channels.js';
import { userSettings } from '../state/user-settings.js';
import type { Tx } from '../store/db.js';
import { deleteMessages, topicMessages } from '../store/message-edits.js';
import { findMessages, topicKey } from '../store/messages.js';
import type { Realm } from '../store/realms.js';
import type { Stream } from '../store/streams.js';
import { subscriberIds } from '../store/subscriptions.js';
import { topicPolicies } from '../store/user-topics.js';
import { findUsers, type User } from '../store/users.js';
import { channelReaders, emitDeletion, messageAudience, refreshFirstMessageId } from './message-audience.js';
import { RESOLVED_TOPIC_PREFIX, visibleTopicMessages, type MoveRequest } from './message-move.js';
import { postNotice, type NoticeContext } from './notifications.js';
import { findNotificationBot } from './system-bots.js';
import type { Emit } from './transaction.js';
import { setTopicPolicyInTx } from './user-topics.js';
import { VISIBILITY_POLICY } from '../state/user-topics.js';

const { inherit: INHERIT, muted: MUTED, unmuted: UNMUTED, followed: FOLLOWED } = VISIBILITY_POLICY;

// An unresolve this soon after a resolve (or the reverse) deletes the first notice instead of adding a second
// (the reference's RESOLVE_TOPIC_UNDO_GRACE_PERIOD_SECONDS).
export const RESOLVE_UNDO_GRACE_SECONDS = 60;
const RESOLVE_NOTICE = /^@_\*\*.*\|\d+\*\* has marked this topic as (un)?resolved\.$/;

export interface MoveDone {
  move: MoveRequest;
  viewer: Viewer;
  changedIds: number[];
  targetHadMessages: boolean; // before the move
  now: number;
}

// Whether the mover took every message of the old topic they can see: then it is the topic that moved.
export async function movedWholeTopic(tx: Tx, realm: Realm, d: MoveDone): Promise<boolean> {
  if (d.move.propagateMode === 'change_all') return true;
  return (await visibleTopicMessages(tx, realm, d.viewer, d.move.origStream, d.move.origTopic)).length === 0;
}

// Of two policies, the one that shows more (followed > unmuted > inherit > muted).
const merged = (a: number, b: number) => [FOLLOWED, UNMUTED, INHERIT, MUTED].find((p) => p === a || p === b)!;

// Followed, unmuted and muted settings move with a whole topic; where the destination already had messages they
// merge with its own settings. Users who cannot read the destination channel lose their setting.
export async function moveTopicSettings(tx: Tx, emit: Emit, realm: Realm, d: MoveDone): Promise<void> {
  const { origStream, targetStream, origTopic, targetTopic } = d.move;
  if (origStream.id === targetStream.id && topicKey(origTopic) === topicKey(targetTopic)) return;
  const orig = await topicPolicies(tx, origStream.id, origTopic);
  const target = await topicPolicies(tx, targetStream.id, targetTopic);
  const set = (userId: number, s: Stream, topic: string, policy: number, legacyEvent = true) =>
    setTopicPolicyInTx(tx, emit, realm.id, userId, s, topic, policy, d.now, legacyEvent);
  const readers = d.move.streamEdited ? await channelReaders(tx, realm.id, targetStream) : null;
  for (const userId of [...orig.keys()]) {
    if (!readers || (await readers.canRead(userId))) continue;
    orig.delete(userId);
    await set(userId, origStream, origTopic, INHERIT);
  }
  for (const userId of new Set([...orig.keys(), ...target.keys()])) {
    const from = orig.get(userId) ?? INHERIT;
    const to = target.get(userId) ?? INHERIT;
    const next = d.targetHadMessages ? merged(from, to) : from;
    // The muted-topics list is sent once, with the second change when there is one.
    if (from !== INHERIT) await set(userId, origStream, origTopic, INHERIT, next === to);
    if (next !== to) await set(userId, targetStream, targetTopic, next);
  }
}

// Deletes the notice of the opposite action when it is still the topic's last message and recent.
async function undoRecentResolveNotice(ctx: NoticeContext, stream: Stream, topic: string, now: number): Promise<boolean> {
  const last = (await topicMessages(ctx.tx, stream.id, topic)).at(-1);
  if (!last || now - last.dateSent > RESOLVE_UNDO_GRACE_SECONDS) return false;
  const bot = await findNotificationBot(ctx.tx, ctx.realm);
  const [message] = await findMessages(ctx.tx, ctx.realm.id, [last.id]);
  if (!bot || message.senderId !== bot.id || !RESOLVE_NOTICE.test(message.content)) return false;
  const audience = await messageAudience(ctx.tx, ctx.realm.id, stream, [message.id], message.id);
  await deleteMessages(ctx.tx, [message.id]);
  emitDeletion(ctx.emit, ctx.realm.id, [message.id], { stream, topic: message.topic }, [...audience.keys()]);
  await refreshFirstMessageId(ctx.tx, ctx.emit, ctx.realm, stream);
  return true;
}

// "has marked this topic as (un)resolved", unread only for subscribers whose resolved_topic_notice_auto_read_policy
// asks for it (never, or except_followed for a topic they follow). Returns the notice's id, if one was posted.
export async function postResolveNotice(ctx: NoticeContext, actor: User, d: MoveDone): Promise<number | null> {
  const { origStream: stream, targetTopic: topic } = d.move;
  if (await undoRecentResolveNotice(ctx, stream, topic, d.now)) return null;
  const followers = new Set([...(await topicPolicies(ctx.tx, stream.id, topic))].filter(([, p]) => p === FOLLOWED).map(([id]) => id));
  const subscribers = await findUsers(ctx.tx, ctx.realm.id, (await subscriberIds(ctx.tx, [stream.id])).get(stream.id)!);
  const unread = new Set(
    subscribers
      .filter((u) => {
        const policy: string = userSettings(u).resolved_topic_notice_auto_read_policy;
        return u.isActive && !u.isBot && (policy === 'never' || (policy === 'except_followed' && followers.has(u.id)));
      })
      .map((u) => u.id),
  );
  const what = topic.startsWith(RESOLVED_TOPIC_PREFIX) ? 'resolved' : 'unresolved';
  return postNotice(ctx, { channel: stream, topic }, `${silentMention(actor)} has marked this topic as ${what}.`, (id) => id === actor.id || !unread.has(id));
}

// The breadcrumbs, as asked by send_notification_to_new_thread / _old_thread. A resolve or unresolve alone
// gets none in the new topic.
export async function postMoveBreadcrumbs(
  ctx: NoticeContext, actor: User, d: MoveDone, opts: { toOld: boolean; toNew: boolean; movedAll: boolean; resolveNoticeId: number | null },
): Promise<void> {
  const { move } = d;
  const count = d.changedIds.length;
  const user = silentMention(actor);
  const readByActor = (id: number) => id === actor.id;
  if (opts.toNew && (move.streamEdited || (move.topicEdited && !move.resolveToggle))) {
    const oldLink = topicLinkSyntax(move.origStream.id, move.origStream.name, move.origTopic);
    // Judged by what the mover can see, so that the notice reveals nothing of a history hidden from them.
    const moved = new Set([...d.changedIds, opts.resolveNoticeId]);
    const preexisting = (await visibleTopicMessages(ctx.tx, ctx.realm, d.viewer, move.targetStream, move.targetTopic)).some((m) => !moved.has(m.id));
    let text: string;
    if (!preexisting && opts.movedAll) text = `This topic was moved here from ${oldLink} by ${user}.`;
    else if (count === 1) {
      const link = messageUrl(ctx.realmUrl, move.targetStream.id, move.targetStream.name, move.targetTopic, move.message.id);
      text = `[A message](${link}) was moved here from ${oldLink} by ${user}.`;
    } else text = `${count} messages were moved here from ${oldLink} by ${user}.`;
    await postNotice(ctx, { channel: move.targetStream, topic: move.targetTopic }, text, readByActor);
  }
  if (opts.toOld) {
    const newLink = topicLinkSyntax(move.targetStream.id, move.targetStream.name, move.targetTopic);
    const text = opts.movedAll
      ? `This topic was moved to ${newLink} by ${user}.`
      : count === 1
        ? `A message was moved from this topic to ${newLink} by ${user}.`
        : `${count} messages were moved from this topic to ${newLink} by ${user}.`;
    await postNotice(ctx, { channel: move.origStream, topic: move.origTopic }, text, readByActor);
  }
}
