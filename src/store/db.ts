// The database's types as every layer above sees it: Kysely<Schema>, over SQLite or PostgreSQL. Opening it
// (the drivers, the cache, migrations) is src/store/open.ts, so that this file, which the migrations and the
// rest of the store import, imports none of them.
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Schema } from './schema.js';

export type Db = Kysely<Schema>;
export type Tx = Transaction<Schema>;
export type Dialect = 'sqlite' | 'postgres';

export async function ping(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}
