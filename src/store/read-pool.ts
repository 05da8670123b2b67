// Reads that may be long (a channel's history, a search, POST /register's state) run on connections of their
// own, so that no one of them holds the event loop or the connection every write and short read waits for.
//
// SQLite: better-sqlite3 runs a statement to completion on the calling thread, and the serving connection is one
// (Kysely serialises every query and transaction on it). The pool is a few worker threads, each with a read-only
// connection to the same file: WAL lets them read beside the writer, each statement runs in its worker, and a
// read that begins after a commit sees it. The event loop only sends the statement and takes the rows back.
// PostgreSQL: a second pg pool, so that slow reads never take every connection of the one writes and
// authentication use; its sessions are read-only.
import { createRequire } from 'node:module';
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import {
  CompiledQuery, Kysely, PostgresDialect, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler, type DatabaseConnection,
  type DatabaseIntrospector, type Dialect, type DialectAdapter, type Driver, type QueryCompiler, type QueryResult,
} from 'kysely';
import type { Schema } from './schema.js';

// A snapshot (POST /register's state) keeps its connection for all of its reads. Snapshots may take all but one
// of a pool's connections, so that single reads (a client checking itself) never queue behind ten registers,
// and no more at once than the machine has cores: a snapshot's answer is mostly this process's work (rows turned
// into a register payload), so more of them only take turns on the event loop, and every short request waits
// behind all of them (on PostgreSQL, nine at once held a user's GET /users/me 430 ms; two at once, see B11).
class Permits {
  private waiting: (() => void)[] = [];
  constructor(private free: number) {}

  async take(): Promise<() => void> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    return () => {
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    };
  }
}

const snapshotPermits = new WeakMap<Kysely<Schema>, Permits>();

// Resolves when `db` (a read pool) may start a snapshot; the function it gives ends it. Other databases: at once.
export async function snapshotPermit(db: Kysely<any>): Promise<() => void> {
  const permits = snapshotPermits.get(db);
  return permits ? permits.take() : () => {};
}

function withPermits(db: Kysely<Schema>, size: number): Kysely<Schema> {
  snapshotPermits.set(db, new Permits(Math.max(1, Math.min(size - 1, os.availableParallelism()))));
  return db;
}

// CommonJS run by each worker; the module path comes from the parent, so it resolves wherever the process runs.
// Statements are prepared once per connection, as on the serving one.
const CHUNK = 2000;
const WORKER = `
const { workerData, parentPort } = require('node:worker_threads');
const SQLite = require(workerData.module);
const db = new SQLite(workerData.file, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 10000');
const statements = new Map();
parentPort.on('message', ({ sql, parameters }) => {
  try {
    let statement = statements.get(sql);
    if (!statement) {
      if (statements.size >= 2000) statements.clear();
      statement = db.prepare(sql);
      statements.set(sql, statement);
    }
    if (!statement.reader) return parentPort.postMessage({ rows: [], changes: statement.run(parameters).changes, done: true });
    // Rows go in parts: each part is copied into the serving thread as a task of its own, so that a large result
    // (50,000 users) does not hold its event loop while it arrives.
    const rows = statement.all(parameters);
    let i = 0;
    for (; rows.length - i > ${CHUNK}; i += ${CHUNK}) parentPort.postMessage({ rows: rows.slice(i, i + ${CHUNK}), done: false });
    parentPort.postMessage({ rows: i ? rows.slice(i) : rows, done: true });
  } catch (err) {
    parentPort.postMessage({ error: { message: String(err && err.message), code: err && err.code }, done: true });
  }
});
`;

type Reply = { rows: unknown[]; done: boolean; changes?: number; error?: { message: string; code?: string } };

class DatabaseError extends Error {
  constructor(message: string, readonly code?: string) {
    super(message);
  }
}

// One worker is one connection: Kysely leases it for a statement, or for a whole transaction (a snapshot).
class WorkerConnection implements DatabaseConnection {
  private pending: { resolve(r: QueryResult<never>): void; reject(e: unknown): void; rows: unknown[] } | null = null;
  readonly worker: Worker;

