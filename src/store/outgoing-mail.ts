import type { Db, Tx } from './db.js';

export interface QueuedMail {
  id: number;
  to: string;
  subject: string;
  body: string; // JSON: { from, text, html }
  attempts: number;
}

export async function enqueueMail(tx: Tx, m: { to: string; subject: string; body: string }, now: number): Promise<void> {
  await tx.insertInto('outgoing_mail').values({ created: now, to_address: m.to, subject: m.subject, body: m.body, next_attempt: now }).execute();
}

export async function dueMail(db: Db, now: number, limit: number): Promise<QueuedMail[]> {
  const rows = await db
    .selectFrom('outgoing_mail')
    .select(['id', 'to_address', 'subject', 'body', 'attempts', 'next_attempt'])
    .where('sent_at', 'is', null)
    .where('next_attempt', '<=', now)
    .orderBy('next_attempt')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ id: r.id, to: r.to_address, subject: r.subject, body: r.body, attempts: r.attempts }));
}

// Takes a mail for one attempt, unless another process took it first: its next attempt moves past the lease.
export async function claimMail(db: Db, id: number, seenAttempts: number, leaseUntil: number): Promise<boolean> {
  const r = await db
    .updateTable('outgoing_mail')
    .set({ next_attempt: leaseUntil, attempts: seenAttempts + 1 })
    .where('id', '=', id)
    .where('attempts', '=', seenAttempts)
    .where('sent_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function markMailSent(db: Db, id: number, now: number): Promise<void> {
  await db.updateTable('outgoing_mail').set({ sent_at: now, last_error: null }).where('id', '=', id).execute();
}

export async function markMailFailed(db: Db, id: number, retryAt: number, error: string): Promise<void> {
  await db.updateTable('outgoing_mail').set({ next_attempt: retryAt, last_error: error.slice(0, 1000) }).where('id', '=', id).execute();
}
