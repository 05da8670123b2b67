import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../db.js';
import { idColumn } from './001-core.js';

// Custom emoji (the image lives in the data directory under `file_name`) and linkifiers, both per organization.
// A deactivated emoji keeps its row, for the reactions and messages that show it, and frees its name.
export const emojiAndLinkifiers = (dialect: Dialect): Migration => ({
  async up(db: Kysely<any>) {
    await idColumn(dialect, db.schema.createTable('realm_emoji'))
      .addColumn('realm_id', 'integer', (c) => c.notNull().references('realms.id'))
      .addColumn('name', 'varchar(100)', (c) => c.notNull())
      .addColumn('author_id', 'integer', (c) => c.references('users.id'))
      .addColumn('file_name', 'varchar(64)', (c) => c.notNull())
      .addColumn('deactivated', 'smallint', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex('realm_emoji_active_name').on('realm_emoji').columns(['realm_id', 'name']).unique().where(sql.ref('deactivated'), '=', 0).execute();

    await idColumn(dialect, db.schema.createTable('linkifiers'))
      .addColumn('realm_id', 'integer', (c) => c.notNull().references('realms.id'))
      .addColumn('pattern', 'text', (c) => c.notNull())
      .addColumn('url_template', 'text', (c) => c.notNull())
      .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex('linkifiers_realm').on('linkifiers').columns(['realm_id', 'position']).execute();
  },
});
