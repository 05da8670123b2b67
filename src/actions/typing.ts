// Typing notifications (POST /typing) and message-edit typing notifications (POST /messages/{id}/typing).
// Nothing is stored; the events go through the event log like any other.
import type { App } from '../app.js';
import { ApiError } from '../lib/errors.js';
import { hasContentAccess, inGroupSetting, isGuest, type Viewer } from '../permissions/channels.js';
import { userSettings } from '../state/user-settings.js';
import { EMPTY_TOPIC_DISPLAY_NAME } from '../state/realm-data.js';
import type { Db } from '../store/db.js';
import { groupsOfUser } from '../store/groups.js';
import { dmMembers } from '../store/messages.js';
import type { Realm } from '../store/realms.js';
import { findStream, type Stream } from '../store/streams.js';
import { findSubscription, hasMoreSubscribersThan, subscriberIds } from '../store/subscriptions.js';
import { findUsers, type User } from '../store/users.js';
import { accessMessage } from './message-access.js';
import { checkCanEditContent } from './message-edit.js';
import { inTransaction } from './transaction.js';
import { checkRecipientsAccessible } from './users.js';
import { blindAmong } from '../permissions/users.js';
import { mutersOf } from '../store/muted-users.js';

export type TypingOp = 'start' | 'stop';

export interface TypingInput {
  op: TypingOp;
  type: 'direct' | 'stream' | 'channel';
  to?: number[];
  streamId?: number;
  topic?: string;
}

const wantsTyping = (u: User) => u.isActive && userSettings(u).receives_typing_notifications;

function emitNow(app: App, realmId: number, event: Record<string, unknown>, userIds: number[]): Promise<void> {
  if (!userIds.length) return Promise.resolve();
  return inTransaction(app, async (_tx, emit) => emit(realmId, event, userIds));
}

// Guests who may not access the typist (one posting to a public channel unsubscribed) are not told. Channels
// with more active subscribers than the server's limit (the reference's MAX_STREAM_SIZE_FOR_TYPING_NOTIFICATIONS)
// get no typing events; that is told by counting at most limit + 1 rows, so typing in a channel of 50,000 costs
// what it costs in a small one.
async function channelTypingAudience(app: App, realm: Realm, typist: User, streamId: number): Promise<number[]> {
  const db = app.db;
  if (await hasMoreSubscribersThan(db, streamId, app.config.maxChannelSizeForTyping)) return [];
  const subs = (await subscriberIds(db, [streamId])).get(streamId) ?? [];
  const blind = await blindAmong(db, realm, typist, subs);
  const muters = await mutersOf(db, realm.id, typist.id);
  return (await findUsers(db, realm.id, subs)).filter((u) => wantsTyping(u) && !blind.has(u.id) && !muters.has(u.id)).map((u) => u.id);
}

// The channel must be one the user could post to, as for sending.
async function accessChannelForTyping(db: Db, realm: Realm, user: User, streamId: number): Promise<Stream> {
  const stream = await findStream(db, realm.id, streamId);
  const sub = stream && (await findSubscription(db, user.id, stream.id));
  const v: Viewer = { user, groups: await groupsOfUser(db, user.id) };
  if (!stream || stream.isArchived || !hasContentAccess(v, stream, sub)) throw new ApiError('Invalid channel ID');
  if (!(sub?.active || (!stream.inviteOnly && !isGuest(user)))) throw new ApiError(`Not authorized to send to channel '${stream.name}'`);
  if (!inGroupSetting(v, stream.groups.can_send_message_group)) throw new ApiError('You do not have permission to post in this channel.');
  return stream;
}

export async function doSendTyping(app: App, realm: Realm, user: User, input: TypingInput): Promise<void> {
  const settings = userSettings(user);
  const sender = { user_id: user.id, email: user.email };
  if (input.type === 'stream' || input.type === 'channel') {
    if (input.streamId === undefined) throw new ApiError("Missing 'stream_id' argument");
    if (input.topic === undefined) throw new ApiError('Missing topic');
    if (!settings.send_stream_typing_notifications) throw new ApiError('User has disabled typing notifications for channel messages');
    const stream = await accessChannelForTyping(app.db, realm, user, input.streamId);
    let topic = input.topic.trim();
    if (topic === EMPTY_TOPIC_DISPLAY_NAME || topic === '(no topic)') topic = '';
    const event = { type: 'typing', message_type: 'stream', op: input.op, sender, stream_id: stream.id, topic };
    return emitNow(app, realm.id, event, await channelTypingAudience(app, realm, user, stream.id));
  }
  if (input.to === undefined) throw new ApiError("Missing 'to' argument");
  if (!input.to.length) throw new ApiError("Empty 'to' list");
  if (!settings.send_private_typing_notifications) throw new ApiError('User has disabled typing notifications for direct messages');
  // The sender is one of the recipients, as in the reference server, so their other clients hear of it too.
  const ids = [...new Set([...input.to, user.id])];
  const byId = new Map((await findUsers(app.db, realm.id, ids)).map((u) => [u.id, u]));
  for (const id of ids) if (!byId.has(id)) throw new ApiError(`Invalid user ID ${id}`);
  const recipients = ids.map((id) => byId.get(id)!);
  await checkRecipientsAccessible(app.db, realm, user, recipients);
  const event = { type: 'typing', message_type: 'direct', op: input.op, sender, recipients: recipients.map((u) => ({ user_id: u.id, email: u.email })) };
  // Those who muted the typist are not told, as on the reference server.
  const muters = await mutersOf(app.db, realm.id, user.id);
  return emitNow(app, realm.id, event, recipients.filter((u) => wantsTyping(u) && !muters.has(u.id)).map((u) => u.id));
}

export async function doSendEditTyping(app: App, realm: Realm, user: User, messageId: number, op: TypingOp): Promise<void> {
  const { message, stream } = await accessMessage(app.db, realm, user, messageId, { modifying: true });
  checkCanEditContent(realm, user, message, 0, Math.floor(Date.now() / 1000));
  const settings = userSettings(user);
  const base = { type: 'typing_edit_message', op, sender_id: user.id, message_id: messageId };
  if (stream) {
    if (!settings.send_stream_typing_notifications) throw new ApiError('User has disabled typing notifications for channel messages');
    const event = { ...base, recipient: { type: 'channel', channel_id: stream.id, topic: message.topic } };
    return emitNow(app, realm.id, event, await channelTypingAudience(app, realm, user, stream.id));
  }
  if (!settings.send_private_typing_notifications) throw new ApiError('User has disabled typing notifications for direct messages');
  const members = (await dmMembers(app.db, [message.recipientId])).get(message.recipientId) ?? [user.id];
  const ids = [user.id, ...members.filter((id) => id !== user.id)];
  const muters = await mutersOf(app.db, realm.id, user.id);
  const notified = (await findUsers(app.db, realm.id, ids)).filter((u) => wantsTyping(u) && !muters.has(u.id)).map((u) => u.id);
  return emitNow(app, realm.id, { ...base, recipient: { type: 'direct', user_ids: notified } }, notified);
}
