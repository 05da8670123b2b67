import type { ColumnDefinitionBuilder, Kysely, Migration } from 'kysely';
import type { Dialect } from '../db.js';
import { idColumn } from './001-core.js';

// Saved snippets (feature level 297) and navigation views (feature level 390), both per user (§2.9).
export const snippetsAndViews = (dialect: Dialect): Migration => ({
  async up(db: Kysely<any>) {
    await idColumn(dialect, db.schema.createTable('saved_snippets'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('title', 'varchar(60)', (c) => c.notNull())
      .addColumn('content', 'text', (c) => c.notNull())
      .addColumn('date_created', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('saved_snippets_user').on('saved_snippets').column('user_id').execute();
    await idColumn(dialect, db.schema.createTable('navigation_views'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('fragment', 'varchar(200)', (c) => c.notNull())
      .addColumn('is_pinned', 'smallint', (c: ColumnDefinitionBuilder) => c.notNull())
      .addColumn('name', 'varchar(100)')
      .addUniqueConstraint('navigation_views_user_fragment', ['user_id', 'fragment'])
      .execute();
  },
});
