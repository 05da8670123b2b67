import { sql } from 'kysely';
import type { Db, Tx } from './db.js';

export interface Presence {
  userId: number;
  lastActiveTime: number | null;
  lastConnectedTime: number;
  lastUpdateId: number;
}

export async function findPresence(db: Db, userId: number): Promise<Presence | undefined> {
  const r = await db.selectFrom('user_presence').selectAll().where('user_id', '=', userId).executeTakeFirst();
  return r && { userId: r.user_id, lastActiveTime: r.last_active_time, lastConnectedTime: r.last_connected_time, lastUpdateId: r.last_update_id };
}

// The next id of the organization's presence sequence, taken in one statement: the row stays locked until the
// transaction ends, so ids are handed out in commit order and never twice.
export async function nextPresenceUpdateId(tx: Tx, realmId: number): Promise<number> {
  const row = await tx
    .insertInto('presence_sequence')
    .values({ realm_id: realmId, last_update_id: 1 })
    .onConflict((oc) => oc.column('realm_id').doUpdateSet({ last_update_id: sql<number>`presence_sequence.last_update_id + 1` }))
    .returning('last_update_id')
    .executeTakeFirstOrThrow();
  return Number(row.last_update_id);
}

export async function savePresence(tx: Tx, realmId: number, p: Presence, exists: boolean): Promise<void> {
  const values = { last_active_time: p.lastActiveTime, last_connected_time: p.lastConnectedTime, last_update_id: p.lastUpdateId };
  if (exists) await tx.updateTable('user_presence').set(values).where('user_id', '=', p.userId).execute();
  else await tx.insertInto('user_presence').values({ user_id: p.userId, realm_id: realmId, ...values }).execute();
}

// Presence rows changed after `afterUpdateId`, or seen since `since` (seconds) when no id is given.
export async function listPresence(db: Db, realmId: number, opts: { afterUpdateId?: number; since?: number }): Promise<Presence[]> {
  let q = db.selectFrom('user_presence').selectAll().where('realm_id', '=', realmId);
  if (opts.afterUpdateId !== undefined) q = q.where('last_update_id', '>', opts.afterUpdateId);
  if (opts.since !== undefined) q = q.where('last_connected_time', '>=', opts.since);
  const rows = await q.execute();
  return rows.map((r) => ({ userId: r.user_id, lastActiveTime: r.last_active_time, lastConnectedTime: r.last_connected_time, lastUpdateId: r.last_update_id }));
}
