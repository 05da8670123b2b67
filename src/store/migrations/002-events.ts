import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../db.js';
import { idColumn } from './001-core.js';

// The event log is the outbox every action writes in its own transaction; server processes deliver from it to
// their in-memory queues. Queue descriptors are rows so that queues outlive a restart or a crash: their events
// are replayed from the log.
export const events = (dialect: Dialect): Migration => ({
  async up(db: Kysely<any>) {
    await idColumn(dialect, db.schema.createTable('events'))
      .addColumn('realm_id', 'integer', (c) => c.notNull())
      .addColumn('created', 'bigint', (c) => c.notNull())
      .addColumn('event', 'text', (c) => c.notNull())
      .addColumn('users', 'text') // JSON recipients; NULL means every user of the organization
      .execute();

    await db.schema
      .createTable('event_queues')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('realm_id', 'integer', (c) => c.notNull())
      .addColumn('user_id', 'integer', (c) => c.notNull())
      .addColumn('options', 'text', (c) => c.notNull())
      .addColumn('created', 'bigint', (c) => c.notNull())
      .addColumn('last_poll', 'bigint', (c) => c.notNull())
      .addColumn('idle_timeout', 'integer', (c) => c.notNull())
      .addColumn('base_event_id', 'bigint', (c) => c.notNull())
      .addColumn('acked_event_id', 'bigint', (c) => c.notNull())
      .addColumn('last_id', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('event_queues_user').on('event_queues').column('user_id').execute();
  },
});
