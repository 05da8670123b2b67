// PATCH /messages/{message_id}: editing a message's content, and moving it (with others of its topic) to
// another topic or channel, with the edit history, flags, rows and events that follow.
import crypto from 'node:crypto';
import type { App } from '../app.js';
import { ApiError, InvalidArgumentError } from '../lib/errors.js';
import { renderMessage } from '../markdown/message.js';
import { inGroupSetting, type Viewer } from '../permissions/channels.js';
import { realmSettings } from '../state/realm.js';
import { EMPTY_TOPIC_DISPLAY_NAME } from '../state/realm-data.js';
import type { Tx } from '../store/db.js';
import { groupsOfUser, systemGroupIds } from '../store/groups.js';
import { applyMessageChange, lockMessage, messageRows, setRowFlags, stillInTopic, type NewContent } from '../store/message-edits.js';
import { FLAG_BITS, streamRecipient, topicExists, topicSenderIds, type Message } from '../store/messages.js';
import type { Realm } from '../store/realms.js';
import type { Stream } from '../store/streams.js';
import { subscriberIds } from '../store/subscriptions.js';
import type { User } from '../store/users.js';
import { realmGroupValue } from './channels.js';
import { topicLinker } from './linkifiers.js';
import { accessMessage } from './message-access.js';
import { byFlags, channelReaders, emitDeletion, messageAudience, refreshFirstMessageId, type Audience } from './message-audience.js';
import { accessTargetChannel, checkMove, EDIT_LIMIT_BUFFER, isResolveToggle, moveRows, propagatedIds, RESOLVED_TOPIC_PREFIX, type MoveRequest } from './message-move.js';
import { checkContent, checkGroupMentions, checkTopic, renderContext, WILDCARD_MENTION_THRESHOLD } from './messages-send.js';
import { doEmbedLinks } from './link-embeds.js';
import { inTransaction, type Emit } from './transaction.js';
import { movedWholeTopic, moveTopicSettings, postMoveBreadcrumbs, postResolveNotice, type MoveDone } from './message-move-notices.js';
import { syncAttachmentClaims } from './attachment-claims.js';

export const PROPAGATE_MODES = ['change_one', 'change_later', 'change_all'];
// Messages moved per transaction: each batch's rows (deleted for those who lose access, added for a channel with
// protected history) are a few hundred thousand at most in a channel of 1,000.
const MOVE_BATCH = 100;

export interface EditInput {
  content?: string;
  topic?: string;
  streamId?: number;
  propagateMode: string;
  sendNotificationToOldThread: boolean;
  sendNotificationToNewThread: boolean;
  // The SHA-256 (hex) of the content the client edited: the edit is refused if the message changed since.
  prevContentSha256?: string;
}

// Only the sender edits content, while the organization allows editing, within its time limit.
export function checkCanEditContent(realm: Realm, user: User, message: Message, buffer: number, now: number): void {
  const settings = realmSettings(realm);
  if (!settings.allow_message_editing) throw new ApiError('Your organization has turned off message editing');
  if (message.senderId !== user.id) throw new ApiError("You don't have permission to edit this message");
  const limit = settings.message_content_edit_limit_seconds;
  if (limit !== null && now - message.dateSent > limit + buffer) throw new ApiError('The time limit for editing this message has past');
}

interface ContentEdit {
  content: NewContent;
  mentioned: Set<number>;
  streamWildcard: boolean;
  topicParticipants: Set<number>;
  linksForPreview: string[];
}

