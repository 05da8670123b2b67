import type { Db } from './db.js';

// Users a given user shares something with: an active subscription to the same channel, or a direct-message
// conversation. Guests limited by can_access_all_users_group may access exactly these users.
export async function acquaintanceIds(db: Db, userId: number): Promise<Set<number>> {
  const channel = await db
    .selectFrom('subscriptions as mine')
    .innerJoin('subscriptions as other', 'other.stream_id', 'mine.stream_id')
    .select('other.user_id')
    .distinct()
    .where('mine.user_id', '=', userId)
    .where('mine.active', '=', 1)
    .where('other.active', '=', 1)
    .execute();
  const dm = await db
    .selectFrom('user_messages as mine')
    .innerJoin('messages as m', 'm.id', 'mine.message_id')
    .innerJoin('user_messages as other', 'other.message_id', 'mine.message_id')
    .select('other.user_id')
    .distinct()
    .where('mine.user_id', '=', userId)
    .where('m.stream_id', 'is', null)
    .execute();
  return new Set([...channel, ...dm].map((r) => r.user_id));
}
