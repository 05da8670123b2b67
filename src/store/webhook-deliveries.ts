import type { Db, Tx } from './db.js';

export interface NewDelivery {
  realmId: number;
  botId: number;
  messageId: number;
  trigger: 'mention' | 'direct_message';
  depth: number;
  message: string; // JSON
}

export interface Delivery extends NewDelivery {
  id: number;
  attempts: number;
  created: number;
}

export async function enqueueDeliveries(tx: Tx, deliveries: NewDelivery[], nowMs: number): Promise<void> {
  if (!deliveries.length) return;
  await tx
    .insertInto('webhook_deliveries')
    .values(deliveries.map((d) => ({
      realm_id: d.realmId, bot_id: d.botId, message_id: d.messageId, trigger: d.trigger, depth: d.depth, message: d.message,
      next_attempt: nowMs, created: nowMs,
    })))
    .execute();
}

export async function dueDeliveries(db: Db, nowMs: number, limit: number): Promise<Delivery[]> {
  const rows = await db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('done_at', 'is', null)
    .where('next_attempt', '<=', nowMs)
    .orderBy('next_attempt')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id, realmId: r.realm_id, botId: r.bot_id, messageId: r.message_id, trigger: r.trigger as Delivery['trigger'],
    depth: r.depth, message: r.message, attempts: r.attempts, created: Number(r.created),
  }));
}

// Takes a delivery for one attempt, unless another process took it first: its next attempt moves past the lease.
export async function claimDelivery(db: Db, id: number, seenAttempts: number, leaseUntilMs: number): Promise<boolean> {
  const r = await db
    .updateTable('webhook_deliveries')
    .set({ next_attempt: leaseUntilMs, attempts: seenAttempts + 1 })
    .where('id', '=', id)
    .where('attempts', '=', seenAttempts)
    .where('done_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function markDeliveryDone(db: Db, id: number, nowMs: number, error: string | null): Promise<void> {
  await db.updateTable('webhook_deliveries').set({ done_at: nowMs, last_error: error?.slice(0, 1000) ?? null }).where('id', '=', id).execute();
}

export async function markDeliveryRetry(db: Db, id: number, retryAtMs: number, error: string): Promise<void> {
  await db.updateTable('webhook_deliveries').set({ next_attempt: retryAtMs, last_error: error.slice(0, 1000) }).where('id', '=', id).execute();
}

// Finished deliveries are kept a while for inspection, then deleted.
export async function purgeDeliveries(db: Db, doneBeforeMs: number): Promise<void> {
  await db.deleteFrom('webhook_deliveries').where('done_at', '<', doneBeforeMs).execute();
}
