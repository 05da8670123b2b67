// Resumable uploads in progress (their bytes are in the uploads directory under tus/<id>). A row is taken by
// deleting it: whichever process or request deletes it owns the removal of the files, so that several server
// processes can sweep the same table.
import type { Db } from './db.js';

export interface StagedUpload {
  id: string;
  realmId: number;
  userId: number;
  size: number;
  created: number;
}

export async function insertStagedUpload(db: Db, u: StagedUpload): Promise<void> {
  await db.insertInto('staged_uploads').values({ id: u.id, realm_id: u.realmId, user_id: u.userId, size: u.size, created: u.created }).execute();
}

export async function findStagedUpload(db: Db, id: string): Promise<StagedUpload | undefined> {
  const row = await db.selectFrom('staged_uploads').selectAll().where('id', '=', id).executeTakeFirst();
  return row && { id: row.id, realmId: row.realm_id, userId: row.user_id, size: Number(row.size), created: Number(row.created) };
}

export async function countStagedUploads(db: Db, userId: number): Promise<number> {
  const row = await db.selectFrom('staged_uploads').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).executeTakeFirst();
  return Number(row?.n ?? 0);
}

// True when this call removed the row.
export async function takeStagedUpload(db: Db, id: string): Promise<boolean> {
  const result = await db.deleteFrom('staged_uploads').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function takeStagedUploadsOf(db: Db, userIds: number[]): Promise<string[]> {
  if (!userIds.length) return [];
  const rows = await db.deleteFrom('staged_uploads').where('user_id', 'in', userIds).returning('id').execute();
  return rows.map((r) => r.id);
}

// Uploads started before `created`, at most `limit` of them.
export async function takeExpiredStagedUploads(db: Db, created: number, limit: number): Promise<string[]> {
  const ids = (await db.selectFrom('staged_uploads').select('id').where('created', '<', created).orderBy('created').limit(limit).execute()).map((r) => r.id);
  if (!ids.length) return [];
  const rows = await db.deleteFrom('staged_uploads').where('id', 'in', ids).where('created', '<', created).returning('id').execute();
  return rows.map((r) => r.id);
}

// Which of these ids have a row.
export async function existingStagedUploads(db: Db, ids: string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const rows = await db.selectFrom('staged_uploads').select('id').where('id', 'in', ids).execute();
  return new Set(rows.map((r) => r.id));
}
