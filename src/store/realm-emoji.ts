import type { Db } from './db.js';
import { cached, cacheMap } from './cache.js';

export interface RealmEmoji {
  id: number;
  realmId: number;
  name: string;
  authorId: number | null;
  fileName: string;
  deactivated: boolean;
  // Of the stored image, which the upload quota counts while the emoji is active.
  size: number;
}

type Row = { id: number; realm_id: number; name: string; author_id: number | null; file_name: string; deactivated: number; size: number | string };
const toEmoji = (r: Row): RealmEmoji => ({
  id: r.id, realmId: r.realm_id, name: r.name, authorId: r.author_id, fileName: r.file_name, deactivated: !!r.deactivated, size: Number(r.size),
});

// Every custom emoji of the organization, deactivated ones included, by id.
// Messages that may name a custom emoji are rendered with them: cached (src/store/cache.ts).
const emojiByRealm = cacheMap<number, RealmEmoji[]>('realm_emoji');

export async function listRealmEmoji(db: Db, realmId: number): Promise<RealmEmoji[]> {
  return cached(db, emojiByRealm, realmId, async () => {
    const rows = await db.selectFrom('realm_emoji').selectAll().where('realm_id', '=', realmId).orderBy('id').execute();
    return rows.map(toEmoji);
  });
}

export async function activeRealmEmojiByName(db: Db, realmId: number, name: string): Promise<RealmEmoji | undefined> {
  const row = await db.selectFrom('realm_emoji').selectAll().where('realm_id', '=', realmId).where('name', '=', name).where('deactivated', '=', 0).executeTakeFirst();
  return row && toEmoji(row);
}

export async function insertRealmEmoji(db: Db, e: Omit<RealmEmoji, 'id' | 'deactivated'>): Promise<RealmEmoji> {
  const row = await db
    .insertInto('realm_emoji')
    .values({ realm_id: e.realmId, name: e.name, author_id: e.authorId, file_name: e.fileName, size: e.size })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toEmoji(row);
}

export async function deactivateRealmEmoji(db: Db, id: number): Promise<void> {
  await db.updateTable('realm_emoji').set({ deactivated: 1 }).where('id', '=', id).execute();
}
