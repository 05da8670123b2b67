// Missed-message notifications waiting for their batch's mail. A user's notifications share one due time (the
// first one's), so that a batch is one mail.
import type { Db, Tx } from './db.js';

export interface MissedNotice {
  id: number;
  realmId: number;
  userId: number;
  messageId: number;
  reason: string;
}

// Each notification joins its user's waiting batch, or starts one due `due`.
export async function insertMissedNotices(db: Db, rows: { realmId: number; userId: number; messageId: number; reason: string }[], due: (userId: number) => number): Promise<void> {
  if (!rows.length) return;
  const users = [...new Set(rows.map((r) => r.userId))];
  const batches = new Map<number, number>();
  for (let i = 0; i < users.length; i += 500) {
    const found = await db
      .selectFrom('missed_message_notices')
      .select(['user_id', (eb) => eb.fn.min('due').as('due')])
      .where('user_id', 'in', users.slice(i, i + 500))
      .groupBy('user_id')
      .execute();
    for (const r of found) batches.set(r.user_id, Number(r.due));
  }
  for (let i = 0; i < rows.length; i += 500) {
    await db
      .insertInto('missed_message_notices')
      .values(rows.slice(i, i + 500).map((r) => ({ realm_id: r.realmId, user_id: r.userId, message_id: r.messageId, reason: r.reason, due: batches.get(r.userId) ?? due(r.userId) })))
      .onConflict((oc) => oc.columns(['user_id', 'message_id']).doNothing())
      .execute();
  }
}

export async function usersWithDueNotices(db: Db, now: number, limit: number): Promise<number[]> {
  const rows = await db.selectFrom('missed_message_notices').select('user_id').where('due', '<=', now).groupBy('user_id').orderBy('user_id').limit(limit).execute();
  return rows.map((r) => r.user_id);
}

export class TakenElsewhere extends Error {}

// Takes all of a user's waiting notifications for one mail, once their batch is due (one recorded at the same
// moment by another message's transaction may have started a batch of its own: it goes along); throws
// TakenElsewhere (the transaction then rolls back) when another process took some of them first.
export async function takeUserNotices(tx: Tx, userId: number): Promise<MissedNotice[]> {
  const rows = await tx.selectFrom('missed_message_notices').selectAll().where('user_id', '=', userId).orderBy('message_id').execute();
  if (!rows.length) return [];
  const r = await tx.deleteFrom('missed_message_notices').where('id', 'in', rows.map((x) => x.id)).executeTakeFirst();
  if (Number(r.numDeletedRows) !== rows.length) throw new TakenElsewhere();
  return rows.map((x) => ({ id: x.id, realmId: x.realm_id, userId: x.user_id, messageId: x.message_id, reason: x.reason }));
}

// Users with an event queue polled since `since` (a client is looking).
export async function usersPolledSince(db: Db, userIds: number[], since: number): Promise<Set<number>> {
  const out = new Set<number>();
  for (let i = 0; i < userIds.length; i += 500) {
    const rows = await db.selectFrom('event_queues').select('user_id').distinct().where('user_id', 'in', userIds.slice(i, i + 500)).where('last_poll', '>=', since).execute();
    for (const r of rows) out.add(r.user_id);
  }
  return out;
}
