import { sql } from 'kysely';
import type { Db } from './db.js';
import { FLAG_BITS } from './messages.js';

export interface ReadScope {
  streamId?: number;
  topicKey?: string;
}

// The user's newest unread messages (of a channel, or one of its topics), at most `limit`.
export async function newestUnread(db: Db, userId: number, scope: ReadScope, limit: number): Promise<number[]> {
  let q = db
    .selectFrom('user_messages as um')
    .innerJoin('messages as m', 'm.id', 'um.message_id')
    .select('um.message_id')
    .where('um.user_id', '=', userId)
    .where(sql<boolean>`(um.flags & ${FLAG_BITS.read}) = 0`);
  if (scope.streamId !== undefined) q = q.where('m.stream_id', '=', scope.streamId);
  if (scope.topicKey !== undefined) q = q.where('m.topic_key', '=', scope.topicKey);
  const rows = await q.orderBy('um.message_id', 'desc').limit(limit).execute();
  return rows.map((r) => r.message_id);
}

// Whether the user holds any message of the topic.
export async function holdsTopic(db: Db, userId: number, streamId: number, topicKey: string): Promise<boolean> {
  const row = await db
    .selectFrom('user_messages as um')
    .innerJoin('messages as m', 'm.id', 'um.message_id')
    .select('um.message_id')
    .where('um.user_id', '=', userId)
    .where('m.stream_id', '=', streamId)
    .where('m.topic_key', '=', topicKey)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
