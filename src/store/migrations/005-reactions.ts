import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../db.js';
import { idColumn } from './001-core.js';

// Emoji reactions (§4.21). A user reacts at most once with one emoji, which is (type, code): the name only
// labels it. Reactions go with their message.
export const reactions = (dialect: Dialect): Migration => ({
  async up(db: Kysely<any>) {
    await idColumn(dialect, db.schema.createTable('reactions'))
      .addColumn('message_id', 'integer', (c) => c.notNull().references('messages.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('emoji_name', 'varchar(100)', (c) => c.notNull())
      .addColumn('emoji_code', 'varchar(100)', (c) => c.notNull())
      .addColumn('reaction_type', 'varchar(32)', (c) => c.notNull())
      .addUniqueConstraint('reactions_once', ['user_id', 'message_id', 'reaction_type', 'emoji_code'])
      .execute();
    await db.schema.createIndex('reactions_message').on('reactions').columns(['message_id', 'id']).execute();
  },
});
