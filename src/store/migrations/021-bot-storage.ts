import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../db.js';

// Bot storage (the reference's BotStorageData): string values under string keys, per user. Keys may be long,
// longer than an index entry may be (PostgreSQL refuses b-tree entries past about 2,700 bytes), so the key is
// unique by its SHA-256; `size` is the entry's length in characters (key and value), the unit of the limit.
export const botStorage = (_dialect: Dialect): Migration => ({
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('bot_storage')
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('key_hash', 'varchar(64)', (c) => c.notNull())
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('size', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('bot_storage_pk', ['user_id', 'key_hash'])
      .execute();
  },
});
