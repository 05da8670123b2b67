import { sql, type Insertable, type Selectable } from 'kysely';
import { insertReturningId, insertRows, type Column } from './bulk.js';
import type { Db, Tx } from './db.js';
import type { MessageTable } from './schema.js';
import { dialectOf, indexMessageText } from './search.js';
import { cached, cacheMap } from './cache.js';
import { PRIVATE_BIT, USER_ROW_INDEXES } from './history-indexes.js';

// Per-user message flags, stored as bits of user_messages.flags.
export const FLAG_BITS = {
  read: 1,
  starred: 2,
  collapsed: 4,
  mentioned: 8,
  stream_wildcard_mentioned: 16,
  topic_wildcard_mentioned: 32,
  has_alert_word: 64,
  historical: 128,
} as const;
export type FlagName = keyof typeof FLAG_BITS;
export const FLAG_NAMES = Object.keys(FLAG_BITS) as FlagName[];

// Shared lists, one per combination of bits (a message's recipients mostly share one): do not change them.
const flagLists: string[][] = [];

export function flagNames(bits: number): string[] {
  let names = flagLists[bits];
  if (names) return names;
  names = FLAG_NAMES.filter((n) => bits & FLAG_BITS[n]);
  if (bits & (FLAG_BITS.stream_wildcard_mentioned | FLAG_BITS.topic_wildcard_mentioned)) names.push('wildcard_mentioned');
  if (bits >= 0 && bits < 1024) flagLists[bits] = Object.freeze(names) as string[];
  return names;
}

export function flagBits(names: string[]): number {
  return names.reduce((bits, n) => bits | (FLAG_BITS[n as FlagName] ?? 0), 0);
}

export interface Message {
  id: number;
  realmId: number;
  senderId: number;
  recipientId: number;
  streamId: number | null;
  topic: string;
  content: string;
  renderedContent: string;
  dateSent: number;
  client: string;
  lastEditTime: number | null;
  lastMovedTime: number | null;
  editHistory: Record<string, unknown>[] | null;
  hasLink: boolean;
  hasImage: boolean;
  hasAttachment: boolean;
  isMeMessage: boolean;
}

export function toMessage(r: Selectable<MessageTable>): Message {
  return {
    id: r.id,
    realmId: r.realm_id,
    senderId: r.sender_id,
    recipientId: r.recipient_id,
    streamId: r.stream_id,
    topic: r.topic,
    content: r.content,
    renderedContent: r.rendered_content,
    dateSent: r.date_sent,
    client: r.client,
    lastEditTime: r.last_edit_time,
    lastMovedTime: r.last_moved_time,
    editHistory: r.edit_history ? JSON.parse(r.edit_history) : null,
    hasLink: r.has_link === 1,
    hasImage: r.has_image === 1,
    hasAttachment: r.has_attachment === 1,
    isMeMessage: r.is_me_message === 1,
  };
}

export const topicKey = (topic: string) => topic.toLowerCase();
export const dmKey = (userIds: number[]) => [...new Set(userIds)].sort((a, b) => a - b).join(',');

const streamRecipients = cacheMap<number, number | null>('recipients');

export function streamRecipient(tx: Tx, realmId: number, streamId: number): Promise<number> {
  return recipient(tx, { realm_id: realmId, stream_id: streamId, dm_key: null }, 'stream_id', streamId);
}

export function dmRecipient(tx: Tx, realmId: number, userIds: number[]): Promise<number> {
  const key = dmKey(userIds);
  return recipient(tx, { realm_id: realmId, stream_id: null, dm_key: key }, 'dm_key', key);
}

