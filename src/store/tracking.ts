// Writes to cached tables are found here, below every store function, in the SQL each statement sends: no
// writer can forget them. A transaction that wrote any is logged in `cache_changes` just before its commit, in
// the same transaction (so the log holds exactly the changes that exist), and the observer (src/store/cache.ts)
// hears of the tables while the transaction is open and again when it ends. A single statement outside a
// transaction that writes one becomes a transaction of its own, for the same reason.
import {
  CompiledQuery, type DatabaseConnection, type DatabaseIntrospector, type Dialect, type DialectAdapter, type Driver, type Kysely,
  type QueryCompiler, type QueryResult, type TransactionSettings,
} from 'kysely';
import { EVENT_LOG_LOCK } from './events.js';
import { pace } from '../lib/pace.js';

export interface WriteObserver {
  readonly origin: string; // this process, in the log
  watches(table: string): boolean;
  written(table: string): void; // an open transaction wrote the table
  ended(tables: ReadonlySet<string>): void; // that transaction committed or rolled back
  began(run: (query: CompiledQuery) => Promise<QueryResult<unknown>>): Promise<void>; // a transaction began
}

const WRITE = /\b(?:insert\s+(?:or\s+\w+\s+)?into|update|delete\s+from)\s+"?([A-Za-z_][A-Za-z0-9_]*)"?/gi;

// Every table a statement may write (a few false positives, such as `do update set`, are harmless).
export function writtenTables(text: string): string[] {
  if (/^\s*select\b/i.test(text)) return [];
  return [...text.matchAll(WRITE)].map((m) => m[1].toLowerCase());
}

class TrackedConnection implements DatabaseConnection {
  inTransaction = false;
  writes = new Set<string>();

  constructor(readonly inner: DatabaseConnection, private driver: TrackingDriver) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    // A request that runs many queries (each at once, on SQLite) lets other requests in between (src/lib/pace.ts).
    const pause = pace();
    if (pause) await pause;
    const tables = writtenTables(query.sql).filter((t) => this.driver.observer.watches(t));
    if (!tables.length) return this.inner.executeQuery(query);
    if (this.inTransaction) {
      this.mark(tables);
      return this.inner.executeQuery(query);
    }
    await this.driver.beginTransaction(this, {});
    try {
      this.mark(tables);
      const result = await this.inner.executeQuery<R>(query);
      await this.driver.commitTransaction(this);
      return result;
    } catch (err) {
      if (this.inTransaction) await this.driver.rollbackTransaction(this);
      throw err;
    }
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery(query, chunkSize);
  }

  private mark(tables: string[]): void {
    for (const t of tables) {
      if (this.writes.has(t)) continue;
      this.writes.add(t);
      this.driver.observer.written(t);
    }
  }

  end(): void {
    this.inTransaction = false;
    const writes = this.writes;
    this.writes = new Set();
    if (writes.size) this.driver.observer.ended(writes);
  }
}

class TrackingDriver implements Driver {
  private connections = new WeakMap<DatabaseConnection, TrackedConnection>();

  constructor(private inner: Driver, readonly observer: WriteObserver, private dialect: 'sqlite' | 'postgres') {}

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const inner = await this.inner.acquireConnection();
    let c = this.connections.get(inner);
    if (!c) this.connections.set(inner, (c = new TrackedConnection(inner, this)));
    return c;
  }

  async beginTransaction(c: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const conn = c as TrackedConnection;
    await this.inner.beginTransaction(conn.inner, settings);
    conn.inTransaction = true;
    await this.observer.began((q) => conn.inner.executeQuery(q));
  }

  async commitTransaction(c: DatabaseConnection): Promise<void> {
    const conn = c as TrackedConnection;
    try {
      if (conn.writes.size) await conn.inner.executeQuery(this.changeRow([...conn.writes]));
      await this.inner.commitTransaction(conn.inner);
    } finally {
      // Also after a failed commit, whose outcome may be unknown: forgetting cached rows is always safe.
      conn.end();
    }
  }

  async rollbackTransaction(c: DatabaseConnection): Promise<void> {
    const conn = c as TrackedConnection;
    try {
      await this.inner.rollbackTransaction(conn.inner);
    } finally {
      conn.end();
    }
  }

  // On PostgreSQL the row takes the event log's lock, held to the commit, so that change ids commit in order
  // and a reader that saw id n has seen every change before it.
  private changeRow(tables: string[]): CompiledQuery {
    const params = [Math.floor(Date.now() / 1000), this.observer.origin, tables.sort().join(',')];
    return this.dialect === 'postgres'
      ? CompiledQuery.raw(`insert into cache_changes (created, origin, tables) select $1, $2, $3 from (select pg_advisory_xact_lock(${EVENT_LOG_LOCK})) as lock`, params)
      : CompiledQuery.raw('insert into cache_changes (created, origin, tables) values (?, ?, ?)', params);
  }

  async savepoint(c: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    await this.inner.savepoint!((c as TrackedConnection).inner, name, compile);
  }

  async rollbackToSavepoint(c: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    await this.inner.rollbackToSavepoint!((c as TrackedConnection).inner, name, compile);
  }

  async releaseSavepoint(c: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    await this.inner.releaseSavepoint!((c as TrackedConnection).inner, name, compile);
  }

  releaseConnection(c: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection((c as TrackedConnection).inner);
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

export class TrackingDialect implements Dialect {
  constructor(private inner: Dialect, private observer: WriteObserver, private dialect: 'sqlite' | 'postgres', private onAdapter: (a: DialectAdapter) => void) {}

  createAdapter(): DialectAdapter {
    const adapter = this.inner.createAdapter();
    this.onAdapter(adapter);
    return adapter;
  }

  createDriver(): Driver {
    return new TrackingDriver(this.inner.createDriver(), this.observer, this.dialect);
  }

  createQueryCompiler(): QueryCompiler {
    return this.inner.createQueryCompiler();
  }

  createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return this.inner.createIntrospector(db);
  }
}
