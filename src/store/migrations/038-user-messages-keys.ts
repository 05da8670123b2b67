import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../db.js';

// PostgreSQL checks a foreign key by locking the row it points at (SELECT … FOR KEY SHARE), once per inserted
// row: a message to 5,000 subscribers locked its own message row 5,000 times and each user's row once, most of
// the 75 ms its recipient rows took to insert (B2). The keys of user_messages guard nothing the code does not
// already: its rows are written only with the message they belong to, a message's rows are deleted before it
// (src/store/message-edits.ts), and users are never deleted. SQLite's check is a plain index lookup, and
// dropping a key there means rebuilding the largest table: it keeps them.
export const userMessagesKeys = (dialect: Dialect): Migration => ({
  async up(db: Kysely<any>) {
    if (dialect !== 'postgres') return;
    await sql`alter table user_messages drop constraint if exists user_messages_message_id_fkey, drop constraint if exists user_messages_user_id_fkey`.execute(db);
  },
});
