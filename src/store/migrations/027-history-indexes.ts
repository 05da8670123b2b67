import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../db.js';
import { MESSAGE_FACT_INDEXES, PRIVATE_BIT, USER_ROW_INDEXES } from '../history-indexes.js';

// Indexes that let every GET /messages narrow walk only what it may return, newest first, and stop at its
// limit (src/store/message-query.ts picks one per query):
// - a user's rows that are unread, starred, mentioned, alerted or of direct messages: partial indexes of
//   user_messages (a direct message's rows carry the internal `is_private` bit, 256, as in the reference);
// - messages with a link, an image or an attachment, and messages of resolved topics: partial indexes of
//   messages, by organization (narrows over everything a user received) and by conversation (one channel).
// Channel and conversation views use messages_recipient (recipient_id, id); a channel's recipient is its own.
// The predicates are spelled with constants, exactly as the queries spell them: both databases use a partial
// index only for a query whose condition matches its predicate.
export const historyIndexes = (_dialect: Dialect): Migration => ({
  async up(db: Kysely<any>) {
    await sql`update user_messages set flags = flags | ${sql.lit(PRIVATE_BIT)} where message_id in (select id from messages where stream_id is null)`.execute(db);
    for (const [name, predicate] of Object.values(USER_ROW_INDEXES)) {
      await sql`create index ${sql.id(name)} on user_messages (user_id, message_id) where ${sql.raw(predicate)}`.execute(db);
    }
    for (const [fact, predicate] of Object.entries(MESSAGE_FACT_INDEXES)) {
      await sql`create index ${sql.id(`messages_${fact}_realm`)} on messages (realm_id, id) where ${sql.raw(predicate)}`.execute(db);
      await sql`create index ${sql.id(`messages_${fact}_recipient`)} on messages (recipient_id, id) where ${sql.raw(predicate)}`.execute(db);
    }
  },
});
