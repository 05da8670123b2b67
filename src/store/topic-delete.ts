import type { Db } from './db.js';

// The newest messages of a topic, at most `limit`; with `userId`, only those the user received (a channel whose
// history is protected).
export async function newestTopicMessageIds(db: Db, streamId: number, topicKey: string, userId: number | null, limit: number): Promise<number[]> {
  let q = db.selectFrom('messages as m').select('m.id').where('m.stream_id', '=', streamId).where('m.topic_key', '=', topicKey);
  if (userId !== null) q = q.innerJoin('user_messages as um', (j) => j.onRef('um.message_id', '=', 'm.id').on('um.user_id', '=', userId));
  const rows = await q.orderBy('m.id', 'desc').limit(limit).execute();
  return rows.map((r) => r.id);
}
