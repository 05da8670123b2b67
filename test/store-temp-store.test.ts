// SQLite's statement journals (and other temporary data) stay in memory once the migrations are done: a message's
// multi-row recipient insert otherwise spills its journal to a temporary file in every transaction (issue 20,
// BENCHMARKS.md "The cost of a message"). PostgreSQL has no such setting.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { openDatabase, type Database } from '../src/store/open.js';
import { freshDatabase, type TestDatabase } from './helpers/database.js';

let where: TestDatabase;
let store: Database;

before(async () => {
  where = await freshDatabase();
  store = await openDatabase(where);
});
after(async () => {
  await store.close();
  await where.drop();
});

test('temporary data of the serving connection is kept in memory (SQLite)', { skip: !!process.env.DATABASE_URL && 'SQLite only' }, async () => {
  const { rows } = await sql<{ temp_store: number }>`pragma temp_store`.execute(store.db);
  assert.equal(rows[0].temp_store, 2); // 2 = MEMORY
});
