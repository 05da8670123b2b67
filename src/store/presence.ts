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

// The next id of the organization's presence sequence, in one statement once the sequence exists.
export async function nextPresenceUpdateId(tx: Tx, realmId: number): Promise<number> {
  const row = await tx
    .updateTable('presence_sequence')
    .set((eb) => ({ last_update_id: eb('last_update_id', '+', 1) }))
    .where('realm_id', '=', realmId)
    .returning('last_update_id')
    .executeTakeFirst();
  if (row) return Number(row.last_update_id);
  await tx.insertInto('presence_sequence').values({ realm_id: realmId, last_update_id: 1 }).execute();
  return 1;
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
  // Active and sharing presence (presence_enabled, false only when stored in the user's settings).
  visible: boolean;
}

// Presence rows changed after `afterUpdateId`, with what decides whether and how they are shown: the API
// e-mail the legacy format is keyed by, and whether the user is active and shares presence. Changes to those
// take a new update id too (touchPresence), so a reader that keeps rows sees them.
export async function presenceChanges(db: Db, realmId: number, afterUpdateId: number): Promise<PresenceRow[]> {
  const rows = await db
    .selectFrom('user_presence as p')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .select(['p.user_id', 'p.last_active_time', 'p.last_connected_time', 'p.last_update_id', 'u.email'])
    .select(sql<number>`case when u.is_active = 1 and u.settings not like ${`%${PRESENCE_DISABLED}%`} then 1 else 0 end`.as('visible'))
    .where('p.realm_id', '=', realmId)
    .where('p.last_update_id', '>', afterUpdateId)
    .execute();
  return rows.map((r) => ({
    userId: r.user_id, lastActiveTime: r.last_active_time, lastConnectedTime: r.last_connected_time, lastUpdateId: r.last_update_id, email: r.email,
    visible: Number(r.visible) === 1,
  }));
}

// How the settings column (JSON.stringify of the user's overrides, see users.ts) spells an invisible user.
const PRESENCE_DISABLED = JSON.stringify({ presence_enabled: false }).slice(1, -1);

// Gives the user's presence row (if any) a new update id, after a change of how it is shown.
export async function touchPresence(tx: Tx, realmId: number, userId: number): Promise<void> {
  const row = await tx.selectFrom('user_presence').select('user_id').where('user_id', '=', userId).executeTakeFirst();
  if (row) await tx.updateTable('user_presence').set({ last_update_id: await nextPresenceUpdateId(tx, realmId) }).where('user_id', '=', userId).execute();
}
