// Avatars: uploading one's own (POST /users/me/avatar), going back to the default (DELETE), and where
// GET /avatar/{user} leads. Images are checked by their first bytes as custom emoji are (no resizing: the
// medium size is the same image). Stored names are random, so images are served without credentials.
import crypto from 'node:crypto';
import type { App } from '../app.js';
import { imageKind } from '../emoji/image.js';
import { avatarUrl, gravatarUrl, INACCESSIBLE_USER_AVATAR } from '../format/users.js';
import { ApiError, UnauthorizedError } from '../http/errors.js';
import type { UploadedFile } from '../http/request-values.js';
import { isRealmAdmin } from '../permissions/channels.js';
import { realmSettings } from '../state/realm.js';
import { SERVER_LIMITS } from '../state/realm-data.js';
import { avatarFileName, setAvatar } from '../store/avatars.js';
import type { Realm } from '../store/realms.js';
import { findUser, type User } from '../store/users.js';
import { inTransaction } from './transaction.js';
import { emitPersonUpdate } from './user-events.js';
import { lookUpUser } from './users.js';
import { chargeUploadVolume, MIB } from './upload-space.js';

export const AVATAR_FILE_NAME = /^[0-9a-f]{16}\.(png|gif|jpg|webp)$/;
const avatarKey = (realmId: number, fileName: string) => `avatars/${realmId}/${fileName}`;
const avatarFileUrl = (realmId: number, fileName: string) => `/user_avatars/${realmId}/avatars/${fileName}`;

function checkAvatarChangesAllowed(realm: Realm, user: User): void {
  if (realmSettings(realm).avatar_changes_disabled && !isRealmAdmin(user)) throw new ApiError('Avatar changes are disabled in this organization.');
}

// Every user who may access this one is told; the old image goes once the change has committed.
async function changeAvatar(app: App, realm: Realm, user: User, source: 'U' | 'G', fileName: string | null): Promise<string> {
  const { previous, updated } = await inTransaction(app, async (tx, emit) => {
    const previous = await avatarFileName(tx, user.id);
    const updated: User = { ...user, avatarSource: source, avatarVersion: await setAvatar(tx, user.id, source, fileName) };
    await emitPersonUpdate(tx, emit, realm, user, {
      avatar_source: source, avatar_url: avatarUrl(updated, false), avatar_url_medium: avatarUrl(updated, false, true), avatar_version: updated.avatarVersion,
    });
    return { previous, updated };
  });
  if (previous) await app.storage.delete(avatarKey(realm.id, previous));
  return avatarUrl(updated, false)!;
}

export async function doUploadAvatar(app: App, realm: Realm, user: User, files: UploadedFile[]): Promise<{ avatar_url: string }> {
  if (files.length !== 1) throw new ApiError('You must upload exactly one avatar.');
  checkAvatarChangesAllowed(realm, user);
  const { data } = files[0];
  const limit = SERVER_LIMITS.max_avatar_file_size_mib;
  if (data.length > limit * MIB) throw new ApiError(`Uploaded file is larger than the allowed limit of ${limit} MiB`);
  const kind = imageKind(data);
  if (!kind) throw new ApiError('Could not decode image; did you upload an image file?', 'BAD_IMAGE');
  await chargeUploadVolume(app, user, data.length);
  const fileName = `${crypto.randomBytes(8).toString('hex')}.${kind.ext}`;
  await app.storage.put(avatarKey(realm.id, fileName), data);
  try {
    return { avatar_url: await changeAvatar(app, realm, user, 'U', fileName) };
  } catch (err) {
    await app.storage.delete(avatarKey(realm.id, fileName));
    throw err;
  }
}

export async function doDeleteAvatar(app: App, realm: Realm, user: User): Promise<{ avatar_url: string }> {
  checkAvatarChangesAllowed(realm, user);
  return { avatar_url: await changeAvatar(app, realm, user, 'G', null) };
}

// Spectators (when the organization admits them) may look avatars up by id only, as with the reference server,
// so that they cannot probe e-mail addresses. An unknown user (or a real address hidden from the viewer) gets the
// generated image of the given text; a user a limited guest may not access, the placeholder image.
export async function avatarLocation(app: App, realm: Realm, viewer: User | null, key: string, medium: boolean): Promise<string> {
  const byId = /^\d{1,9}$/.test(key);
  if (!viewer && (!byId || !realmSettings(realm).enable_spectator_access)) throw new UnauthorizedError();
  const found = viewer ? await lookUpUser(app, realm, viewer, byId ? { id: Number(key) } : { email: key }) : undefined;
  const target = viewer ? found?.user : await findUser(app.db, realm.id, Number(key));
  if (!target) return gravatarUrl(key, 1, medium);
  if (found && !found.accessible) return INACCESSIBLE_USER_AVATAR;
  const file = target.avatarSource === 'U' ? await avatarFileName(app.db, target.id) : undefined;
  return file ? avatarFileUrl(realm.id, file) : gravatarUrl(target.deliveryEmail, target.avatarVersion, medium);
}

export async function readAvatarImage(app: App, realmId: number, fileName: string): Promise<Buffer | null> {
  return AVATAR_FILE_NAME.test(fileName) ? app.storage.get(avatarKey(realmId, fileName)) : null;
}
