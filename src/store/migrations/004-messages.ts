import type { ColumnDefinitionBuilder, Kysely, Migration } from 'kysely';
import type { Dialect } from '../db.js';
import { idColumn } from './001-core.js';

const flag = (def: 0 | 1) => (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(def);

// Messages and per-recipient rows. A recipient is a channel or a set of users (direct messages, including
// one-to-one and self); `dm_key` is the sorted member ids of a direct-message conversation.
export const messages = (dialect: Dialect): Migration => ({
  async up(db: Kysely<any>) {
    await idColumn(dialect, db.schema.createTable('recipients'))
      .addColumn('realm_id', 'integer', (c) => c.notNull())
      .addColumn('stream_id', 'integer', (c) => c.references('streams.id').unique())
      .addColumn('dm_key', 'varchar(2000)', (c) => c.unique())
      .execute();

    await idColumn(dialect, db.schema.createTable('messages'))
      .addColumn('realm_id', 'integer', (c) => c.notNull())
      .addColumn('sender_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('recipient_id', 'integer', (c) => c.notNull().references('recipients.id'))
      .addColumn('stream_id', 'integer')
      .addColumn('topic', 'varchar(60)', (c) => c.notNull().defaultTo(''))
      .addColumn('topic_key', 'varchar(60)', (c) => c.notNull().defaultTo(''))
      .addColumn('content', 'text', (c) => c.notNull())
      .addColumn('rendered_content', 'text', (c) => c.notNull())
      .addColumn('date_sent', 'bigint', (c) => c.notNull())
      .addColumn('client', 'varchar(64)', (c) => c.notNull().defaultTo('API'))
      .addColumn('last_edit_time', 'bigint')
      .addColumn('last_moved_time', 'bigint')
      .addColumn('edit_history', 'text')
      .addColumn('has_link', 'smallint', flag(0))
      .addColumn('has_image', 'smallint', flag(0))
      .addColumn('has_attachment', 'smallint', flag(0))
      .addColumn('is_me_message', 'smallint', flag(0))
      .execute();
    await db.schema.createIndex('messages_stream_topic').on('messages').columns(['stream_id', 'topic_key', 'id']).execute();
    await db.schema.createIndex('messages_recipient').on('messages').columns(['recipient_id', 'id']).execute();
    await db.schema.createIndex('messages_sender').on('messages').columns(['sender_id', 'id']).execute();
    await db.schema.createIndex('messages_realm').on('messages').columns(['realm_id', 'id']).execute();

    // flags: a bit set (see src/store/messages.ts FLAG_BITS).
    await db.schema
      .createTable('user_messages')
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('message_id', 'integer', (c) => c.notNull().references('messages.id'))
      .addColumn('flags', 'integer', (c) => c.notNull().defaultTo(0))
      .addPrimaryKeyConstraint('user_messages_pk', ['user_id', 'message_id'])
      .execute();
    await db.schema.createIndex('user_messages_message').on('user_messages').column('message_id').execute();
  },
});
