// Per-user topic visibility (muted, unmuted, followed). Topics match case-insensitively through topic_key; a
// row keeps the spelling of the request that created it.
import type { Db } from './db.js';
import { topicKey } from './messages.js';

export interface UserTopic {
  streamId: number;
  streamName: string;
  topicName: string;
  visibilityPolicy: number;
  lastUpdated: number;
}

export async function findUserTopic(db: Db, userId: number, streamId: number, topic: string): Promise<{ topicName: string; visibilityPolicy: number } | undefined> {
  const row = await db
    .selectFrom('user_topics')
    .select(['topic_name', 'visibility_policy'])
    .where('user_id', '=', userId)
    .where('stream_id', '=', streamId)
    .where('topic_key', '=', topicKey(topic))
    .executeTakeFirst();
  return row && { topicName: row.topic_name, visibilityPolicy: row.visibility_policy };
}

export async function insertUserTopic(db: Db, t: { userId: number; streamId: number; topicName: string; visibilityPolicy: number; lastUpdated: number }): Promise<void> {
  await db
    .insertInto('user_topics')
    .values({
      user_id: t.userId,
      stream_id: t.streamId,
      topic_name: t.topicName,
      topic_key: topicKey(t.topicName),
      visibility_policy: t.visibilityPolicy,
      last_updated: t.lastUpdated,
    })
    // A concurrent request for the same topic may have inserted it first; the later one wins, as an update would.
    .onConflict((oc) => oc.columns(['user_id', 'stream_id', 'topic_key']).doUpdateSet({ visibility_policy: t.visibilityPolicy, last_updated: t.lastUpdated }))
    .execute();
}

export async function deleteUserTopic(db: Db, userId: number, streamId: number, topic: string): Promise<void> {
  await db.deleteFrom('user_topics').where('user_id', '=', userId).where('stream_id', '=', streamId).where('topic_key', '=', topicKey(topic)).execute();
}

// Every user's policy for one topic (user id → policy).
export async function topicPolicies(db: Db, streamId: number, topic: string): Promise<Map<number, number>> {
  const rows = await db.selectFrom('user_topics').select(['user_id', 'visibility_policy']).where('stream_id', '=', streamId).where('topic_key', '=', topicKey(topic)).execute();
  return new Map(rows.map((r) => [r.user_id, r.visibility_policy]));
}

// Rows of archived channels are kept (unarchiving brings them back) but not listed.
export async function listUserTopics(db: Db, userId: number, visibilityPolicy?: number): Promise<UserTopic[]> {
  let q = db
    .selectFrom('user_topics as t')
    .innerJoin('streams as s', 's.id', 't.stream_id')
    .select(['t.stream_id', 's.name', 't.topic_name', 't.visibility_policy', 't.last_updated'])
    .where('t.user_id', '=', userId)
    .where('s.is_archived', '=', 0);
  if (visibilityPolicy !== undefined) q = q.where('t.visibility_policy', '=', visibilityPolicy);
  const rows = await q.orderBy('t.id').execute();
  return rows.map((r) => ({
    streamId: r.stream_id,
    streamName: r.name,
    topicName: r.topic_name,
    visibilityPolicy: r.visibility_policy,
    lastUpdated: r.last_updated,
  }));
}
