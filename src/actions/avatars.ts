// Avatars: uploading one's own (POST /users/me/avatar), going back to the default (DELETE), and where
// GET /avatar/{user} leads. An upload is checked by its first bytes as custom emoji are, then cropped square and
// stored at the reference's two sizes (100 and 500 pixels, PNG) beside the original. Default avatars are drawn
// here (src/lib/identicon.ts). Stored names are random, so images are served without credentials.
import crypto from 'node:crypto';
import type { App } from '../app.js';
import { imageKind } from '../emoji/image.js';
import { avatarUrl, AVATAR_NAME, INACCESSIBLE_USER_AVATAR } from '../format/users.js';
import { ApiError, UnauthorizedError } from '../lib/errors.js';
import type { UploadedFile } from '../lib/uploaded-file.js';
import { identiconPng } from '../lib/identicon.js';
import { loadSharp } from '../lib/sharp.js';
import { isRealmAdmin } from '../permissions/channels.js';
import { realmSettings } from '../state/realm.js';
import { SERVER_LIMITS } from '../state/realm-data.js';
import { avatarFileName, setAvatar } from '../store/avatars.js';
import type { Realm } from '../store/realms.js';
import { findUser, lockUsers, updateUser, type User } from '../store/users.js';
import { inTransaction } from './transaction.js';
import { emitPersonUpdate } from './user-events.js';
import { lookUpUser } from './users.js';
import { chargeUploadVolume, MIB } from './upload-space.js';

// The reference's DEFAULT_AVATAR_SIZE and MEDIUM_AVATAR_SIZE.
export const AVATAR_SIZE = 100;
export const MEDIUM_AVATAR_SIZE = 500;
// Larger images are refused before they are decoded (decompression bombs).
const MAX_AVATAR_PIXELS = 50_000_000;

// Uploaded since resizing: `<hex>.png`, `<hex>-medium.png` (and `<hex>.original`). Before: one file as uploaded.
export const AVATAR_FILE_NAME = /^[0-9a-f]{16}(-medium)?\.png$/;
export const LEGACY_AVATAR_FILE_NAME = /^[0-9a-f]{16}\.(png|gif|jpg|webp)$/;
const avatarKey = (realmId: number, fileName: string) => `avatars/${realmId}/${fileName}`;
const isLegacy = (stored: string) => stored.includes('.');
const storedKeys = (realmId: number, stored: string) =>
  isLegacy(stored) ? [avatarKey(realmId, stored)] : [`${stored}.png`, `${stored}-medium.png`, `${stored}.original`].map((f) => avatarKey(realmId, f));

function checkAvatarChangesAllowed(realm: Realm, user: User): void {
  if (realmSettings(realm).avatar_changes_disabled && !isRealmAdmin(user)) throw new ApiError('Avatar changes are disabled in this organization.');
}

// Every user who may access this one is told; the old images go once the change has committed.
async function changeAvatar(app: App, realm: Realm, user: User, source: 'U' | 'J', name: string | null): Promise<string> {
  const { previous, updated } = await inTransaction(app, async (tx, emit) => {
    const previous = await avatarFileName(tx, user.id);
    const fresh = (await lockUsers(tx, realm.id, [user.id]))[0] ?? user;
    const settings = { ...fresh.settings };
    if (name === null) delete settings[AVATAR_NAME];
    else settings[AVATAR_NAME] = name;
    await updateUser(tx, user.id, { settings });
    const updated: User = { ...fresh, settings, avatarSource: source, avatarVersion: await setAvatar(tx, user.id, source, name) };
    await emitPersonUpdate(tx, emit, realm, user, {
      avatar_source: source, avatar_url: avatarUrl(updated, false), avatar_url_medium: avatarUrl(updated, false, true), avatar_version: updated.avatarVersion,
    });
    return { previous, updated };
  });
  if (previous) for (const key of storedKeys(realm.id, previous)) await app.storage.delete(key);
  return avatarUrl(updated, false)!;
}

// The two sizes, cropped to a square from the middle, EXIF orientation applied; null if the image cannot be read.
export async function squareImages(data: Buffer): Promise<[Buffer, Buffer] | null> {
  try {
    const sharp = await loadSharp();
    const image = sharp(data, { limitInputPixels: MAX_AVATAR_PIXELS, animated: false }).rotate();
    const at = (size: number) => image.clone().resize(size, size, { fit: 'cover' }).png().toBuffer();
    return [await at(AVATAR_SIZE), await at(MEDIUM_AVATAR_SIZE)];
  } catch {
    return null;
  }
}

