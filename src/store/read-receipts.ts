import { sql } from 'kysely';
import type { Db } from './db.js';
import { FLAG_BITS } from './messages.js';

// Who holds the message marked read.
export async function readerIds(db: Db, messageId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('user_messages')
    .select('user_id')
    .where('message_id', '=', messageId)
    .where(sql<boolean>`(flags & ${FLAG_BITS.read}) <> 0`)
    .orderBy('user_id')
    .execute();
  return rows.map((r) => r.user_id);
}
