// Inserts on the send path without the query builder, whose cost grows with the rows: Kysely builds and
// compiles a 100-row insert in a few hundred microseconds, for every message. Statement texts are made once
// per shape: on SQLite chunks of 1,000, 100, 10 and 1 rows (at most four prepared statements per table); on PostgreSQL one
// statement of arrays whatever the number of rows (one round trip).
import { CompiledQuery, type Kysely } from 'kysely';
import { dialectOf } from './search.js';

export type Column = [name: string, pgType: 'int4' | 'int8' | 'text'];

const texts = new Map<string, string>();

function text(key: string, make: () => string): string {
  let t = texts.get(key);
  if (t === undefined) texts.set(key, (t = make()));
  return t;
}

// Appends `rows` (values in the order of `columns`) to `table`.
export async function insertRows(db: Kysely<any>, table: string, columns: Column[], rows: unknown[][]): Promise<void> {
  if (!rows.length) return;
  const names = columns.map(([n]) => `"${n}"`).join(', ');
  if (dialectOf(db) === 'postgres') {
    const sql = text(`pg ${table} ${names}`, () => `insert into "${table}" (${names}) select * from unnest(${columns.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ')})`);
    await db.executeQuery(CompiledQuery.raw(sql, columns.map((_, i) => rows.map((r) => r[i]))));
    return;
  }
  const row = `(${columns.map(() => '?').join(', ')})`;
  for (let i = 0; i < rows.length; ) {
    const left = rows.length - i;
    // 1,000 rows of 15 columns stay well below SQLite's 32,766 parameters.
    const n = left >= 1000 && columns.length <= 30 ? 1000 : left >= 100 ? 100 : left >= 10 ? 10 : 1;
    const sql = text(`sqlite ${table} ${names} ${n}`, () => `insert into "${table}" (${names}) values ${Array(n).fill(row).join(', ')}`);
    await db.executeQuery(CompiledQuery.raw(sql, rows.slice(i, i + n).flat()));
    i += n;
  }
}

// One row, returning its generated id.
export async function insertReturningId(db: Kysely<any>, table: string, values: Record<string, unknown>): Promise<number> {
  const columns = Object.keys(values);
  const pg = dialectOf(db) === 'postgres';
  const sql = text(`${pg ? 'pg' : 'sqlite'} ${table} ${columns} returning`, () =>
    `insert into "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) values (${columns.map((_, i) => (pg ? `$${i + 1}` : '?')).join(', ')}) returning "id"`);
  const result = await db.executeQuery<{ id: number }>(CompiledQuery.raw(sql, Object.values(values)));
  return result.rows[0].id;
}
