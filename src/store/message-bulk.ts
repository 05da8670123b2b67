// Many messages at once (`parlance populate`, the benchmarks' seeding): the rows the send path writes for each
// message (src/store/messages.ts insertMessage: the message, its search index entry, a row per recipient), in
// statements of many rows. Ids are taken up front, so that the recipients' rows need no reading back.
import { sql } from 'kysely';
import { insertRows, type Column } from './bulk.js';
import type { Db, Tx } from './db.js';
import { messageValues, storedFlags, USER_MESSAGE_COLUMNS, type NewMessage } from './messages.js';
import { dialectOf, indexNewMessages } from './search.js';

export interface BulkMessage {
  message: NewMessage;
  recipients: { userId: number; flags: number }[];
}

// PostgreSQL's array type for each column messageValues writes; a column added there without one here fails
// loudly instead of being left out.
const PG_TYPES: Record<string, Column[1]> = {
  id: 'int4', realm_id: 'int4', sender_id: 'int4', recipient_id: 'int4', stream_id: 'int4', topic: 'text', topic_key: 'text',
  content: 'text', rendered_content: 'text', date_sent: 'int8', client: 'text', has_link: 'int4', has_image: 'int4',
  has_attachment: 'int4', is_me_message: 'int4',
};

async function nextMessageIds(tx: Tx, count: number): Promise<number[]> {
  if (dialectOf(tx) === 'postgres') {
    const { rows } = await sql<{ id: number }>`select nextval(pg_get_serial_sequence('messages', 'id'))::int4 as id from generate_series(1, ${count})`.execute(tx);
    return rows.map((r) => r.id).sort((a, b) => a - b);
  }
  // SQLite: the writing transaction holds the database; ids continue after both the largest id and the
  // autoincrement counter (ids of deleted messages are never reused).
  const { rows } = await sql<{ id: number }>`select max(coalesce((select seq from sqlite_sequence where name = 'messages'), 0), coalesce((select max(id) from messages), 0)) as id`.execute(tx);
  const first = Number(rows[0].id) + 1;
  return Array.from({ length: count }, (_, i) => first + i);
}

// Inserts the messages in order (ids increase with the position in `batch`); returns their ids.
export async function insertMessages(tx: Tx, batch: BulkMessage[]): Promise<number[]> {
  if (!batch.length) return [];
  const ids = await nextMessageIds(tx, batch.length);
  const values = batch.map((b, i) => ({ id: ids[i], ...messageValues(b.message) }));
  const columns: Column[] = Object.keys(values[0]).map((name) => {
    const type = PG_TYPES[name];
    if (!type) throw new Error(`insertMessages: no array type for messages.${name}`);
    return [name, type];
  });
  await insertRows(tx, 'messages', columns, values.map((v) => columns.map(([name]) => v[name as keyof typeof v])));
  await indexNewMessages(tx, ids);
  // In the key's order (user, message): each user's rows go to one place of the b-tree.
  const rows = batch.flatMap((b, i) => b.recipients.map((r) => [r.userId, ids[i], storedFlags(b.message, r.flags)]));
  rows.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  await insertRows(tx, 'user_messages', USER_MESSAGE_COLUMNS, rows);
  return ids;
}

// For a process that writes a lot at once (`parlance populate`): on SQLite, a page cache of 256 MiB instead of
// 2 MiB, so that the indexes' pages being filled stay in memory between statements.
export async function preferBulkWrites(db: Db): Promise<void> {
  if (dialectOf(db) === 'sqlite') await sql`pragma cache_size = -262144`.execute(db);
}
