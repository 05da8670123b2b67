import type { ColumnDefinitionBuilder, Kysely, Migration } from 'kysely';
import type { Dialect } from '../db.js';
import { idColumn } from './001-core.js';

const flag = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(0);

// Messages to send later (§2.6): `to` is the JSON channel id or list of user ids.
export const scheduledMessages = (dialect: Dialect): Migration => ({
  async up(db: Kysely<any>) {
    await idColumn(dialect, db.schema.createTable('scheduled_messages'))
      .addColumn('realm_id', 'integer', (c) => c.notNull())
      .addColumn('sender_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('type', 'varchar(16)', (c) => c.notNull())
      .addColumn('to', 'text', (c) => c.notNull())
      .addColumn('topic', 'varchar(60)', (c) => c.notNull().defaultTo(''))
      .addColumn('content', 'text', (c) => c.notNull())
      .addColumn('rendered_content', 'text', (c) => c.notNull())
      .addColumn('scheduled_timestamp', 'bigint', (c) => c.notNull())
      .addColumn('read_by_sender', 'smallint')
      .addColumn('delivered', 'smallint', flag)
      .addColumn('failed', 'smallint', flag)
      .addColumn('failure_message', 'text')
      .addColumn('delivered_message_id', 'integer')
      .execute();
    await db.schema.createIndex('scheduled_messages_due').on('scheduled_messages').columns(['delivered', 'failed', 'scheduled_timestamp']).execute();
    await db.schema.createIndex('scheduled_messages_sender').on('scheduled_messages').column('sender_id').execute();
  },
});
