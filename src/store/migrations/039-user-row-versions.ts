import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../db.js';

// Every change of a user's row takes the next `row_version`, by a trigger, whichever path writes it: a register
// snapshot reads the 50,000 users' (id, row_version) pairs and the whole rows only of those that changed since
// this process last read them (src/store/users.ts), instead of reading and copying every row each time.
export const userRowVersions = (dialect: Dialect): Migration => ({
  async up(db: Kysely<any>) {
    await db.schema.alterTable('users').addColumn('row_version', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    if (dialect === 'postgres') {
      await sql`create function parlance_bump_user_row_version() returns trigger language plpgsql as $$
        begin
          new.row_version := old.row_version + 1;
          return new;
        end $$`.execute(db);
      await sql`create trigger users_row_version before update on users for each row execute function parlance_bump_user_row_version()`.execute(db);
    } else {
      // The trigger's own update does not fire it again (no recursive triggers), and its condition is false then.
      await sql`create trigger users_row_version after update on users for each row when new.row_version = old.row_version
        begin update users set row_version = old.row_version + 1 where id = new.id; end`.execute(db);
    }
  },
});