  constructor(module: string, file: string, private onExit: (c: WorkerConnection) => void) {
    this.worker = new Worker(WORKER, { eval: true, workerData: { module, file } });
    this.worker.unref();
    this.worker.on('message', (reply: Reply) => {
      const p = this.pending;
      if (!p) return;
      if (!reply.done) {
        for (const r of reply.rows) p.rows.push(r);
        return;
      }
      this.pending = null;
      if (reply.error) return p.reject(new DatabaseError(reply.error.message, reply.error.code));
      const rows = p.rows.length ? (reply.rows.forEach((r) => p.rows.push(r)), p.rows) : reply.rows;
      p.resolve({ rows: rows as never[], numAffectedRows: reply.changes === undefined ? undefined : BigInt(reply.changes) });
    });
    const fail = (err: unknown) => {
      this.pending?.reject(err);
      this.pending = null;
      this.onExit(this);
    };
    this.worker.on('error', fail);
    this.worker.on('exit', () => fail(new DatabaseError('read worker exited')));
  }

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return new Promise((resolve, reject) => {
      this.pending = { resolve: resolve as never, reject, rows: [] };
      this.worker.postMessage({ sql: query.sql, parameters: query.parameters });
    });
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new DatabaseError('the read pool does not stream');
  }
}

class WorkerPoolDriver implements Driver {
  private idle: WorkerConnection[] = [];
  private all = new Set<WorkerConnection>();
  private waiting: ((c: WorkerConnection) => void)[] = [];
  private closed = false;
  private readonly module = createRequire(import.meta.url).resolve('better-sqlite3');

  constructor(private file: string, private size: number) {}

  // Workers start as reads need them, up to the pool's size: each is an isolate of its own (about 10 MB), which
  // an idle server or one with one reader at a time need not hold.
  async init(): Promise<void> {}

  private spawn(): WorkerConnection {
    const c = new WorkerConnection(this.module, this.file, (dead) => {
      // A worker that failed is replaced, so the pool keeps its size.
      if (!this.all.delete(dead) || this.closed) return;
      this.idle = this.idle.filter((x) => x !== dead);
      this.release(this.spawn());
    });
    this.all.add(c);
    return c;
  }

  acquireConnection(): Promise<DatabaseConnection> {
    const c = this.idle.pop() ?? (this.all.size < this.size ? this.spawn() : undefined);
    if (c) return Promise.resolve(c);
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(c: WorkerConnection): void {
    const next = this.waiting.shift();
    if (next) next(c);
    else this.idle.push(c);
  }

  async releaseConnection(c: DatabaseConnection): Promise<void> {
    if (this.all.has(c as WorkerConnection)) this.release(c as WorkerConnection);
  }

  async beginTransaction(c: DatabaseConnection): Promise<void> {
    await c.executeQuery(CompiledQuery.raw('begin'));
  }

  async commitTransaction(c: DatabaseConnection): Promise<void> {
    await c.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(c: DatabaseConnection): Promise<void> {
    await c.executeQuery(CompiledQuery.raw('rollback'));
  }

  async destroy(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.all].map((c) => c.worker.terminate()));
    this.all.clear();
  }
}

class WorkerPoolDialect implements Dialect {
  constructor(private file: string, private size: number, private onAdapter: (a: DialectAdapter) => void) {}

  createAdapter(): DialectAdapter {
    const adapter = new SqliteAdapter();
    this.onAdapter(adapter);
    return adapter;
  }

  createDriver(): Driver {
    return new WorkerPoolDriver(this.file, this.size);
  }

  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }

  createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new SqliteIntrospector(db);
  }
}

// `onAdapter` lets the caller attach the store cache, so that cached rows are read from memory here too.
export function sqliteReadPool(file: string, size: number, onAdapter: (a: DialectAdapter) => void): Kysely<Schema> {
  return withPermits(new Kysely<Schema>({ dialect: new WorkerPoolDialect(file, size, onAdapter) }), size);
}

export function postgresReadPool(databaseUrl: string, size: number, onAdapter: (a: DialectAdapter) => void): Kysely<Schema> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: size, options: '-c default_transaction_read_only=on' });
  pool.on('error', () => {});
  const inner = new PostgresDialect({ pool });
  const dialect: Dialect = {
    createAdapter: () => {
      const adapter = inner.createAdapter();
      onAdapter(adapter);
      return adapter;
    },
    createDriver: () => inner.createDriver(),
    createQueryCompiler: () => inner.createQueryCompiler(),
    createIntrospector: (db) => inner.createIntrospector(db),
  };
  return withPermits(new Kysely<Schema>({ dialect }), size);
}