// `topic` is where the message will be: a topic wildcard mention reaches that topic's participants.
async function renderEdit(tx: Tx, realm: Realm, v: Viewer, message: Message, stream: Stream | null, raw: string, topic: string, realmUrl: string): Promise<ContentEdit> {
  const content = checkContent(raw.trimEnd() === '' ? '(deleted)' : raw);
  const rendered = renderMessage(content, await renderContext(tx, realm, content, v.user, v, realmUrl));
  const systemGroups = await systemGroupIds(tx, realm.id);
  const mayMentionMany = inGroupSetting(v, realmGroupValue(realm, 'can_mention_many_users_group', systemGroups));
  if (rendered.streamWildcard && stream && ((await subscriberIds(tx, [stream.id])).get(stream.id)?.length ?? 0) > WILDCARD_MENTION_THRESHOLD && !mayMentionMany) {
    throw new ApiError('You do not have permission to use channel wildcard mentions in this channel.', 'STREAM_WILDCARD_MENTION_NOT_ALLOWED');
  }
  const topicParticipants = rendered.topicWildcard && stream ? (await topicSenderIds(tx, stream.id, topic)).add(message.senderId) : new Set<number>();
  if (topicParticipants.size > WILDCARD_MENTION_THRESHOLD && !mayMentionMany) {
    throw new ApiError('You do not have permission to use topic wildcard mentions in this topic.', 'TOPIC_WILDCARD_MENTION_NOT_ALLOWED');
  }
  const groupMentioned = await checkGroupMentions(tx, realm, v, rendered.mentionedGroupIds, systemGroups);
  return {
    content: {
      content, renderedContent: rendered.html, hasLink: rendered.hasLink, hasImage: rendered.hasImage,
      hasAttachment: /\/user_uploads\//.test(content), isMeMessage: rendered.isMeMessage,
    },
    mentioned: new Set([...rendered.mentionedUserIds, ...groupMentioned]),
    streamWildcard: rendered.streamWildcard,
    topicParticipants,
    linksForPreview: rendered.linksForPreview,
  };
}

const MENTION_BITS = FLAG_BITS.mentioned | FLAG_BITS.stream_wildcard_mentioned | FLAG_BITS.topic_wildcard_mentioned;

// Mention flags follow the new content on every row of the message.
async function updateMentionFlags(tx: Tx, messageId: number, edit: ContentEdit): Promise<void> {
  const changed = (await messageRows(tx, [messageId])).flatMap((r) => {
    const flags = (r.flags & ~MENTION_BITS) |
      (edit.mentioned.has(r.userId) ? FLAG_BITS.mentioned : 0) |
      (edit.streamWildcard ? FLAG_BITS.stream_wildcard_mentioned : 0) |
      (edit.topicParticipants.has(r.userId) ? FLAG_BITS.topic_wildcard_mentioned : 0);
    return flags === r.flags ? [] : [{ userId: r.userId, flags }];
  });
  await setRowFlags(tx, messageId, changed);
}

// Locked with the message, so that of two clients editing the same version only the first succeeds.
function checkPrevContent(content: string, expected: string | undefined): void {
  if (expected === undefined) return;
  if (crypto.createHash('sha256').update(content, 'utf8').digest('hex') !== expected.trim().toLowerCase()) {
    throw new ApiError("'prev_content_sha256' value does not match the expected value.", 'EXPECTATION_MISMATCH', 400, { param_name: 'prev_content_sha256' });
  }
}

// What an edit request comes to, checked: the message, the move (if it moves), the new content (if any) and the
// other messages the move takes along.
interface PreparedEdit {
  message: Message;
  stream: Stream | null;
  v: Viewer;
  now: number;
  move: MoveRequest | null;
  moved: boolean;
  edit: ContentEdit | null;
  others: number[];
}

