import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../db.js';
import { postgresSearchDocument } from '../search.js';

// PostgreSQL's search moves from an expression index over messages to a table of stored documents
// (`message_search`: the message's id and its tsvector), as SQLite's FTS5 table. The expression index could only
// return every match of a word, each read from the wide messages table (a word in 6% of a million messages: 62,000
// heap reads, 170 ms, for the newest 1,000); a stored document can be tested cheaply while walking newest first,
// so the planner now stops at the limit (9 ms), and still takes the GIN index for rare words. Triggers keep it
// current on every path that writes a message's text (the send, the bulk path, edits, moves, deletes).
export const postgresSearchTable = (dialect: Dialect): Migration => ({
  async up(db: Kysely<any>) {
    if (dialect !== 'postgres') return;
    await sql`create table message_search (id integer primary key, document tsvector not null)`.execute(db);
    // New messages are indexed a statement at a time (the bulk path inserts thousands in one), edited ones a row
    // at a time; a deleted message's document goes with it.
    await sql.raw(`create function parlance_index_new_messages() returns trigger language plpgsql as $$
      begin
        insert into message_search (id, document) select id, ${postgresSearchDocument()} from new_messages;
        return null;
      end $$`).execute(db);
    await sql.raw(`create function parlance_reindex_message() returns trigger language plpgsql as $$
      begin
        update message_search set document = ${postgresSearchDocument('new.')} where id = new.id;
        return null;
      end $$`).execute(db);
    await sql.raw(`create function parlance_unindex_messages() returns trigger language plpgsql as $$
      begin
        delete from message_search where id in (select id from old_messages);
        return null;
      end $$`).execute(db);
    await sql`create trigger messages_search_insert after insert on messages referencing new table as new_messages for each statement execute function parlance_index_new_messages()`.execute(db);
    await sql`create trigger messages_search_update after update of topic, content on messages for each row
      when (old.topic is distinct from new.topic or old.content is distinct from new.content) execute function parlance_reindex_message()`.execute(db);
    await sql`create trigger messages_search_delete after delete on messages referencing old table as old_messages for each statement execute function parlance_unindex_messages()`.execute(db);
    await sql.raw(`insert into message_search (id, document) select id, ${postgresSearchDocument()} from messages`).execute(db);
    await sql`create index message_search_document on message_search using gin (document)`.execute(db);
    await sql`drop index messages_search`.execute(db);
    await sql`analyze message_search`.execute(db);
  },
});
