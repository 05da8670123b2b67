import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../db.js';

// What the upload quota counts besides finished uploads: resumable uploads in progress (one row per upload,
// holding its declared length from the moment it starts), and custom emoji images. Emoji stored before this
// migration count as empty.
export const uploadSpace = (_dialect: Dialect): Migration => ({
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('staged_uploads')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('realm_id', 'integer', (c) => c.notNull().references('realms.id'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('size', 'bigint', (c) => c.notNull())
      .addColumn('created', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('staged_uploads_realm').on('staged_uploads').column('realm_id').execute();
    await db.schema.createIndex('staged_uploads_user').on('staged_uploads').column('user_id').execute();
    await db.schema.createIndex('staged_uploads_created').on('staged_uploads').column('created').execute();
    await db.schema.alterTable('realm_emoji').addColumn('size', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
  },
});