async function prepareEdit(tx: Tx, realm: Realm, user: User, messageId: number, input: EditInput, realmUrl: string): Promise<PreparedEdit> {
  await lockMessage(tx, messageId);
  const { message, stream } = await accessMessage(tx, realm, user, messageId, { modifying: true });
  const v: Viewer = { user, groups: await groupsOfUser(tx, user.id) };
  const now = Math.floor(Date.now() / 1000);
  if (input.content !== undefined) checkCanEditContent(realm, user, message, EDIT_LIMIT_BUFFER, now);
  checkPrevContent(message.content, input.prevContentSha256);

  // The requested topic before truncation, which resolving compares against; unchanged means none.
  let rawTopic = input.topic?.trim();
  if (rawTopic === EMPTY_TOPIC_DISPLAY_NAME) rawTopic = '';
  let topic = input.topic === undefined ? undefined : checkTopic(input.topic);
  if (topic === message.topic) topic = rawTopic = undefined;
  const streamId = input.streamId === message.streamId ? undefined : input.streamId;
  if (topic === undefined && input.content === undefined && streamId === undefined) throw new ApiError('Nothing to change');
  if (!stream) {
    if (streamId !== undefined) throw new ApiError('Direct messages cannot be moved to channels.');
    if (topic !== undefined) throw new ApiError('Direct messages cannot have topics.');
  }
  if (input.propagateMode !== 'change_one' && topic === undefined && streamId === undefined) throw new ApiError('Invalid propagate_mode without topic edit');
  if (rawTopic === RESOLVED_TOPIC_PREFIX.trim() || rawTopic === RESOLVED_TOPIC_PREFIX + EMPTY_TOPIC_DISPLAY_NAME) {
    throw new ApiError('General chat cannot be marked as resolved');
  }
  if (streamId !== undefined && input.content !== undefined) throw new ApiError('Cannot change message content while changing channel');

  let move: MoveRequest | null = null;
  if (stream) {
    const targetStream = streamId === undefined ? stream : await accessTargetChannel(tx, realm, v, streamId);
    const targetTopic = topic ?? message.topic;
    const policy = targetStream.topicsPolicy === 'inherit' ? String(realmSettings(realm).topics_policy) : targetStream.topicsPolicy;
    if (targetTopic === '' && (topic !== undefined || streamId !== undefined) && policy === 'disable_empty_topic') {
      throw new ApiError('Sending messages to the general chat is not allowed in this channel.');
    }
    if (policy === 'empty_topic_only' && targetTopic !== '') throw new ApiError('Only the general chat topic is allowed in this channel.');
    move = {
      message, origStream: stream, targetStream, origTopic: message.topic, targetTopic,
      topicEdited: topic !== undefined, streamEdited: streamId !== undefined,
      resolveToggle: topic !== undefined && isResolveToggle(message.topic, topic, rawTopic!), propagateMode: input.propagateMode,
    };
  }
  const edit = input.content === undefined ? null : await renderEdit(tx, realm, v, message, stream, input.content, topic ?? message.topic, realmUrl);
  const moved = move !== null && (move.topicEdited || move.streamEdited);
  if (moved) await checkMove(tx, realm, v, move!, await systemGroupIds(tx, realm.id), now);
  const others = moved ? await propagatedIds(tx, realm, v, move!) : [];
  return { message, stream, v, now, move, moved, edit, others };
}

export async function doUpdateMessage(app: App, realm: Realm, user: User, messageId: number, input: EditInput, realmUrl: string): Promise<{ detached_uploads: unknown[] }> {
  if (!PROPAGATE_MODES.includes(input.propagateMode)) throw new InvalidArgumentError('propagate_mode', 'Invalid propagate_mode');
  // A large move goes in batches, each a transaction of its own between which other requests run; the last
  // batch moves the edited message and what is left, and posts the notices, exactly as a small move does.
  let movedBefore: number[] = [];
  if (input.propagateMode !== 'change_one' && (input.topic !== undefined || input.streamId !== undefined)) {
    const plan = await inTransaction(app, (tx) => prepareEdit(tx, realm, user, messageId, input, realmUrl));
    if (plan.moved && plan.others.length > MOVE_BATCH) movedBefore = await moveInBatches(app, realm, user, plan, plan.others.slice(0, -MOVE_BATCH));
  }
  let embedLinks: string[] = [];
  const result = await inTransaction(app, async (tx, emit) => {
    const p = await prepareEdit(tx, realm, user, messageId, input, realmUrl);
    embedLinks = p.edit?.linksForPreview ?? [];
    return applyEdit(tx, emit, realm, user, p, input, realmUrl, movedBefore);
  });
  // Embeds of the links the new content has are fetched after the edit, as after a send.
  if (embedLinks.length) {
    const viewer: Viewer = { user, groups: await groupsOfUser(app.db, user.id) };
    const contextFor = (tx: Tx, content: string) => renderContext(tx, realm, content, user, viewer, realmUrl);
    doEmbedLinks(app, realm, messageId, embedLinks, contextFor).catch((err) => app.log.warn({ err }, 'link embeds failed'));
  }
  return result;
}

