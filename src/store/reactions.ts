import type { Db } from './db.js';

export interface Reaction {
  id: number;
  messageId: number;
  userId: number;
  emojiName: string;
  emojiCode: string;
  reactionType: string;
}

export interface ReactionWithUser extends Reaction {
  email: string;
  fullName: string;
}

type Row = { id: number; message_id: number; user_id: number; emoji_name: string; emoji_code: string; reaction_type: string };
const toReaction = (r: Row): Reaction => ({
  id: r.id, messageId: r.message_id, userId: r.user_id, emojiName: r.emoji_name, emojiCode: r.emoji_code, reactionType: r.reaction_type,
});

export async function insertReaction(db: Db, r: Omit<Reaction, 'id'>): Promise<void> {
  await db
    .insertInto('reactions')
    .values({ message_id: r.messageId, user_id: r.userId, emoji_name: r.emojiName, emoji_code: r.emojiCode, reaction_type: r.reactionType })
    .execute();
}

// One user's reaction with an emoji, or (without a user) the oldest anyone made with it.
export async function findReaction(db: Db, messageId: number, type: string, code: string, userId?: number): Promise<Reaction | undefined> {
  let q = db.selectFrom('reactions').selectAll().where('message_id', '=', messageId).where('reaction_type', '=', type).where('emoji_code', '=', code);
  if (userId !== undefined) q = q.where('user_id', '=', userId);
  const row = await q.orderBy('id').limit(1).executeTakeFirst();
  return row && toReaction(row);
}

export async function deleteReaction(db: Db, id: number): Promise<void> {
  await db.deleteFrom('reactions').where('id', '=', id).execute();
}

// Reactions of many messages with their authors' names, oldest first.
export async function reactionsOf(db: Db, messageIds: number[]): Promise<ReactionWithUser[]> {
  if (!messageIds.length) return [];
  const rows = await db
    .selectFrom('reactions')
    .innerJoin('users', 'users.id', 'reactions.user_id')
    .select(['reactions.id', 'reactions.message_id', 'reactions.user_id', 'reactions.emoji_name', 'reactions.emoji_code', 'reactions.reaction_type', 'users.email', 'users.full_name'])
    .where('reactions.message_id', 'in', messageIds)
    .orderBy('reactions.id')
    .execute();
  return rows.map((r) => ({ ...toReaction(r), email: r.email, fullName: r.full_name }));
}
