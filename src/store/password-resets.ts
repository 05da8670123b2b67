import type { Db, Tx } from './db.js';

export async function insertPasswordReset(tx: Tx, r: { tokenHash: string; userId: number; created: number; expires: number }): Promise<void> {
  await tx.insertInto('password_resets').values({ token_hash: r.tokenHash, user_id: r.userId, created: r.created, expires: r.expires }).execute();
}

export async function findPasswordReset(db: Db | Tx, tokenHash: string, now: number): Promise<{ userId: number } | undefined> {
  const row = await db.selectFrom('password_resets').select('user_id').where('token_hash', '=', tokenHash).where('expires', '>', now).executeTakeFirst();
  return row && { userId: row.user_id };
}

// Spends a token: true for the one request that took it.
export async function takePasswordReset(tx: Tx, tokenHash: string, now: number): Promise<number | undefined> {
  const found = await findPasswordReset(tx, tokenHash, now);
  if (!found) return undefined;
  const r = await tx.deleteFrom('password_resets').where('token_hash', '=', tokenHash).executeTakeFirst();
  return Number(r.numDeletedRows) > 0 ? found.userId : undefined;
}

// A new password spends every other link of the user, and expired links of anyone go with it.
export async function deletePasswordResetsOf(tx: Tx, userId: number, now: number): Promise<void> {
  await tx.deleteFrom('password_resets').where((eb) => eb.or([eb('user_id', '=', userId), eb('expires', '<=', now)])).execute();
}
