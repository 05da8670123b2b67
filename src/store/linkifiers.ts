import type { Db } from './db.js';
import { cached, cacheMap } from './cache.js';

export interface Linkifier {
  id: number;
  pattern: string;
  urlTemplate: string;
}

// In the order they apply: by position, then by id for rows added at the same position.
// Every message is rendered with them: cached (src/store/cache.ts).
const linkifiersByRealm = cacheMap<number, Linkifier[]>('linkifiers');

export async function listLinkifiers(db: Db, realmId: number): Promise<Linkifier[]> {
  return cached(db, linkifiersByRealm, realmId, async () => {
    const rows = await db.selectFrom('linkifiers').select(['id', 'pattern', 'url_template']).where('realm_id', '=', realmId).orderBy('position').orderBy('id').execute();
    return rows.map((r) => ({ id: r.id, pattern: r.pattern, urlTemplate: r.url_template }));
  });
}

export async function insertLinkifier(db: Db, realmId: number, pattern: string, urlTemplate: string): Promise<number> {
  const last = await db.selectFrom('linkifiers').select((eb) => eb.fn.max('position').as('max')).where('realm_id', '=', realmId).executeTakeFirst();
  const row = await db
    .insertInto('linkifiers')
    .values({ realm_id: realmId, pattern, url_template: urlTemplate, position: Number(last?.max ?? -1) + 1 })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateLinkifier(db: Db, realmId: number, id: number, pattern: string, urlTemplate: string): Promise<void> {
  await db.updateTable('linkifiers').set({ pattern, url_template: urlTemplate }).where('realm_id', '=', realmId).where('id', '=', id).execute();
}

export async function deleteLinkifier(db: Db, realmId: number, id: number): Promise<void> {
  await db.deleteFrom('linkifiers').where('realm_id', '=', realmId).where('id', '=', id).execute();
}

export async function setLinkifierPositions(db: Db, realmId: number, orderedIds: number[]): Promise<void> {
  for (const [position, id] of orderedIds.entries()) {
    await db.updateTable('linkifiers').set({ position }).where('realm_id', '=', realmId).where('id', '=', id).execute();
  }
}
