// Bot storage rows: one per user and key, found by the key's SHA-256 (see migration 021).
import crypto from 'node:crypto';
import { sql } from 'kysely';
import type { Db, Dialect } from './db.js';

const hashOf = (key: string) => crypto.createHash('sha256').update(key).digest('hex');
// Keys per IN list, and rows per insert (five parameters each), well inside every database's bound.
const CHUNK = 500;
const INSERT_CHUNK = 100;

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

// Entries of some keys (those stored), or of every key when `keys` is undefined, in key order.
export async function storageEntries(db: Db, userId: number, keys?: string[]): Promise<Map<string, { value: string; size: number }>> {
  const out = new Map<string, { value: string; size: number }>();
  const base = db.selectFrom('bot_storage').select(['key', 'value', 'size']).where('user_id', '=', userId);
  const batches = keys === undefined ? [await base.orderBy('key').execute()] : [];
  for (const part of keys === undefined ? [] : chunks([...new Set(keys)], CHUNK)) {
    batches.push(await base.where('key_hash', 'in', part.map(hashOf)).execute());
  }
  for (const rows of batches) for (const r of rows) out.set(r.key, { value: r.value, size: Number(r.size) });
  return out;
}

// Sizes only, of the keys among `keys` that are stored.
export async function storedSizes(db: Db, userId: number, keys: string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const part of chunks([...new Set(keys)], CHUNK)) {
    const rows = await db.selectFrom('bot_storage').select(['key', 'size']).where('user_id', '=', userId).where('key_hash', 'in', part.map(hashOf)).execute();
    for (const r of rows) out.set(r.key, Number(r.size));
  }
  return out;
}

export async function storageSize(db: Db, userId: number): Promise<number> {
  const row = await db.selectFrom('bot_storage').select(sql<number | string | null>`sum(size)`.as('total')).where('user_id', '=', userId).executeTakeFirst();
  return Number(row?.total ?? 0);
}

export async function saveEntries(db: Db, userId: number, entries: { key: string; value: string; size: number }[]): Promise<void> {
  for (const part of chunks(entries, INSERT_CHUNK)) {
    await db
      .insertInto('bot_storage')
      .values(part.map((e) => ({ user_id: userId, key_hash: hashOf(e.key), key: e.key, value: e.value, size: e.size })))
      .onConflict((oc) => oc.columns(['user_id', 'key_hash']).doUpdateSet((eb) => ({ value: eb.ref('excluded.value'), size: eb.ref('excluded.size') })))
      .execute();
  }
}

// Removes the keys (every key when undefined).
export async function removeEntries(db: Db, userId: number, keys?: string[]): Promise<void> {
  if (keys === undefined) {
    await db.deleteFrom('bot_storage').where('user_id', '=', userId).execute();
    return;
  }
  for (const part of chunks([...new Set(keys)], CHUNK)) {
    await db.deleteFrom('bot_storage').where('user_id', '=', userId).where('key_hash', 'in', part.map(hashOf)).execute();
  }
}

// Serialises one user's read-check-write changes on PostgreSQL (SQLite writers are serialised already, and it
// has no FOR UPDATE), so that concurrent writes cannot together pass the size limit.
export async function lockStorage(db: Db, dialect: Dialect, userId: number): Promise<void> {
  if (dialect === 'postgres') await db.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
}
