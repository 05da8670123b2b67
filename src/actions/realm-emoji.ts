// Custom emoji: uploaded by whoever can_add_custom_emoji_group allows, deactivated by their author or an
// administrator. Images live in the object storage, one folder per organization, and are served without
// credentials as the reference server serves them. An active emoji's image counts against the organization's
// upload quota; deactivating the emoji deletes its image (so that adding and deleting emoji cannot fill the
// disk), and messages or reactions that showed it show a broken image from then on.
import crypto from 'node:crypto';
import type { App } from '../app.js';
import { ApiError, NotFoundError } from '../lib/errors.js';
import type { UploadedFile } from '../lib/uploaded-file.js';
import { checkCustomEmojiName, unicodeCodeForName } from '../emoji/index.js';
import { imageKind } from '../emoji/image.js';
import type { CustomEmojiTarget } from '../markdown/emoji.js';
import { isRealmAdmin } from '../permissions/channels.js';
import type { Db } from '../store/db.js';
import { groupsOfUser, systemGroupIds } from '../store/groups.js';
import { activeRealmEmojiByName, deactivateRealmEmoji, insertRealmEmoji, listRealmEmoji } from '../store/realm-emoji.js';
import type { Realm } from '../store/realms.js';
import { isUniqueViolation } from '../store/tx.js';
import type { User } from '../store/users.js';
import { holdsRealmSetting } from './channels.js';
import { inTransaction, type Emit } from './transaction.js';
import { chargeUploadVolume, checkQuotaBefore, checkQuotaInTx } from './upload-space.js';
import { formatRealmEmoji, realmEmojiState, sourceUrl } from '../state/realm-emoji.js';

export const MAX_EMOJI_FILE_SIZE_MIB = 5;
// Stored names are random, so one organization's emoji cannot be found by counting through another's.
export const EMOJI_FILE_NAME = /^[0-9a-f]{16}\.(png|gif|jpg|webp)$/;

const emojiKey = (realmId: number, fileName: string) => `emoji/${realmId}/${fileName}`;
// The active custom emoji by name, for rendering `:name:`.
export async function customEmojiTargets(db: Db, realmId: number): Promise<Map<string, CustomEmojiTarget>> {
  return new Map((await listRealmEmoji(db, realmId)).filter((e) => !e.deactivated).map((e) => [e.name, { id: e.id, sourceUrl: sourceUrl(e) }]));
}

// Clients that declared individual_emoji_changes get the one change; the others get every emoji again
// (src/events/filter.ts picks by `op`).
async function notify(db: Db, emit: Emit, realm: Realm, change: Record<string, unknown>): Promise<void> {
  emit(realm.id, { type: 'realm_emoji', op: 'update', realm_emoji: await realmEmojiState(db, realm) }, null);
  emit(realm.id, { type: 'realm_emoji', ...change }, null);
}

const nameTaken = () => new ApiError('A custom emoji with this name already exists.');

export async function doAddRealmEmoji(app: App, realm: Realm, user: User, rawName: string, files: UploadedFile[]): Promise<void> {
  const name = checkCustomEmojiName(rawName);
  const v = { user, groups: await groupsOfUser(app.db, user.id) };
  if (!holdsRealmSetting(v, realm, 'can_add_custom_emoji_group', await systemGroupIds(app.db, realm.id))) throw new ApiError('Insufficient permission');
  if (await activeRealmEmojiByName(app.db, realm.id, name)) throw nameTaken();
  if (files.length !== 1) throw new ApiError('You must upload exactly one file.');
  if (unicodeCodeForName(name) && !isRealmAdmin(user)) throw new ApiError('Only administrators can override built-in emoji.');
  const data = files[0].data;
  if (data.length > MAX_EMOJI_FILE_SIZE_MIB * 1024 * 1024) throw new ApiError(`Uploaded file is larger than the allowed limit of ${MAX_EMOJI_FILE_SIZE_MIB} MiB`);
  const kind = imageKind(data);
  if (!kind) throw new ApiError('Invalid image format', 'BAD_IMAGE');

  await checkQuotaBefore(app, realm.id, data.length);
  await chargeUploadVolume(app, user, data.length);

  const fileName = `${crypto.randomBytes(8).toString('hex')}.${kind.ext}`;
  await app.storage.put(emojiKey(realm.id, fileName), data);
  try {
    await inTransaction(app, async (tx, emit) => {
      if (await activeRealmEmojiByName(tx, realm.id, name)) throw nameTaken();
      await checkQuotaInTx(tx, app, realm.id, data.length);
      const emoji = await insertRealmEmoji(tx, { realmId: realm.id, name, authorId: user.id, fileName, size: data.length });
      await notify(tx, emit, realm, { op: 'add', emoji: formatRealmEmoji(emoji) });
    });
  } catch (err) {
    await app.storage.delete(emojiKey(realm.id, fileName));
    throw isUniqueViolation(err) ? nameTaken() : err;
  }
}

export async function doDeactivateRealmEmoji(app: App, realm: Realm, user: User, name: string): Promise<void> {
  const emoji = await inTransaction(app, async (tx, emit) => {
    const emoji = await activeRealmEmojiByName(tx, realm.id, name);
    if (!emoji) throw new NotFoundError(`Emoji '${name}' does not exist`);
    if (!isRealmAdmin(user) && emoji.authorId !== user.id) throw new ApiError('Must be an organization administrator or emoji author');
    await deactivateRealmEmoji(tx, emoji.id);
    await notify(tx, emit, realm, { op: 'update_one', emoji_id: String(emoji.id), data: { deactivated: true } });
    return emoji;
  });
  await app.storage.delete(emojiKey(realm.id, emoji.fileName));
}

// The stored image of a custom emoji, or null when there is none by that name.
export async function readEmojiImage(app: App, realmId: number, fileName: string): Promise<Buffer | null> {
  if (!EMOJI_FILE_NAME.test(fileName)) return null;
  return app.storage.get(emojiKey(realmId, fileName));
}
