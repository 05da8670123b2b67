// The organization's icon: uploaded by an administrator (POST /realm/icon, the reference's icon_source 'U') or
// drawn by the server (DELETE /realm/icon, 'G'). The URL carries the icon's version, so clients never keep an old
// one; both sizes are made at upload, as avatars are.
import type { App } from '../app.js';
import { imageKind } from '../emoji/image.js';
import { ApiError } from '../lib/errors.js';
import { identiconPng } from '../lib/identicon.js';
import type { UploadedFile } from '../lib/uploaded-file.js';
import { realmIconUrl, realmSettings } from '../state/realm.js';
import { SERVER_LIMITS } from '../state/realm-data.js';
import { findRealm, lockRealm, updateRealm, type Realm } from '../store/realms.js';
import type { User } from '../store/users.js';
import { AVATAR_SIZE, MEDIUM_AVATAR_SIZE, squareImages } from './avatars.js';
import { checkAdministrator } from './checks.js';
import { inTransaction } from './transaction.js';
import { chargeUploadVolume, MIB } from './upload-space.js';

const iconKey = (realmId: number, medium: boolean) => `avatars/${realmId}/realm-icon${medium ? '-medium' : ''}.png`;

async function changeIcon(app: App, realmIn: Realm, source: 'U' | 'G'): Promise<string> {
  return inTransaction(app, async (tx, emit) => {
    await lockRealm(tx, app.dialect, realmIn.id);
    const realm = (await findRealm(tx, realmIn.id))!;
    const settings = { ...realm.settings, icon_source: source, icon_version: Number(realmSettings(realm).icon_version) + 1 };
    await updateRealm(tx, realm.id, { settings });
    const iconUrl = realmIconUrl({ ...realm, settings });
    emit(realm.id, { type: 'realm', op: 'update_dict', property: 'icon', data: { icon_url: iconUrl, icon_source: source } }, null);
    return iconUrl;
  });
}

export async function doUploadRealmIcon(app: App, realm: Realm, user: User, files: UploadedFile[]): Promise<{ icon_url: string }> {
  checkAdministrator(user);
  if (files.length !== 1) throw new ApiError('You must upload exactly one icon.');
  const { data } = files[0];
  const limit = SERVER_LIMITS.max_icon_file_size_mib;
  if (data.length > limit * MIB) throw new ApiError(`Uploaded file is larger than the allowed limit of ${limit} MiB`);
  await chargeUploadVolume(app, user, data.length);
  const images = imageKind(data) ? await squareImages(data) : null;
  if (!images) throw new ApiError('Could not decode image; did you upload an image file?', 'BAD_IMAGE');
  await app.storage.put(iconKey(realm.id, false), images[0]);
  await app.storage.put(iconKey(realm.id, true), images[1]);
  return { icon_url: await changeIcon(app, realm, 'U') };
}

export async function doDeleteRealmIcon(app: App, realm: Realm, user: User): Promise<{ icon_url: string }> {
  checkAdministrator(user);
  const iconUrl = await changeIcon(app, realm, 'G');
  for (const medium of [false, true]) await app.storage.delete(iconKey(realm.id, medium));
  return { icon_url: iconUrl };
}

// The icon's image: the upload while the organization uses it, else the one drawn from its id.
export async function realmIconFile(app: App, realmId: number, medium: boolean): Promise<Buffer> {
  const realm = await findRealm(app.db, realmId);
  const stored = realm && realmSettings(realm).icon_source === 'U' ? await app.storage.get(iconKey(realmId, medium)) : null;
  return stored ?? identiconPng(`realm:${realmId}`, medium ? MEDIUM_AVATAR_SIZE : AVATAR_SIZE);
}
