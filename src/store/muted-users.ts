import { sql } from 'kysely';
import { cached, cacheMap } from './cache.js';
import type { Db, Tx } from './db.js';
import { FLAG_BITS } from './messages.js';

export interface Mute {
  id: number; // the muted user
  timestamp: number;
}

export async function listMutes(db: Db, userId: number): Promise<Mute[]> {
  const rows = await db.selectFrom('muted_users').select(['muted_user_id', 'date_muted']).where('user_id', '=', userId).orderBy('date_muted').orderBy('muted_user_id').execute();
  return rows.map((r) => ({ id: r.muted_user_id, timestamp: Number(r.date_muted) }));
}

// Returns false when the mute already existed.
export async function addMute(tx: Tx, realmId: number, userId: number, mutedUserId: number, now: number): Promise<boolean> {
  const result = await tx
    .insertInto('muted_users')
    .values({ realm_id: realmId, user_id: userId, muted_user_id: mutedUserId, date_muted: now })
    .onConflict((oc) => oc.columns(['user_id', 'muted_user_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function removeMute(tx: Tx, userId: number, mutedUserId: number): Promise<boolean> {
  const result = await tx.deleteFrom('muted_users').where('user_id', '=', userId).where('muted_user_id', '=', mutedUserId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

// Who muted whom in an organization (muted user → the users who muted them), kept in memory: every message sent
// and every typing notification asks it.
const mutersByRealm = cacheMap<number, Map<number, number[]>>('muted_users');

export async function mutersOf(db: Db, realmId: number, userId: number): Promise<ReadonlySet<number>> {
  const all = await cached(db, mutersByRealm, realmId, async () => {
    const rows = await db.selectFrom('muted_users').select(['user_id', 'muted_user_id']).where('realm_id', '=', realmId).execute();
    const out = new Map<number, number[]>();
    for (const r of rows) {
      const list = out.get(r.muted_user_id);
      if (list) list.push(r.user_id);
      else out.set(r.muted_user_id, [r.user_id]);
    }
    return out;
  });
  return new Set(all.get(userId) ?? []);
}

// The user's unread messages sent by `senderId`.
export async function unreadFrom(db: Db, userId: number, senderId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('user_messages as um')
    .innerJoin('messages as m', 'm.id', 'um.message_id')
    .select('um.message_id')
    .where('um.user_id', '=', userId)
    .where('m.sender_id', '=', senderId)
    .where(sql<boolean>`(um.flags & ${FLAG_BITS.read}) = 0`)
    .execute();
  return rows.map((r) => r.message_id);
}
