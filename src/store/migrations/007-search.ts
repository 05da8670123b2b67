import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../db.js';
import { postgresSearchDocument } from '../search.js';

// Full-text search (see src/store/search.ts). SQLite: a contentless FTS5 table keyed by message id, written by
// the store, so message text is not stored twice. PostgreSQL: an expression index the database maintains; the
// query must spell the same expression (postgresSearchDocument) to use it.
export const search = (dialect: Dialect): Migration => ({
  async up(db: Kysely<any>) {
    if (dialect === 'sqlite') {
      await sql`create virtual table message_search using fts5(topic, content, content='', contentless_delete=1, tokenize='porter unicode61 remove_diacritics 0')`.execute(db);
      await sql`insert into message_search (rowid, topic, content) select id, topic, content from messages`.execute(db);
    } else {
      await sql`create index messages_search on messages using gin (${sql.raw(postgresSearchDocument())})`.execute(db);
    }
  },
});
