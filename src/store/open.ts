// The one place that opens the database: better-sqlite3 (one WAL file in the data directory) by default, or
// PostgreSQL through `pg` when DATABASE_URL is set. Everything above the store sees only Kysely<Schema>.
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect, type Dialect as KyselyDialect } from 'kysely';
import type { Logger } from 'pino';
import { registerCache, StoreCache } from './cache.js';
import { startCheckpointer } from './checkpointer.js';
import type { Db, Dialect } from './db.js';
import { migrateToLatest } from './migrate.js';
import { postgresReadPool, sqliteReadPool } from './read-pool.js';
import type { Schema } from './schema.js';
import { TrackingDialect } from './tracking.js';

export interface Database {
  db: Db;
  dialect: Dialect;
  // A serving process answers reads of rarely changing rows from memory (src/store/cache.ts), and checkpoints
  // SQLite's WAL off the event loop (src/store/checkpointer.ts).
  enableCache(): void;
  checkpointInBackground(log: Logger): void;
  // A serving process runs long reads on connections of their own (src/store/read-pool.ts); `size` of them.
  openReadPool(size: number): Db;
  close(): Promise<void>;
}

// int8 (bigint timestamps, COUNT(*)) arrives from pg as text; every value we store fits a JS number.
pg.types.setTypeParser(20, (v) => Number(v));

export interface OpenOptions {
  dataDir: string;
  databaseUrl?: string;
  poolSize?: number;
}

export async function openDatabase(opts: OpenOptions): Promise<Database> {
  let db: Db;
  let dialect: Dialect;
  let cache: StoreCache;
  let checkpointInBackground: (log: Logger) => void = () => {};
  let stopCheckpoints = async () => {};
  let makeReadPool: (size: number) => Db;
  let readPool: Db | undefined;
  let afterMigrations = () => {};
  // Every dialect is wrapped so that writes to cached tables are logged (src/store/tracking.ts).
  const tracked = (inner: KyselyDialect, cache: StoreCache) =>
    new TrackingDialect(inner, cache, dialect, (adapter) => registerCache(adapter, cache));
  if (opts.databaseUrl) {
    dialect = 'postgres';
    const databaseUrl = opts.databaseUrl;
    const pool = new pg.Pool({ connectionString: databaseUrl, max: opts.poolSize ?? 10 });
    // A dropped connection must not crash the process; the pool replaces it.
    pool.on('error', () => {});
    // The per-request check is a prepared statement sent on the pool directly: it runs for every request.
    const position = { name: 'parlance_cache_position', text: 'select coalesce(max(id), 0) as id from cache_changes' };
    cache = new StoreCache(null, async () => Number((await pool.query<{ id: number }>(position)).rows[0].id));
    db = new Kysely<Schema>({ dialect: tracked(new PostgresDialect({ pool }), cache) });
    makeReadPool = (size) => postgresReadPool(databaseUrl, size, (adapter) => registerCache(adapter, cache));
  } else {
    dialect = 'sqlite';
    fs.mkdirSync(opts.dataDir, { recursive: true });
    const file = new SQLite(path.join(opts.dataDir, 'parlance.sqlite3'));
    file.pragma('journal_mode = WAL');
    // NORMAL keeps every committed transaction across a process crash (kill -9); only a power cut could lose
    // the last ones, which FULL would protect at a large cost per commit.
    file.pragma('synchronous = NORMAL');
    file.pragma('busy_timeout = 10000');
    file.pragma('foreign_keys = ON');
    // A statement that may fail half-way through writing many rows inside a transaction keeps a copy of the
    // pages it changes (a statement journal), which past 64 KiB spills to a temporary file: for a message's 100
    // recipient rows, hundreds of writes to a file created and deleted in every transaction, 40% of the insert's
    // CPU time (BENCHMARKS.md, issue 20). It lives no longer than its statement: memory is the place for it.
    // Temporary tables and sorts go there too; set after the migrations, whose index builds sort whole tables.
    afterMigrations = () => file.pragma('temp_store = MEMORY');
    cache = new StoreCache(changeCounter(file));
    checkpointInBackground = (log) => {
      const checkpointer = startCheckpointer(file, log);
      stopCheckpoints = () => checkpointer.stop();
    };
    db = new Kysely<Schema>({ dialect: tracked(new SqliteDialect({ database: cachingStatements(file) }), cache) });
    makeReadPool = (size) => sqliteReadPool(file.name, size, (adapter) => registerCache(adapter, cache));
  }
  await migrateToLatest(db, dialect);
  afterMigrations();
  return {
    db,
    dialect,
    enableCache: () => (cache.enabled = true),
    checkpointInBackground: (log) => checkpointInBackground(log),
    openReadPool: (size) => (readPool ??= makeReadPool(size)),
    close: async () => {
      await readPool?.destroy();
      await stopCheckpoints();
      await db.destroy();
    },
  };
}

// Kysely prepares every statement anew; preparing costs about as much as running a small query, and the set of
// distinct statements is small, so keep them. Reuse is safe: better-sqlite3 runs each statement to completion.
function cachingStatements(file: SQLite.Database) {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => file.close(),
    prepare(text: string) {
      // Transactions take the write lock when they begin: a deferred one that later writes would fail at once
      // with SQLITE_BUSY when another process (the CLI) writes meanwhile, while BEGIN IMMEDIATE waits
      // (busy_timeout) for its turn.
      const sql = text === 'begin' ? 'begin immediate' : text;
      let statement = statements.get(sql);
      if (!statement) {
        if (statements.size >= 2000) statements.clear();
        statement = file.prepare(sql);
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}

// Whether another connection (another process) has committed since the last call: PRAGMA data_version, a
// read of shared memory.
function changeCounter(file: SQLite.Database): () => boolean {
  const version = file.prepare('pragma data_version').pluck();
  let last = version.get();
  return () => {
    const v = version.get();
    if (v === last) return false;
    last = v;
    return true;
  };
}
