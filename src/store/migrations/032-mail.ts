import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../db.js';
import { idColumn } from './001-core.js';

// Password reset tokens (only their hash is kept; spent or expired ones are refused) and the missed-message
// notifications waiting for their batch's mail (kept in the database, so a restart loses none).
export const mail = (dialect: Dialect): Migration => ({
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('password_resets')
      .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created', 'bigint', (c) => c.notNull())
      .addColumn('expires', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('password_resets_user').on('password_resets').column('user_id').execute();

    await idColumn(dialect, db.schema.createTable('missed_message_notices'))
      .addColumn('realm_id', 'integer', (c) => c.notNull().references('realms.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('message_id', 'integer', (c) => c.notNull())
      // What made it worth a mail: 'dm', 'mention', 'wildcard', 'followed'.
      .addColumn('reason', 'varchar(16)', (c) => c.notNull())
      .addColumn('due', 'bigint', (c) => c.notNull())
      .addUniqueConstraint('missed_message_notices_once', ['user_id', 'message_id'])
      .execute();
    await db.schema.createIndex('missed_message_notices_due').on('missed_message_notices').columns(['due', 'user_id']).execute();
  },
});