// Find or create. Two first messages to one conversation may race to create its row (on PostgreSQL, where
// writers run concurrently): the loser's insert waits for the winner and does nothing, then finds its row.
// A channel's row is cached (every send to it needs the row; it never changes once made).
async function recipient(tx: Tx, row: { realm_id: number; stream_id: number | null; dm_key: string | null }, column: 'stream_id' | 'dm_key', value: number | string): Promise<number> {
  const select = async () => (await tx.selectFrom('recipients').select('id').where(column, '=', value).executeTakeFirst())?.id ?? null;
  const find = column === 'stream_id' ? () => cached(tx, streamRecipients, value as number, select) : select;
  const found = await find();
  if (found !== null) return found;
  await tx.insertInto('recipients').values(row).onConflict((oc) => oc.column(column).doNothing()).execute();
  return (await find())!;
}

export async function findDmRecipient(db: Db, userIds: number[]): Promise<number | null> {
  const row = await db.selectFrom('recipients').select('id').where('dm_key', '=', dmKey(userIds)).executeTakeFirst();
  return row?.id ?? null;
}

// A user's conversations may be many: a few hundred ids per statement.
export async function dmMembers(db: Db, recipientIds: number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>();
  for (let i = 0; i < recipientIds.length; i += 500) {
    const rows = await db.selectFrom('recipients').select(['id', 'dm_key']).where('id', 'in', recipientIds.slice(i, i + 500)).execute();
    for (const r of rows) if (r.dm_key !== null) out.set(r.id, r.dm_key.split(',').map(Number));
  }
  return out;
}

export type NewMessage = Omit<Message, 'id' | 'lastEditTime' | 'lastMovedTime' | 'editHistory'>;

export const USER_MESSAGE_COLUMNS: Column[] = [['user_id', 'int4'], ['message_id', 'int4'], ['flags', 'int4']];

// A message's row as every writer stores it: the send path here, the bulk path (src/store/message-bulk.ts).
export function messageValues(m: NewMessage) {
  return {
    realm_id: m.realmId,
    sender_id: m.senderId,
    recipient_id: m.recipientId,
    stream_id: m.streamId,
    topic: m.topic,
    topic_key: topicKey(m.topic),
    content: m.content,
    rendered_content: m.renderedContent,
    date_sent: m.dateSent,
    client: m.client,
    has_link: m.hasLink ? 1 : 0,
    has_image: m.hasImage ? 1 : 0,
    has_attachment: m.hasAttachment ? 1 : 0,
    is_me_message: m.isMeMessage ? 1 : 0,
  } satisfies Insertable<MessageTable>;
}

// The hottest write of all (every message, a row per recipient): plain statements, see src/store/bulk.ts.
export async function insertMessage(tx: Tx, m: NewMessage, recipients: { userId: number; flags: number }[]): Promise<number> {
  const id = await insertReturningId(tx, 'messages', messageValues(m));
  await indexMessageText(tx, id, m.topic, m.content, true);
  await insertRows(tx, 'user_messages', USER_MESSAGE_COLUMNS, recipients.map((r) => [r.userId, id, storedFlags(m, r.flags)]));
  return id;
}

// A recipient's row as every writer stores it: a direct message's rows carry the internal is_private bit, which
// the user_messages_private index holds.
export const storedFlags = (m: NewMessage, flags: number) => flags | (m.streamId === null ? PRIVATE_BIT : 0);

// Ids are 32-bit integers on PostgreSQL, which refuses to compare a column with a larger value; ids from
// requests outside that range name no message.
export const MAX_MESSAGE_ID = 2 ** 31 - 1;
const storedIds = (ids: number[]) => ids.filter((id) => Number.isInteger(id) && id > 0 && id <= MAX_MESSAGE_ID);

export async function findMessages(db: Db, realmId: number, requested: number[]): Promise<Message[]> {
  const ids = storedIds(requested);
  if (!ids.length) return [];
  const rows = await db.selectFrom('messages').selectAll().where('realm_id', '=', realmId).where('id', 'in', ids).orderBy('id').execute();
  return rows.map(toMessage);
}

