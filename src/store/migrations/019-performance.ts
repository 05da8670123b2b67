import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../db.js';
import { idColumn } from './001-core.js';

export const cacheLogAndClustering = (dialect: Dialect): Migration => ({
  async up(db: Kysely<any>) {
    // The log of changes to cached tables (src/store/tracking.ts writes it, src/store/cache.ts reads it): one row
    // per transaction that wrote any, naming the tables, so that every process sharing the database drops what it
    // cached of them. `origin` names the writing process, which dropped its own cache at the commit.
    await idColumn(dialect, db.schema.createTable('cache_changes'))
      .addColumn('created', 'bigint', (c) => c.notNull())
      .addColumn('origin', 'varchar(64)', (c) => c.notNull())
      .addColumn('tables', 'varchar(2000)', (c) => c.notNull())
      .execute();

    // SQLite: user_messages clustered on its key (without rowid). Every message adds a row per recipient, each
    // on that user's part of the key; a rowid table kept a third b-tree to update, and to write to the log at
    // each commit (insert and commit about 40% cheaper for a channel of 5,000).
    if (dialect === 'sqlite') {
      await db.schema
        .createTable('user_messages_clustered')
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('message_id', 'integer', (c) => c.notNull().references('messages.id'))
        .addColumn('flags', 'integer', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('user_messages_pk', ['user_id', 'message_id'])
        .modifyEnd(sql`without rowid`)
        .execute();
      await sql`insert into user_messages_clustered (user_id, message_id, flags) select user_id, message_id, flags from user_messages`.execute(db);
      await db.schema.dropTable('user_messages').execute();
      await db.schema.alterTable('user_messages_clustered').renameTo('user_messages').execute();
      await db.schema.createIndex('user_messages_message').on('user_messages').column('message_id').execute();
    }
  },
});