// The history entry of a move (and its fields on the update_message event).
function moveEntry(user: User, move: MoveRequest | null, now: number): Record<string, unknown> {
  const entry: Record<string, unknown> = { user_id: user.id, timestamp: now };
  if (move?.topicEdited) Object.assign(entry, { prev_topic: move.origTopic, topic: move.targetTopic });
  if (move?.streamEdited) Object.assign(entry, { prev_stream: move.origStream.id, stream: move.targetStream.id });
  return entry;
}

async function moveEvent(tx: Tx, realm: Realm, user: User, p: PreparedEdit, messageIds: number[]): Promise<Record<string, unknown>> {
  const { move, stream } = p;
  const event: Record<string, unknown> = { type: 'update_message', user_id: user.id, edit_timestamp: p.now, message_id: p.message.id, message_ids: messageIds, rendering_only: false };
  if (stream) Object.assign(event, { stream_name: stream.name, stream_id: stream.id });
  if (p.moved) event.propagate_mode = move!.propagateMode;
  if (move?.streamEdited) Object.assign(event, { new_stream_id: move.targetStream.id, orig_subject: move.origTopic });
  if (move?.topicEdited) Object.assign(event, { orig_subject: move.origTopic, subject: move.targetTopic, topic_links: (await topicLinker(tx, realm.id))(move.targetTopic) });
  return event;
}

// Who hears of a move: as the reference computes it, from the edited message's rows and the channels' readers.
async function moveAudience(tx: Tx, realm: Realm, p: PreparedEdit, lost: number[]): Promise<Audience> {
  const audience = await messageAudience(tx, realm.id, p.move?.targetStream ?? p.stream, [p.message.id], p.message.id);
  if (p.move?.streamEdited && p.move.origStream.historyPublicToSubscribers) await addFormerReaders(tx, realm, p.move, audience, lost);
  return audience;
}

// Moves these messages (still where the move takes them from) with their rows, and tells those who see them.
async function moveMessages(tx: Tx, emit: Emit, realm: Realm, user: User, p: PreparedEdit, ids: number[], lastMovedTime: number | undefined) {
  const move = p.move!;
  const lost = move.streamEdited ? await moveRows(tx, realm, move.targetStream, ids) : [];
  if (lost.length) emitDeletion(emit, realm.id, ids, { stream: move.origStream, topic: move.origTopic }, lost);
  const location = { recipientId: await streamRecipient(tx, realm.id, move.targetStream.id), streamId: move.targetStream.id, topic: move.targetTopic };
  const entry = moveEntry(user, move, p.now);
  await applyMessageChange(tx, ids, { location, lastMovedTime }, () => entry);
  return lost;
}

// All but the last batch of a large move, each batch in a transaction of its own with its own events. Messages
// that left the topic meanwhile are not taken along. Returns the ids moved.
async function moveInBatches(app: App, realm: Realm, user: User, p: PreparedEdit, ids: number[]): Promise<number[]> {
  const move = p.move!;
  const lastMovedTime = move.streamEdited || !move.resolveToggle ? p.now : undefined;
  const done: number[] = [];
  for (let i = 0; i < ids.length; i += MOVE_BATCH) {
    await inTransaction(app, async (tx, emit) => {
      const batch = await stillInTopic(tx, move.origStream.id, move.origTopic, ids.slice(i, i + MOVE_BATCH));
      if (!batch.length) return;
      const lost = await moveMessages(tx, emit, realm, user, p, batch, lastMovedTime);
      const event = await moveEvent(tx, realm, user, p, batch);
      for (const g of byFlags(await moveAudience(tx, realm, p, lost))) emit(realm.id, { ...event, flags: g.flags }, g.userIds);
      for (const id of batch) done.push(id);
    });
  }
  return done;
}

