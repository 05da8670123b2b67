import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../db.js';
import { idColumn } from './001-core.js';

// The log of changes to cached tables (src/store/tracking.ts writes it, src/store/cache.ts reads it): one row
// per transaction that wrote any, naming the tables, so that every process sharing the database drops what it
// cached of them. `origin` names the writing process, which dropped its own cache at the commit.
export const cacheChanges = (dialect: Dialect): Migration => ({
  async up(db: Kysely<any>) {
    await idColumn(dialect, db.schema.createTable('cache_changes'))
      .addColumn('created', 'bigint', (c) => c.notNull())
      .addColumn('origin', 'varchar(64)', (c) => c.notNull())
      .addColumn('tables', 'varchar(2000)', (c) => c.notNull())
      .execute();
  },
});