export async function userMessageFlags(db: Db, userId: number, requested: number[]): Promise<Map<number, number>> {
  const messageIds = storedIds(requested);
  if (!messageIds.length) return new Map();
  const rows = await db.selectFrom('user_messages').select(['message_id', 'flags']).where('user_id', '=', userId).where('message_id', 'in', messageIds).execute();
  return new Map(rows.map((r) => [r.message_id, r.flags]));
}

export async function maxMessageId(db: Db, userId: number): Promise<number> {
  const row = await db.selectFrom('user_messages').select((eb) => eb.fn.max('message_id').as('id')).where('user_id', '=', userId).executeTakeFirst();
  return Number(row?.id ?? -1);
}

export async function topicExists(db: Db, streamId: number, topic: string): Promise<boolean> {
  const row = await db.selectFrom('messages').select('id').where('stream_id', '=', streamId).where('topic_key', '=', topicKey(topic)).limit(1).executeTakeFirst();
  return !!row;
}

// Who has posted in a topic: the users a topic wildcard mention (@**topic**) reaches.
export async function topicSenderIds(db: Db, streamId: number, topic: string): Promise<Set<number>> {
  const rows = await db.selectFrom('messages').select('sender_id').distinct().where('stream_id', '=', streamId).where('topic_key', '=', topicKey(topic)).execute();
  return new Set(rows.map((r) => r.sender_id));
}

// Sets or clears one flag on the user's rows for these messages; returns the ids whose flag changed.
export async function changeFlag(tx: Tx, userId: number, requested: number[], bit: number, add: boolean): Promise<number[]> {
  const messageIds = storedIds(requested);
  const changed: number[] = [];
  for (let i = 0; i < messageIds.length; i += 500) {
    const chunk = messageIds.slice(i, i + 500);
    const rows = await tx.selectFrom('user_messages').select(['message_id', 'flags']).where('user_id', '=', userId).where('message_id', 'in', chunk).execute();
    const ids = rows.filter((r) => ((r.flags & bit) !== 0) !== add).map((r) => r.message_id);
    if (!ids.length) continue;
    await tx
      .updateTable('user_messages')
      .set({ flags: add ? sql<number>`flags | ${bit}` : sql<number>`flags & ${~bit}` })
      .where('user_id', '=', userId)
      .where('message_id', 'in', ids)
      .execute();
    changed.push(...ids);
  }
  return changed.sort((a, b) => a - b);
}

// Rows for messages the user reads from a channel's history without having received them.
export async function addHistoricalRows(tx: Tx, userId: number, messageIds: number[], flags: number): Promise<void> {
  for (const id of messageIds) await tx.insertInto('user_messages').values({ user_id: userId, message_id: id, flags }).execute();
}

