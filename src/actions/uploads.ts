// Uploaded files: creating one (POST /user_uploads, or the end of a resumable upload) and deciding who may read
// it. A file is readable by its uploader, and by whoever can read a message that links to it (see
// attachment-claims.ts); to spectators too when such a message is in a web-public channel. Anyone else is told
// it does not exist.
import crypto from 'node:crypto';
import type { App } from '../app.js';
import type { Config } from '../config.js';
import { ApiError, NotFoundError } from '../lib/errors.js';
import type { UploadedFile } from '../lib/uploaded-file.js';
import { displayFileName, pathSegmentName, uploadContentType } from '../lib/file-names.js';
import { constantTimeEqual, randomToken } from '../lib/secrets.js';
import { realmSettings } from '../state/realm.js';
import { findAttachment, findAttachmentsByPath, insertAttachment, linkedMessages, type Attachment } from '../store/attachments.js';
import type { Db, Tx } from '../store/db.js';
import { findMessages, userMessageFlags } from '../store/messages.js';
import type { Realm } from '../store/realms.js';
import { findStream } from '../store/streams.js';
import { findUser, type User } from '../store/users.js';
import { isValidKey } from '../storage/index.js';
import { fileKey, notifyAttachments } from './attachments.js';
import { makeImagePreview, thumbnailKey } from './image-thumbnails.js';
import { findImagePreviews } from '../store/image-previews.js';
import { accessMessage } from './message-access.js';
import { inTransaction } from './transaction.js';
import { chargeUploadVolume, checkQuotaBefore, checkQuotaInTx, MIB } from './upload-space.js';

const FILE_NOT_FOUND = 'This file does not exist or has been deleted.';

export const maxUploadBytes = (config: Config) => config.maxFileUploadMib * MIB;

export function fileTooLarge(config: Config): ApiError {
  return new ApiError(`File is larger than this server's configured maximum upload size (${config.maxFileUploadMib} MiB).`);
}

// Checked before any byte is stored (and the quota again when the attachment is recorded); then the bytes count
// against the user's hourly allowance.
async function checkUploadAllowed(app: App, realm: Realm, user: User, size: number): Promise<void> {
  if (size > maxUploadBytes(app.config)) throw fileTooLarge(app.config);
  await checkQuotaBefore(app, realm.id, size);
  await chargeUploadVolume(app, user, size);
}

export interface NewUpload {
  name: string;
  declaredType?: string;
  size: number;
  // The bytes, when at hand (to tell UTF-8 text); a resumable upload's may be too large to hold.
  data?: Buffer;
  // Puts the bytes into the storage under the given key.
  store(key: string): Promise<void>;
  // For a finished resumable upload, which was checked and counted when it started: gives up its place in the
  // quota, in the transaction that records the attachment instead.
  staged?(tx: Tx): Promise<void>;
}

export async function doCreateAttachment(app: App, realm: Realm, user: User, upload: NewUpload): Promise<{ url: string; filename: string }> {
  if (!upload.staged) await checkUploadAllowed(app, realm, user, upload.size);
  const fileName = displayFileName(upload.name);
  const pathId = `${realm.id}/${crypto.randomBytes(1).toString('hex')}/${randomToken(24)}/${pathSegmentName(fileName)}`;
  const contentType = uploadContentType(fileName, upload.declaredType, upload.data);
  await upload.store(fileKey(pathId));
  try {
    await inTransaction(app, async (tx, emit) => {
      await upload.staged?.(tx);
      await checkQuotaInTx(tx, app, realm.id, upload.size);
      const attachment = await insertAttachment(tx, {
        realmId: realm.id, ownerId: user.id, pathId, fileName, contentType,
        size: upload.size, createTime: Math.floor(Date.now() / 1000),
      });
      await notifyAttachments(tx, emit, realm.id, 'add', [attachment]);
    });
  } catch (err) {
    await app.storage.delete(fileKey(pathId));
    throw err;
  }
  // Its inline preview is made now, so that a message linking it shows the thumbnail from the start.
  const data = upload.data ?? (contentType?.startsWith('image/') ? await app.storage.get(fileKey(pathId)) : null);
  if (data) await makeImagePreview(app, realm.id, pathId, contentType, data);
  return { url: `/user_uploads/${pathId}`, filename: fileName };
}

