// Rows of users looked at by their identity rather than as users: the start-up report of look-alike addresses,
// and pending e-mail address changes.
import type { Db } from './db.js';

export interface IdentityRow {
  id: number;
  realmId: number;
  email: string;
  identityKey: string;
  systemBot: string | null;
}

// For the start-up report: rows sharing a key with another row of their organization, and rows whose key matches
// one of the LIKE patterns (the caller filters those further).
export async function identityRowsToReview(db: Db, patterns: string[]): Promise<{ shared: IdentityRow[]; matching: IdentityRow[] }> {
  const columns = ['id', 'realm_id', 'delivery_email', 'identity_key', 'system_bot'] as const;
  const toRow = (r: { id: number; realm_id: number; delivery_email: string; identity_key: string; system_bot: string | null }): IdentityRow =>
    ({ id: r.id, realmId: r.realm_id, email: r.delivery_email, identityKey: r.identity_key, systemBot: r.system_bot });
  const dup = db.selectFrom('users').select(['realm_id', 'identity_key']).groupBy(['realm_id', 'identity_key']).having((eb) => eb.fn.countAll(), '>', 1);
  const shared = await db.selectFrom('users').innerJoin(dup.as('d'), (j) => j.onRef('d.realm_id', '=', 'users.realm_id').onRef('d.identity_key', '=', 'users.identity_key'))
    .select(columns.map((c) => `users.${c}` as const)).orderBy('users.id').execute();
  const matching = patterns.length
    ? await db.selectFrom('users').select([...columns]).where((eb) => eb.or(patterns.map((p) => eb('identity_key', 'like', p)))).orderBy('id').execute()
    : [];
  return { shared: shared.map(toRow), matching: matching.map(toRow) };
}

export async function insertEmailChange(db: Db, key: string, userId: number, newEmail: string, now: number): Promise<void> {
  await db.deleteFrom('email_changes').where('user_id', '=', userId).execute();
  await db.insertInto('email_changes').values({ key, user_id: userId, new_email: newEmail, created: now }).execute();
}

export async function takeEmailChange(db: Db, key: string): Promise<{ userId: number; newEmail: string; created: number } | undefined> {
  const row = await db.selectFrom('email_changes').selectAll().where('key', '=', key).executeTakeFirst();
  if (!row) return undefined;
  await db.deleteFrom('email_changes').where('key', '=', key).execute();
  return { userId: row.user_id, newEmail: row.new_email, created: row.created };
}
