// Browser sessions (migration 029): found by the SHA-256 of the cookie's token, never by the token itself.
import crypto from 'node:crypto';
import type { Db, Tx } from './db.js';

export interface Session {
  tokenHash: string;
  userId: number;
  realmId: number;
  csrfToken: string;
  created: number;
  expires: number;
}

export const sessionTokenHash = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

export async function insertSession(db: Db | Tx, s: Session): Promise<void> {
  await db
    .insertInto('sessions')
    .values({ token_hash: s.tokenHash, user_id: s.userId, realm_id: s.realmId, csrf_token: s.csrfToken, created: s.created, expires: s.expires })
    .execute();
}

export async function findSession(db: Db, tokenHash: string): Promise<Session | undefined> {
  const row = await db.selectFrom('sessions').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  if (!row) return undefined;
  return {
    tokenHash: row.token_hash,
    userId: row.user_id,
    realmId: row.realm_id,
    csrfToken: row.csrf_token,
    created: Number(row.created),
    expires: Number(row.expires),
  };
}

export async function extendSession(db: Db, tokenHash: string, expires: number): Promise<void> {
  await db.updateTable('sessions').set({ expires }).where('token_hash', '=', tokenHash).execute();
}

export async function deleteSession(db: Db | Tx, tokenHash: string): Promise<void> {
  await db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
}

// Every session of a user, but the one they are using (`keep`), if any.
export async function deleteSessionsOf(db: Db | Tx, userIds: number[], keep?: string): Promise<void> {
  if (!userIds.length) return;
  let q = db.deleteFrom('sessions').where('user_id', 'in', userIds);
  if (keep !== undefined) q = q.where('token_hash', '!=', keep);
  await q.execute();
}

export async function deleteExpiredSessions(db: Db, now: number): Promise<void> {
  await db.deleteFrom('sessions').where('expires', '<', now).execute();
}
