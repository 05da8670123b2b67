import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../db.js';

// Browser sessions of the web app (the reference's Django sessions). The cookie holds a random token; only its
// SHA-256 is stored, so that a copy of the database logs nobody in. Each session has its own CSRF token.
export const sessions = (_dialect: Dialect): Migration => ({
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('sessions')
      .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('realm_id', 'integer', (c) => c.notNull().references('realms.id'))
      .addColumn('csrf_token', 'varchar(64)', (c) => c.notNull())
      .addColumn('created', 'bigint', (c) => c.notNull())
      .addColumn('expires', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();
    await db.schema.createIndex('sessions_expires').on('sessions').column('expires').execute();
  },
});
