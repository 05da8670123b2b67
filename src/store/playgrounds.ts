import type { Db, Tx } from './db.js';

export interface Playground {
  id: number;
  name: string;
  pygments_language: string;
  url_template: string;
}

export async function listPlaygrounds(db: Db, realmId: number): Promise<Playground[]> {
  return db.selectFrom('realm_playgrounds').select(['id', 'name', 'pygments_language', 'url_template']).where('realm_id', '=', realmId).orderBy('id').execute();
}

export async function insertPlayground(tx: Tx, realmId: number, p: Omit<Playground, 'id'>): Promise<number> {
  const row = await tx.insertInto('realm_playgrounds').values({ realm_id: realmId, ...p }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function deletePlayground(tx: Tx, realmId: number, id: number): Promise<boolean> {
  if (!Number.isSafeInteger(id) || id < 1 || id > 2 ** 31 - 1) return false;
  const result = await tx.deleteFrom('realm_playgrounds').where('realm_id', '=', realmId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
