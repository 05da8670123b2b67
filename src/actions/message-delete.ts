// DELETE /messages/{message_id}: permanently deleting a message, under the organization's and the channel's
// deletion settings.
import type { App } from '../app.js';
import { ApiError } from '../lib/errors.js';
import { inGroupSetting, type Viewer } from '../permissions/channels.js';
import { realmSettings } from '../state/realm.js';
import type { Tx } from '../store/db.js';
import { groupsOfUser, systemGroupIds } from '../store/groups.js';
import { deleteMessages, lockMessage } from '../store/message-edits.js';
import type { Message } from '../store/messages.js';
import type { Realm } from '../store/realms.js';
import type { Stream } from '../store/streams.js';
import { findUser, type User } from '../store/users.js';
import { holdsRealmSetting } from './channels.js';
import { accessMessage } from './message-access.js';
import { emitDeletion, messageAudience, refreshFirstMessageId } from './message-audience.js';
import { inTransaction } from './transaction.js';
import { releaseAttachmentClaims } from './attachment-claims.js';

const NO_PERMISSION = "You don't have permission to delete this message";

// Anyone in a can_delete_any_message_group deletes any message at any time; otherwise one's own messages (or
// one's bots'), with can_delete_own_message_group of the organization or the channel, within the time limit.
async function checkCanDelete(tx: Tx, realm: Realm, v: Viewer, message: Message, stream: Stream | null): Promise<void> {
  const systemGroups = await systemGroupIds(tx, realm.id);
  if (holdsRealmSetting(v, realm, 'can_delete_any_message_group', systemGroups)) return;
  if (stream && inGroupSetting(v, stream.groups.can_delete_any_message_group)) return;
  const sender = message.senderId === v.user.id ? v.user : await findUser(tx, realm.id, message.senderId);
  if (sender?.id !== v.user.id && sender?.botOwnerId !== v.user.id) throw new ApiError(NO_PERMISSION);
  if (!holdsRealmSetting(v, realm, 'can_delete_own_message_group', systemGroups)) {
    if (!stream || !inGroupSetting(v, stream.groups.can_delete_own_message_group)) throw new ApiError(NO_PERMISSION);
  }
  const limit = realmSettings(realm).message_content_delete_limit_seconds;
  if (limit !== null && Math.floor(Date.now() / 1000) - message.dateSent > limit) {
    throw new ApiError('The time limit for deleting this message has passed');
  }
}

export async function doDeleteMessage(app: App, realm: Realm, user: User, messageId: number): Promise<void> {
  await inTransaction(app, async (tx, emit) => {
    await lockMessage(tx, messageId);
    const { message, stream } = await accessMessage(tx, realm, user, messageId, { modifying: true });
    await checkCanDelete(tx, realm, { user, groups: await groupsOfUser(tx, user.id) }, message, stream);
    const audience = await messageAudience(tx, realm.id, stream, [messageId], messageId);
    await releaseAttachmentClaims(tx, emit, realm, [message]);
    await deleteMessages(tx, [messageId]);
    // The deleter is told even when the audience leaves them out (an administrator who neither subscribes to the
    // channel nor holds a row), as on the reference server.
    emitDeletion(emit, realm.id, [messageId], stream && { stream, topic: message.topic }, [...new Set([...audience.keys(), user.id])]);
    if (stream) await refreshFirstMessageId(tx, emit, realm, stream);
  });
}