// POST /user_uploads: exactly one file part, whatever its field name (the Python library names it after the
// file, the JavaScript one does not).
export async function doUploadFile(app: App, realm: Realm, user: User, files: UploadedFile[]): Promise<{ url: string; filename: string }> {
  if (files.length === 0) throw new ApiError('You must specify a file to upload');
  if (files.length > 1) throw new ApiError('You may only upload one file at a time');
  const [file] = files;
  return doCreateAttachment(app, realm, user, {
    name: file.filename, declaredType: file.mimetype, size: file.data.length, data: file.data,
    store: (key) => app.storage.put(key, file.data),
  });
}

async function spectatorMayRead(db: Db, realm: Realm, messageIds: number[]): Promise<boolean> {
  if (!realmSettings(realm).enable_spectator_access) return false;
  for (const m of await findMessages(db, realm.id, messageIds)) {
    if (m.streamId !== null && (await findStream(db, realm.id, m.streamId))?.isWebPublic) return true;
  }
  return false;
}

// The owner, or a reader of a linking message by the rules of GET /messages/{id}.
export async function mayReadAttachment(db: Db, realm: Realm, user: User | null, a: Attachment): Promise<boolean> {
  if (user?.id === a.ownerId) return true;
  const ids = (await linkedMessages(db, [a.id])).get(a.id)!.map((m) => m.id);
  if (!ids.length) return false;
  if (!user) return spectatorMayRead(db, realm, ids);
  if ((await userMessageFlags(db, user.id, ids)).size) return true;
  for (const id of ids) {
    try {
      await accessMessage(db, realm, user, id);
      return true;
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
    }
  }
  return false;
}

// `path` is what follows /user_uploads/<realm_id>/ in the URL.
export async function accessUploadedFile(app: App, realm: Realm, user: User | null, realmIdText: string, path: string): Promise<Attachment> {
  const pathId = `${realmIdText}/${path}`;
  if (realmIdText !== String(realm.id) || !isValidKey(fileKey(pathId))) throw new NotFoundError(FILE_NOT_FOUND);
  const [attachment] = await findAttachmentsByPath(app.db, realm.id, [pathId]);
  if (!attachment || !(await mayReadAttachment(app.db, realm, user, attachment))) throw new NotFoundError(FILE_NOT_FOUND);
  return attachment;
}

// GET /api/v1/user_uploads/...: a URL that works without credentials for a minute, for clients that hand the
// download to something that cannot send them (a browser, a media player). It names the user it was made for and
// is signed with their API key, so it dies with the key, and it is checked against their access when used.
const TEMPORARY_URL_SECONDS = 60;
const sign = (user: User, payload: string) => crypto.createHmac('sha256', user.apiKey).update(payload).digest().subarray(0, 18).toString('base64url');

export function temporaryFileUrl(user: User, a: Attachment): string {
  const payload = `${user.id}.${Math.floor(Date.now() / 1000) + TEMPORARY_URL_SECONDS}.${a.id}`;
  return `/user_uploads/temporary/${payload}.${sign(user, payload)}/${encodeURIComponent(a.pathId.split('/').pop()!)}`;
}

export async function accessFileByToken(app: App, realm: Realm, token: string, fileName: string): Promise<Attachment> {
  const invalid = () => new ApiError('Invalid token');
  const m = /^(\d{1,9})\.(\d{1,12})\.(\d{1,9})\.([\w-]{24})$/.exec(token);
  if (!m) throw invalid();
  const user = await findUser(app.db, realm.id, Number(m[1]));
  if (!user?.isActive || !constantTimeEqual(sign(user, `${m[1]}.${m[2]}.${m[3]}`), m[4]) || Number(m[2]) < Date.now() / 1000) throw invalid();
  const attachment = await findAttachment(app.db, realm.id, Number(m[3]));
  if (!attachment) throw invalid();
  if (attachment.pathId.split('/').pop() !== fileName) throw new ApiError('Invalid filename');
  if (!(await mayReadAttachment(app.db, realm, user, attachment))) throw new NotFoundError(FILE_NOT_FOUND);
  return attachment;
}

// GET /user_uploads/thumbnail/<path_id>/<name>: to those who may read the image itself (the same rule).
export async function accessThumbnail(app: App, realm: Realm, user: User | null, path: string): Promise<{ key: string; name: string }> {
  const parts = path.split('/');
  const name = parts.pop() ?? '';
  const [realmIdText, ...rest] = parts;
  const attachment = await accessUploadedFile(app, realm, user, realmIdText ?? '', rest.join('/'));
  const [preview] = await findImagePreviews(app.db, realm.id, [attachment.pathId]);
  if (!preview || preview.thumbnail !== name) throw new NotFoundError(FILE_NOT_FOUND);
  return { key: thumbnailKey(attachment.pathId, name), name };
}