export async function doUploadAvatar(app: App, realm: Realm, user: User, files: UploadedFile[]): Promise<{ avatar_url: string }> {
  if (files.length !== 1) throw new ApiError('You must upload exactly one avatar.');
  checkAvatarChangesAllowed(realm, user);
  const { data } = files[0];
  const limit = SERVER_LIMITS.max_avatar_file_size_mib;
  if (data.length > limit * MIB) throw new ApiError(`Uploaded file is larger than the allowed limit of ${limit} MiB`);
  // Charged before decoding: the hourly allowance also bounds the decoding work a user can cause.
  await chargeUploadVolume(app, user, data.length);
  const images = imageKind(data) ? await squareImages(data) : null;
  if (!images) throw new ApiError('Could not decode image; did you upload an image file?', 'BAD_IMAGE');
  const name = crypto.randomBytes(8).toString('hex');
  const [small, medium] = images;
  await app.storage.put(avatarKey(realm.id, `${name}.original`), data);
  await app.storage.put(avatarKey(realm.id, `${name}-medium.png`), medium);
  await app.storage.put(avatarKey(realm.id, `${name}.png`), small);
  try {
    return { avatar_url: await changeAvatar(app, realm, user, 'U', name) };
  } catch (err) {
    for (const key of storedKeys(realm.id, name)) await app.storage.delete(key);
    throw err;
  }
}

export async function doDeleteAvatar(app: App, realm: Realm, user: User): Promise<{ avatar_url: string }> {
  checkAvatarChangesAllowed(realm, user);
  return { avatar_url: await changeAvatar(app, realm, user, 'J', null) };
}

// Spectators (when the organization admits them) may look avatars up by id only, as with the reference server,
// so that they cannot probe e-mail addresses. An unknown user (or a real address hidden from the viewer), and a
// user a limited guest may not access, lead to the placeholder image. `<key>.png` and `<key>-medium.png` are the
// URLs of avatars uploaded before resizing (see avatarUrl).
export async function avatarLocation(app: App, realm: Realm, viewer: User | null, rawKey: string, medium: boolean): Promise<string> {
  const suffix = /^(.*?)(-medium)?\.png$/.exec(rawKey);
  const key = suffix ? suffix[1] : rawKey;
  if (suffix?.[2]) medium = true;
  const byId = /^\d{1,9}$/.test(key);
  if (!viewer && (!byId || !realmSettings(realm).enable_spectator_access)) throw new UnauthorizedError();
  const found = viewer ? await lookUpUser(app, realm, viewer, byId ? { id: Number(key) } : { email: key }) : undefined;
  const target = viewer ? found?.user : await findUser(app.db, realm.id, Number(key));
  if (!target || (found && !found.accessible)) return INACCESSIBLE_USER_AVATAR;
  const stored = target.avatarSource === 'U' ? await avatarFileName(app.db, target.id) : undefined;
  if (stored && isLegacy(stored)) return `/user_avatars/${realm.id}/avatars/${stored}`;
  return avatarUrl(stored ? { ...target, settings: { ...target.settings, [AVATAR_NAME]: stored } } : { ...target, avatarSource: 'J' }, false, medium)!;
}

export async function readAvatarImage(app: App, realmId: number, fileName: string): Promise<Buffer | null> {
  return AVATAR_FILE_NAME.test(fileName) || LEGACY_AVATAR_FILE_NAME.test(fileName) ? app.storage.get(avatarKey(realmId, fileName)) : null;
}

// A default avatar (`<user id>.png` or `<user id>-medium.png`): drawn for any id, so that it tells nothing of
// who exists.
export function defaultAvatarImage(realmId: number, fileName: string): Promise<Buffer> | null {
  const m = /^(\d{1,10})(-medium)?\.png$/.exec(fileName);
  return m ? identiconPng(`user:${realmId}:${m[1]}`, m[2] ? MEDIUM_AVATAR_SIZE : AVATAR_SIZE) : null;
}

// The organization's icon when none was uploaded, and the placeholder of unknown users.
export const placeholderAvatarImage = () => identiconPng('placeholder', AVATAR_SIZE);
