import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../db.js';
import { idColumn } from './001-core.js';

// Drafts synchronised between a user's clients (§2.5): `to` holds the JSON list of channel or user ids.
export const drafts = (dialect: Dialect): Migration => ({
  async up(db: Kysely<any>) {
    await idColumn(dialect, db.schema.createTable('drafts'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('type', 'varchar(16)', (c) => c.notNull())
      .addColumn('to', 'text', (c) => c.notNull())
      .addColumn('topic', 'varchar(60)', (c) => c.notNull())
      .addColumn('content', 'text', (c) => c.notNull())
      .addColumn('timestamp', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('drafts_user').on('drafts').column('user_id').execute();
  },
});
