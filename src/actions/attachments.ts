// A user's uploaded files: listing (GET /attachments), deleting, and the `attachment` events that keep the
// owner's clients up to date. Only the owner hears of an attachment.
import type { App } from '../app.js';
import { ApiError } from '../lib/errors.js';
import { deleteAttachment, findAttachment, linkedMessages, ownedAttachments, realmUploadSpace, type Attachment, type LinkedMessage } from '../store/attachments.js';
import type { Db } from '../store/db.js';
import type { Realm } from '../store/realms.js';
import type { User } from '../store/users.js';
import { deleteImagePreviewFiles } from './image-thumbnails.js';
import { inTransaction, type Emit } from './transaction.js';

export const fileKey = (pathId: string) => `files/${pathId}`;

// Times in milliseconds. `message_ids` is the form of feature level 472; `messages` stays for older clients.
export function formatAttachment(a: Attachment, messages: LinkedMessage[]): Record<string, unknown> {
  return {
    id: a.id,
    name: a.fileName,
    path_id: a.pathId,
    size: a.size,
    create_time: a.createTime * 1000,
    messages: messages.map((m) => ({ id: m.id, date_sent: m.dateSent * 1000 })),
    message_ids: messages.map((m) => m.id),
  };
}

export async function formatAttachments(db: Db, attachments: Attachment[]): Promise<Record<string, unknown>[]> {
  const links = await linkedMessages(db, attachments.map((a) => a.id));
  return attachments.map((a) => formatAttachment(a, links.get(a.id)!));
}

// One event per attachment, to its owner, with the organization's space in use after the change.
export async function notifyAttachments(db: Db, emit: Emit, realmId: number, op: 'add' | 'update', attachments: Attachment[]): Promise<void> {
  if (!attachments.length) return;
  const used = await realmUploadSpace(db, realmId);
  const formatted = await formatAttachments(db, attachments);
  attachments.forEach((a, i) => emit(realmId, { type: 'attachment', op, attachment: formatted[i], upload_space_used: used }, [a.ownerId]));
}

export async function attachmentsState(app: App, realm: Realm, user: User): Promise<Record<string, unknown>> {
  return {
    attachments: await formatAttachments(app.db, await ownedAttachments(app.db, user.id)),
    upload_space_used: await realmUploadSpace(app.db, realm.id),
  };
}

// The file goes too, once the deletion has committed: a link in a message then leads nowhere, as with the
// reference server.
export async function doDeleteAttachment(app: App, realm: Realm, user: User, id: number): Promise<void> {
  const attachment = await inTransaction(app, async (tx, emit) => {
    const a = await findAttachment(tx, realm.id, id);
    if (!a || a.ownerId !== user.id) throw new ApiError('Invalid attachment');
    await deleteAttachment(tx, a.id);
    emit(realm.id, { type: 'attachment', op: 'remove', attachment: { id: a.id }, upload_space_used: await realmUploadSpace(tx, realm.id) }, [user.id]);
    return a;
  });
  await app.storage.delete(fileKey(attachment.pathId));
  await deleteImagePreviewFiles(app, realm.id, attachment.pathId);
}
