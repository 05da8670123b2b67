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

export async function lastPresenceUpdateId(db: Db, realmId: number): Promise<number> {
  const row = await db.selectFrom('presence_sequence').select('last_update_id').where('realm_id', '=', realmId).executeTakeFirst();
  return row?.last_update_id ?? 0;
}

export async function savePresence(tx: Tx, realmId: number, p: Presence, exists: boolean): Promise<void> {
  const values = { last_active_time: p.lastActiveTime, last_connected_time: p.lastConnectedTime, last_update_id: p.lastUpdateId };
  if (exists) await tx.updateTable('user_presence').set(values).where('user_id', '=', p.userId).execute();
  else await tx.insertInto('user_presence').values({ user_id: p.userId, realm_id: realmId, ...values }).execute();
}

export interface PresenceRow extends Presence {
  email: string;
  // An active human user. Invisible users (presence_enabled off) are shown too: their row is backdated.
  visible: boolean;
}

// Presence rows changed after `afterUpdateId`, with what decides whether and how they are shown: the API
// e-mail the legacy format is keyed by, and whether the user is active. Changes to those take a new update id
// too (touchPresence), so a reader that keeps rows sees them.
export async function presenceChanges(db: Db, realmId: number, afterUpdateId: number): Promise<PresenceRow[]> {
  const rows = await db
    .selectFrom('user_presence as p')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .select(['p.user_id', 'p.last_active_time', 'p.last_connected_time', 'p.last_update_id', 'u.email'])
    .select(sql<number>`case when u.is_active = 1 and u.is_bot = 0 then 1 else 0 end`.as('visible'))
    .where('p.realm_id', '=', realmId)
    .where('p.last_update_id', '>', afterUpdateId)
    .execute();
  return rows.map((r) => ({
    userId: r.user_id, lastActiveTime: r.last_active_time, lastConnectedTime: r.last_connected_time, lastUpdateId: r.last_update_id, email: r.email,
    visible: Number(r.visible) === 1,
  }));
}

// Gives the user's presence row (if any) a new update id, after a change of how it is shown.
export async function touchPresence(tx: Tx, realmId: number, userId: number): Promise<void> {
  const row = await tx.selectFrom('user_presence').select('user_id').where('user_id', '=', userId).executeTakeFirst();
  if (row) await tx.updateTable('user_presence').set({ last_update_id: await nextPresenceUpdateId(tx, realmId) }).where('user_id', '=', userId).execute();
}
