import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../db.js';

// Pending e-mail address changes, completed by following the confirmation link.
export const emailChanges = (_dialect: Dialect): Migration => ({
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('email_changes')
      .addColumn('key', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('new_email', 'varchar(254)', (c) => c.notNull())
      .addColumn('created', 'bigint', (c) => c.notNull())
      .execute();
  },
});
