import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../db.js';
import { USER_ROW_INDEXES } from '../history-indexes.js';

// Statistics PostgreSQL's planner cannot gather by itself, measured on the populated organization (B11):
// - it estimates a condition such as `(flags & 1) = 0` at half a percent of a user's rows, whatever the data: for
//   a member with 400,000 unread rows it planned register's unread block as a join of all of them and a sort
//   (380 ms) instead of a walk of the partial index newest first (29 ms). Statistics on each flag expression
//   together with the user give it the real counts, skewed users included;
// - it takes a channel's stream and recipient as independent conditions, so a channel of 8,200 messages looked
//   like 40 rows, which it read all of and sorted (110 ms) instead of walking messages_recipient to the limit
//   (0.3 ms). One determines the other, and the statistics say so.
// SQLite's planner picks these indexes by their predicates and the query's shape alone, and needs nothing.
export const plannerStatistics = (dialect: Dialect): Migration => ({
  async up(db: Kysely<any>) {
    if (dialect !== 'postgres') return;
    for (const [name, predicate] of Object.values(USER_ROW_INDEXES)) {
      const expression = /^\(flags & \d+\)/.exec(predicate)?.[0];
      if (!expression) throw new Error(`no flag expression in ${predicate}`);
      await sql`create statistics ${sql.id(`${name}_stats`)} (mcv) on user_id, ${sql.raw(expression)} from user_messages`.execute(db);
    }
    await sql`create statistics messages_channel_stats (dependencies) on stream_id, recipient_id from messages`.execute(db);
    await sql`analyze user_messages`.execute(db);
    await sql`analyze messages`.execute(db);
  },
});
