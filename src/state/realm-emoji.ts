// The realm_emoji register block (and GET /realm/emoji).
import type { Db } from '../store/db.js';
import { listRealmEmoji, type RealmEmoji } from '../store/realm-emoji.js';
import type { Realm } from '../store/realms.js';

// GET /realm/emoji and the `realm_emoji` register block: every custom emoji, deactivated ones included, by id.
export async function realmEmojiState(db: Db, realm: Realm): Promise<Record<string, Record<string, unknown>>> {
  return Object.fromEntries((await listRealmEmoji(db, realm.id)).map((e) => [String(e.id), formatRealmEmoji(e)]));
}

// No still frame is made for animated images (that needs an image library), so still_url is always null.
export function formatRealmEmoji(e: RealmEmoji): Record<string, unknown> {
  return { id: String(e.id), name: e.name, source_url: sourceUrl(e), still_url: null, deactivated: e.deactivated, author_id: e.authorId };
}

export const sourceUrl = (e: RealmEmoji) => `/user_avatars/${e.realmId}/emoji/images/${e.fileName}`;