// A user's rows of one partial index (src/store/history-indexes.ts), as the index's predicate spells them; on
// SQLite the index is named, since its planner would rather walk all of the user's rows.
function userRows(db: Db, userId: number, what: keyof typeof USER_ROW_INDEXES) {
  const [index, predicate] = USER_ROW_INDEXES[what];
  const from = dialectOf(db) === 'sqlite' ? sql`user_messages as um indexed by ${sql.raw(index)}` : sql`user_messages as um`;
  return db
    .selectFrom(from as never as 'user_messages as um')
    .where('um.user_id', '=', userId)
    .where(sql<boolean>`${sql.raw(`(um.${predicate.slice(1)}`)}`);
}

export interface UnreadConversation {
  streamId: number | null;
  topic: string;
  recipientId: number;
  ids: number[]; // ascending
  mentioned: number[]; // personally mentioned
  wildcardMentioned: number[]; // mentioned only by a wildcard
}

// The user's newest `limit` unread messages, a row per conversation (channel and exact topic, or direct-message
// recipient) with its ids joined as text. Rows are the cost: 50,000 unread messages as 50,000 rows took the
// PostgreSQL driver about 100 ms of the event loop to parse; as a few rows, a few milliseconds to split.
export async function unreadConversations(db: Db, userId: number, limit: number): Promise<{ conversations: UnreadConversation[]; total: number }> {
  const concat = dialectOf(db) === 'postgres' ? 'string_agg' : 'group_concat';
  const ids = (condition: string) =>
    sql<string | null>`${sql.raw(concat)}(case when ${sql.raw(condition)} then cast(u.message_id as text) end, ',' order by u.message_id)`;
  const newest = userRows(db, userId, 'unread').select(['um.message_id', 'um.flags']).orderBy('um.message_id', 'desc').limit(limit);
  const rows = await db
    .with('u', () => newest)
    .selectFrom('u')
    .innerJoin('messages as m', 'm.id', 'u.message_id')
    .select([
      'm.stream_id',
      'm.topic',
      'm.recipient_id',
      ids('1 = 1').as('ids'),
      ids(`(u.flags & ${FLAG_BITS.mentioned}) <> 0`).as('mentioned'),
      ids(`(u.flags & ${FLAG_BITS.mentioned}) = 0 and (u.flags & ${FLAG_BITS.stream_wildcard_mentioned | FLAG_BITS.topic_wildcard_mentioned}) <> 0`).as('wildcard'),
    ])
    .groupBy(['m.stream_id', 'm.topic', 'm.recipient_id'])
    .execute();
  const split = (list: string | null) => (list ? list.split(',').map(Number) : []);
  let total = 0;
  const conversations = rows.map((r) => {
    const all = split(r.ids);
    total += all.length;
    return { streamId: r.stream_id, topic: r.topic, recipientId: r.recipient_id, ids: all, mentioned: split(r.mentioned), wildcardMentioned: split(r.wildcard) };
  });
  return { conversations, total };
}

export async function starredMessageIds(db: Db, userId: number): Promise<number[]> {
  const rows = await userRows(db, userId, 'starred').select('um.message_id').orderBy('um.message_id').execute();
  return rows.map((r) => r.message_id);
}

// The conversations of the user's newest direct messages (at most `rows` of them, as the reference reads),
// each with its newest message id, newest first.
export async function recentDmConversations(db: Db, userId: number, rows = 1000): Promise<{ recipientId: number; maxMessageId: number }[]> {
  const recent = await userRows(db, userId, 'dm')
    .innerJoin('messages as m', 'm.id', 'um.message_id')
    .select(['m.recipient_id', 'm.id'])
    .orderBy('um.message_id', 'desc')
    .limit(rows)
    .execute();
  const newest = new Map<number, number>();
  for (const r of recent) if (!newest.has(r.recipient_id)) newest.set(r.recipient_id, r.id);
  return [...newest].map(([recipientId, maxMessageId]) => ({ recipientId, maxMessageId }));
}

// Topics of a channel with their newest message id, newest first; `userId` limits them to messages the user
// received (channels with protected history).
export async function channelTopics(db: Db, streamId: number, userId?: number): Promise<{ name: string; max_id: number }[]> {
  let q = db.selectFrom('messages as m').where('m.stream_id', '=', streamId);
  if (userId !== undefined) q = q.innerJoin('user_messages as um', (j) => j.onRef('um.message_id', '=', 'm.id').on('um.user_id', '=', userId));
  const rows = await q.select(['m.topic_key', (eb) => eb.fn.max('m.id').as('max_id')]).groupBy('m.topic_key').orderBy('max_id', 'desc').execute();
  const names = await findMessagesById(db, rows.map((r) => Number(r.max_id)));
  return rows.map((r) => ({ name: names.get(Number(r.max_id)) ?? r.topic_key, max_id: Number(r.max_id) }));
}

async function findMessagesById(db: Db, ids: number[]): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db.selectFrom('messages').select(['id', 'topic']).where('id', 'in', ids.slice(i, i + 500)).execute();
    for (const r of rows) out.set(r.id, r.topic);
  }
  return out;
}
