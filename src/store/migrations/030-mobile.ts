import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../db.js';

// What the mobile app needs beyond the core: users muted by each user (the reference's MutedUser).
export const mobile = (_dialect: Dialect): Migration => ({
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('muted_users')
      .addColumn('realm_id', 'integer', (c) => c.notNull().references('realms.id'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('muted_user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('date_muted', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('muted_users_pk', ['user_id', 'muted_user_id'])
      .execute();
    await db.schema.createIndex('muted_users_realm').on('muted_users').column('realm_id').execute();
    await db.schema.createIndex('muted_users_muted').on('muted_users').column('muted_user_id').execute();
  },
});
