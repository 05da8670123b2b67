import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../db.js';
import { idColumn } from './001-core.js';

// Integrations: the queue of outgoing-webhook deliveries (written in the transaction of the message that
// triggers them, so none is lost to a crash), and each channel's e-mail gateway token.
export const integrations = (dialect: Dialect): Migration => ({
  async up(db: Kysely<any>) {
    await idColumn(dialect, db.schema.createTable('webhook_deliveries'))
      .addColumn('realm_id', 'integer', (c) => c.notNull().references('realms.id'))
      .addColumn('bot_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('message_id', 'integer', (c) => c.notNull())
      .addColumn('trigger', 'varchar(20)', (c) => c.notNull())
      // How many bot replies led to the triggering message (0: a person's message).
      .addColumn('depth', 'integer', (c) => c.notNull().defaultTo(0))
      // The message as the payload carries it (JSON), as it was sent.
      .addColumn('message', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      // Milliseconds: retries are seconds apart.
      .addColumn('next_attempt', 'bigint', (c) => c.notNull())
      .addColumn('created', 'bigint', (c) => c.notNull())
      .addColumn('done_at', 'bigint')
      .addColumn('last_error', 'text')
      .execute();
    await db.schema.createIndex('webhook_deliveries_due').on('webhook_deliveries').columns(['done_at', 'next_attempt']).execute();

    await db.schema
      .createTable('channel_email_tokens')
      .addColumn('stream_id', 'integer', (c) => c.primaryKey().references('streams.id'))
      .addColumn('realm_id', 'integer', (c) => c.notNull().references('realms.id'))
      .addColumn('token', 'varchar(32)', (c) => c.notNull().unique())
      .addColumn('created', 'bigint', (c) => c.notNull())
      .execute();
  },
});
