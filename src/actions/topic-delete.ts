// POST /streams/{stream_id}/delete_topic: every message of a topic the caller may access, deleted as the
// reference server deletes it — newest first, in batches of 100, each its own transaction — for at most
// PARLANCE_DELETE_TOPIC_SECONDS (50, the reference's budget) before answering `complete: false`, which clients
// answer by asking again. Each request deletes at least one batch, so that repeated requests always progress.
import type { App } from '../app.js';
import { ApiError } from '../lib/errors.js';
import { hasContentAccess, inGroupSetting } from '../permissions/channels.js';
import { EMPTY_TOPIC_DISPLAY_NAME } from '../state/realm-data.js';
import { systemGroupIds } from '../store/groups.js';
import { deleteMessages } from '../store/message-edits.js';
import { findMessages, topicKey } from '../store/messages.js';
import type { Realm } from '../store/realms.js';
import { findStream } from '../store/streams.js';
import { newestTopicMessageIds } from '../store/topic-delete.js';
import type { User } from '../store/users.js';
import { releaseAttachmentClaims } from './attachment-claims.js';
import { accessChannelById, holdsRealmSetting, viewerOf } from './channels.js';
import { emitDeletion, messageAudience, refreshFirstMessageId } from './message-audience.js';
import { inTransaction } from './transaction.js';
import { OrganizationAdministratorRequired } from './users.js';

// The reference's RETENTION_STREAM_MESSAGE_BATCH_SIZE.
export const DELETE_TOPIC_BATCH = 100;

export async function doDeleteTopic(app: App, realm: Realm, user: User, streamId: number, topicName: string): Promise<{ complete: boolean }> {
  const viewer = await viewerOf(app.db, user);
  const { stream, sub } = await accessChannelById(app.db, realm, viewer, streamId);
  if (!hasContentAccess(viewer, stream, sub) || stream.isArchived) throw new ApiError('Invalid channel ID');
  const systemGroups = await systemGroupIds(app.db, realm.id);
  if (!holdsRealmSetting(viewer, realm, 'can_delete_any_message_group', systemGroups) && !inGroupSetting(viewer, stream.groups.can_delete_any_message_group)) {
    throw new OrganizationAdministratorRequired();
  }
  const key = topicKey(topicName === EMPTY_TOPIC_DISPLAY_NAME || topicName === '(no topic)' ? '' : topicName);
  // With protected history, only the messages the caller received.
  const holder = stream.historyPublicToSubscribers ? null : user.id;
  const deadline = Date.now() + app.config.deleteTopicBudgetSeconds * 1000;
  for (let first = true; ; first = false) {
    if (!first && Date.now() >= deadline) return { complete: false };
    const done = await inTransaction(app, async (tx, emit) => {
      const ids = await newestTopicMessageIds(tx, stream.id, key, holder, DELETE_TOPIC_BATCH);
      if (ids.length) {
        const messages = await findMessages(tx, realm.id, ids);
        const audience = await messageAudience(tx, realm.id, stream, ids, ids[0]);
        await releaseAttachmentClaims(tx, emit, realm, messages);
        await deleteMessages(tx, ids);
        emitDeletion(emit, realm.id, ids, { stream, topic: messages[0].topic }, [...new Set([...audience.keys(), user.id])]);
      }
      const last = ids.length < DELETE_TOPIC_BATCH;
      if (last) await refreshFirstMessageId(tx, emit, realm, (await findStream(tx, realm.id, stream.id)) ?? stream);
      return last;
    });
    if (done) return { complete: true };
  }
}