async function applyEdit(tx: Tx, emit: Emit, realm: Realm, user: User, p: PreparedEdit, input: EditInput, realmUrl: string, movedBefore: number[]) {
  const { message, stream, move, moved, edit, now, v, others } = p;
  const messageId = message.id;
  const changedIds = [messageId, ...others].sort((a, b) => a - b);
  const targetHadMessages = moved && (await topicExists(tx, move!.targetStream.id, move!.targetTopic));
  // A resolve or unresolve is recorded in the history but is not a move for last_moved_timestamp.
  const lastMovedTime = moved && (move!.streamEdited || !move!.resolveToggle) ? now : undefined;
  const entry = moveEntry(user, move, now);
  const lost = moved && move!.streamEdited ? await moveRows(tx, realm, move!.targetStream, changedIds) : [];
  if (lost.length) emitDeletion(emit, realm.id, changedIds, { stream: move!.origStream, topic: move!.origTopic }, lost);
  const location = moved ? { recipientId: await streamRecipient(tx, realm.id, move!.targetStream.id), streamId: move!.targetStream.id, topic: move!.targetTopic } : undefined;
  const targetEntry = edit ? { ...entry, prev_content: message.content, prev_rendered_content: message.renderedContent } : entry;
  await applyMessageChange(tx, [messageId], { content: edit?.content, location, lastEditTime: edit ? now : undefined, lastMovedTime }, () => targetEntry);
  if (others.length) await applyMessageChange(tx, others, { location, lastMovedTime }, () => entry);
  if (edit) await updateMentionFlags(tx, messageId, edit);
  const detachedUploads = edit ? await syncAttachmentClaims(tx, emit, realm, user, message, edit.content.content) : [];

  const event = await moveEvent(tx, realm, user, p, changedIds);
  if (edit) {
    Object.assign(event, {
      orig_content: message.content, orig_rendered_content: message.renderedContent,
      content: edit.content.content, rendered_content: edit.content.renderedContent, is_me_message: edit.content.isMeMessage,
    });
  }
  const audience = await moveAudience(tx, realm, p, lost);
  const done: MoveDone | null = moved ? { move: move!, viewer: v, changedIds: [...movedBefore, ...changedIds], targetHadMessages, now } : null;
  const movedAll = done !== null && (await movedWholeTopic(tx, realm, done));
  // Topic settings move first, so that clients have them when they learn of the move.
  if (movedAll) await moveTopicSettings(tx, emit, realm, done!);
  for (const g of byFlags(audience)) emit(realm.id, { ...event, flags: g.flags }, g.userIds);

  if (move?.streamEdited) {
    await refreshFirstMessageId(tx, emit, realm, move.origStream);
    await refreshFirstMessageId(tx, emit, realm, move.targetStream);
  }
  if (done) {
    const ctx = { tx, emit, realm, realmUrl };
    const resolveNoticeId = done.move.resolveToggle && !edit && !done.move.streamEdited ? await postResolveNotice(ctx, user, done) : null;
    await postMoveBreadcrumbs(ctx, user, done, { toOld: input.sendNotificationToOldThread, toNew: input.sendNotificationToNewThread, movedAll, resolveNoticeId });
  }
  return { detached_uploads: detachedUploads };
}

// Subscribers of the old channel who can still read the messages in the new one follow them there: their
// clients showed the old location and must learn of the move, as with the reference server.
async function addFormerReaders(tx: Tx, realm: Realm, move: MoveRequest, audience: Audience, lost: number[]): Promise<void> {
  const old = await channelReaders(tx, realm.id, move.origStream);
  const target = await channelReaders(tx, realm.id, move.targetStream);
  const gone = new Set(lost);
  for (const id of old.subscribers) {
    if (audience.has(id) || gone.has(id)) continue;
    if (move.targetStream.historyPublicToSubscribers && (await target.canRead(id))) audience.set(id, ['read']);
  }
}
