import type { Db } from './db.js';

export interface Draft {
  id: number;
  type: '' | 'stream' | 'private';
  to: number[];
  topic: string;
  content: string;
  timestamp: number;
}

type Row = { id: number; type: string; to: string; topic: string; content: string; timestamp: number };
const toDraft = (r: Row): Draft => ({ id: r.id, type: r.type as Draft['type'], to: JSON.parse(r.to), topic: r.topic, content: r.content, timestamp: r.timestamp });

export async function insertDraft(db: Db, userId: number, d: Omit<Draft, 'id'>): Promise<Draft> {
  const row = await db
    .insertInto('drafts')
    .values({ user_id: userId, type: d.type, to: JSON.stringify(d.to), topic: d.topic, content: d.content, timestamp: d.timestamp })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toDraft(row);
}

export async function countDrafts(db: Db, userId: number): Promise<number> {
  const row = await db.selectFrom('drafts').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function findDraft(db: Db, userId: number, id: number): Promise<Draft | undefined> {
  const row = await db.selectFrom('drafts').selectAll().where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
  return row && toDraft(row);
}

export async function updateDraft(db: Db, id: number, d: Omit<Draft, 'id'>): Promise<void> {
  await db.updateTable('drafts').set({ type: d.type, to: JSON.stringify(d.to), topic: d.topic, content: d.content, timestamp: d.timestamp }).where('id', '=', id).execute();
}

export async function deleteDraft(db: Db, id: number): Promise<void> {
  await db.deleteFrom('drafts').where('id', '=', id).execute();
}

export async function deleteAllDrafts(db: Db, userId: number): Promise<void> {
  await db.deleteFrom('drafts').where('user_id', '=', userId).execute();
}

export async function listDrafts(db: Db, userId: number): Promise<Draft[]> {
  const rows = await db.selectFrom('drafts').selectAll().where('user_id', '=', userId).orderBy('timestamp', 'desc').orderBy('id', 'desc').execute();
  return rows.map(toDraft);
}
