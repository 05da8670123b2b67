// Event-queue rows looked at per user: the cap on a user's live queues, and what a change of the user's rights
// or their deactivation does to their queues, written in the same transaction as that change.
import { sql } from 'kysely';
import type { Db, Dialect, Tx } from './db.js';
import { insertQueueRow, type QueueRow } from './events.js';

const QUEUE_CAP_LOCK = 0x71756575; // "queu": with the user's id, serializes registrations of one user

// Inserts a queue row and deletes the user's rows beyond the newest `cap`, least recently polled first (the new
// one counts as polled now). One transaction, holding a per-user lock on PostgreSQL (SQLite writes one at a
// time), so that registrations arriving at once at several processes cannot leave more. Returns the deleted ids.
export async function insertQueueRowCapped(db: Db, dialect: Dialect, row: QueueRow, cap: number): Promise<string[]> {
  return db.transaction().execute(async (tx) => {
    if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(${QUEUE_CAP_LOCK}, ${row.userId})`.execute(tx);
    await insertQueueRow(tx, row);
    // The new queue stays; of the others, the cap less one most recently polled (times tie within a second, so
    // the new row is left out of the ordering rather than ranked in it).
    const rows = await tx
      .selectFrom('event_queues')
      .select('id')
      .where('user_id', '=', row.userId)
      .where('id', '!=', row.id)
      .orderBy('last_poll', 'desc')
      .orderBy('created', 'desc')
      .orderBy('id')
      .offset(Math.max(0, cap - 1))
      .limit(1_000_000)
      .execute();
    const doomed = rows.map((r) => r.id);
    for (let i = 0; i < doomed.length; i += 500) await tx.deleteFrom('event_queues').where('id', 'in', doomed.slice(i, i + 500)).execute();
    return doomed;
  });
}

// The options saved with each of the user's queues, changed by `change` (a queue taken up by another process
// later starts from them).
export async function updateUserQueueOptions(tx: Tx, userId: number, change: (options: Record<string, unknown>) => Record<string, unknown>): Promise<void> {
  for (const r of await tx.selectFrom('event_queues').select(['id', 'options']).where('user_id', '=', userId).execute()) {
    await tx.updateTable('event_queues').set({ options: JSON.stringify(change(JSON.parse(r.options))) }).where('id', '=', r.id).execute();
  }
}

export async function deleteUserQueueRows(tx: Tx, userId: number): Promise<void> {
  await tx.deleteFrom('event_queues').where('user_id', '=', userId).execute();
}
