import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../db.js';

// One presence row per user; `last_update_id` comes from a per-organization sequence, so clients can ask for
// what changed since the id they last saw.
export const presence = (_dialect: Dialect): Migration => ({
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('user_presence')
      .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id'))
      .addColumn('realm_id', 'integer', (c) => c.notNull())
      .addColumn('last_active_time', 'bigint')
      .addColumn('last_connected_time', 'bigint', (c) => c.notNull())
      .addColumn('last_update_id', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('user_presence_realm_update').on('user_presence').columns(['realm_id', 'last_update_id']).execute();
    await db.schema
      .createTable('presence_sequence')
      .addColumn('realm_id', 'integer', (c) => c.primaryKey())
      .addColumn('last_update_id', 'bigint', (c) => c.notNull())
      .execute();
  },
});
