import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../db.js';

// A user group's six permission settings, as one JSON object of group-setting values.
export const groupSettings = (_dialect: Dialect): Migration => ({
  async up(db: Kysely<any>) {
    await db.schema.alterTable('user_groups').addColumn('group_settings', 'text', (c) => c.notNull().defaultTo('{}')).execute();
  },
});
