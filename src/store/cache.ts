// What a serving process keeps in memory of rows that are read on every request and rarely change
// (organizations, users and their API keys, groups and membership, channels, subscriptions, linkifiers, custom
// emoji, alert words, muted users), and how it stays exact when other processes write the same database.
//
// Every transaction that writes one of these tables logs the tables in `cache_changes`, in that transaction
// (src/store/tracking.ts). The writing process forgets its cached rows of those tables at the commit; every
// other process forgets them when it reads the log, which it does at the start of each request (`syncCaches`)
// and of each background job:
// - SQLite: when the file has changed under another connection (PRAGMA data_version, no query otherwise); also
//   at the start of each transaction;
// - PostgreSQL: with one small query, which the requests arriving while it runs share with the next one.
// While a transaction of this process has written a table and not yet ended, reads of that table go to the
// database (the writer must see its own writes; others must not cache what may be about to change). Reads in
// snapshots (POST /register's state) always go to the database, which keeps them consistent with their log
// position. Only a serving process caches; command-line tools and tests' helpers just log their changes.
//
// Cached values are shared between requests and deeply frozen: copy before changing one.
import crypto from 'node:crypto';
import { CompiledQuery, sql, type DialectAdapter, type Kysely, type QueryResult } from 'kysely';
import type { WriteObserver } from './tracking.js';

export const CACHED_TABLES = [
  'realms', 'users', 'user_groups', 'user_group_members', 'user_group_subgroups', 'streams', 'subscriptions', 'recipients',
  'linkifiers', 'realm_emoji', 'alert_words', 'muted_users',
] as const;
export type CachedTable = (typeof CACHED_TABLES)[number];
const WATCHED: ReadonlySet<string> = new Set(CACHED_TABLES);

// A map of cached values that depend on some tables; each StoreCache holds its own entries.
export class CacheMap<K, V> {
  constructor(readonly tables: readonly CachedTable[]) {}
}

export const cacheMap = <K, V>(...tables: CachedTable[]) => new CacheMap<K, V>(tables);

// A map that grows past this is emptied (against unbounded growth from lookups of names that do not exist).
const MAX_ENTRIES = 50_000;
// The change log is pruned after an hour (pruneCacheChanges); a process that has not read it for half of that
// forgets everything rather than risk missing pruned rows.
export const CHANGE_LOG_KEEP_SECONDS = 3600;
const FORGET_ALL_AFTER_MS = (CHANGE_LOG_KEEP_SECONDS * 1000) / 2;

type ChangeRow = { id: number; origin: string; tables: string };

export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

export class StoreCache implements WriteObserver {
  readonly origin = crypto.randomUUID();
  enabled = false;
  private applied = 0; // the highest cache_changes id this process has read
  private lastRead = Date.now();
  private generations = new Map<string, number>();
  private inFlight = new Map<string, number>();
  private maps = new Map<CacheMap<unknown, unknown>, Map<unknown, unknown>>();
  private detected = 0; // SQLite: changes by other connections noticed …
  private caughtUp = 0; // … and how many of them a completed read of the log covers
  private checking: Promise<void> | null = null;
  private nextCheck: Promise<void> | null = null;

  // SQLite: `changedElsewhere` tells whether another connection has committed since it was last asked.
  // PostgreSQL: `logPosition` reads the newest change id.
  constructor(private changedElsewhere: (() => boolean) | null, private logPosition?: () => Promise<number>) {}

  watches(table: string): boolean {
    return WATCHED.has(table);
  }

  // Whether a transaction that wrote the table has yet to end.
  writing(table: string): boolean {
    return (this.inFlight.get(table) ?? 0) > 0;
  }

  written(table: string): void {
    this.inFlight.set(table, (this.inFlight.get(table) ?? 0) + 1);
    this.forget(table);
  }

  ended(tables: ReadonlySet<string>): void {
    for (const t of tables) {
      this.forget(t);
      this.inFlight.set(t, this.inFlight.get(t)! - 1);
    }
  }

  async began(run: (query: CompiledQuery) => Promise<QueryResult<unknown>>): Promise<void> {
    await this.catchUp(async (after) => (await run(CompiledQuery.raw('select id, origin, tables from cache_changes where id > ? order by id', [after]))).rows as ChangeRow[]);
  }

  private forget(table: string): void {
    this.generations.set(table, (this.generations.get(table) ?? 0) + 1);
    for (const [desc, entries] of this.maps) if (desc.tables.includes(table as CachedTable)) entries.clear();
  }

  private apply(rows: ChangeRow[]): void {
    if (Date.now() - this.lastRead > FORGET_ALL_AFTER_MS) for (const t of CACHED_TABLES) this.forget(t);
    this.lastRead = Date.now();
    for (const r of rows) {
      if (r.origin !== this.origin) for (const t of r.tables.split(',')) this.forget(t);
      this.applied = Math.max(this.applied, Number(r.id));
    }
  }

  private async readLog(db: Kysely<any>): Promise<ChangeRow[]> {
    return (await sql<ChangeRow>`select id, origin, tables from cache_changes where id > ${this.applied} order by id`.execute(db)).rows;
  }

  // SQLite: reads the log when another connection has committed since the last read began. Each caller reads
  // it itself, in its own context (a transaction cannot wait for a read that waits for its connection).
  private behind(): boolean {
    if (!this.enabled || !this.changedElsewhere) return false;
    if (this.changedElsewhere()) this.detected++;
    return this.caughtUp !== this.detected;
  }

  private catchUp(read: (after: number) => Promise<ChangeRow[]>): Promise<void> | void {
    if (this.behind()) return this.readAndApply(read);
  }

  private async readAndApply(read: (after: number) => Promise<ChangeRow[]>): Promise<void> {
    const covers = this.detected;
    this.apply(await read(this.applied));
    this.caughtUp = Math.max(this.caughtUp, covers);
  }

  // Every change committed before the call is applied when it resolves.
  sync(db: Kysely<any>): Promise<void> | void {
    if (!this.enabled) return;
    if (this.changedElsewhere) return this.syncSqlite(db);
    if (!this.checking) {
      this.checking = this.check(db).finally(() => (this.checking = null));
      return this.checking;
    }
    // A check already under way may have begun before this call: wait for the next one, which many share.
    this.nextCheck ??= this.checking.then(() => {
      this.nextCheck = null;
      return this.sync(db);
    });
    return this.nextCheck;
  }

  // PRAGMA data_version costs a lock of the shared memory (a few system calls), so requests share checks: the
  // first one handled in a turn of the event loop checks at once; the others handled in that turn, which may
  // have arrived after that check, wait for one made when the turn's I/O callbacks are done (setImmediate).
  private syncSqlite(db: Kysely<any>): Promise<void> | void {
    if (!this.checkedThisTurn) {
      this.checkedThisTurn = true;
      this.nextTurnCheck();
      return this.catchUp(() => this.readLog(db));
    }
    if (!this.turnCheck) {
      let settle!: (p: Promise<void> | void) => void;
      this.turnCheck = { db, promise: new Promise<void>((resolve) => (settle = resolve)), settle };
    }
    return this.turnCheck.promise;
  }

  private checkedThisTurn = false;
  private turnCheck: { db: Kysely<any>; promise: Promise<void>; settle(p: Promise<void> | void): void } | null = null;

  private nextTurnCheck(): void {
    setImmediate(() => {
      const waiting = this.turnCheck;
      this.turnCheck = null;
      this.checkedThisTurn = false;
      waiting?.settle(this.catchUp(() => this.readLog(waiting.db)));
    });
  }

  private async check(db: Kysely<any>): Promise<void> {
    if ((await this.logPosition!()) > this.applied) this.apply(await this.readLog(db));
    else this.lastRead = Date.now();
  }

  async readMany<K, V>(desc: CacheMap<K, V>, keys: K[], load: (missing: K[]) => Promise<Map<K, V>>): Promise<Map<K, V>> {
    if (desc.tables.some((t) => this.inFlight.get(t))) return load(keys);
    const entries = entriesOf(this.maps, desc);
    const found = new Map<K, V>();
    const missing = keys.filter((k) => {
      const hit = entries.get(k);
      if (hit !== undefined) found.set(k, hit);
      return hit === undefined;
    });
    if (!missing.length) return found;
    const generations = desc.tables.map((t) => this.generations.get(t));
    const loaded = await load(missing);
    // Kept only if nothing changed these tables while they were read.
    const keep = desc.tables.every((t, i) => this.generations.get(t) === generations[i] && !this.inFlight.get(t));
    if (keep && entries.size + loaded.size > MAX_ENTRIES) entries.clear();
    for (const [k, v] of loaded) found.set(k, keep ? store(entries, k, v) : v);
    return found;
  }

  async read<K, V>(desc: CacheMap<K, V>, key: K, load: () => Promise<V>): Promise<V> {
    if (desc.tables.some((t) => this.inFlight.get(t))) return load();
    const entries = entriesOf(this.maps, desc);
    const hit = entries.get(key);
    if (hit !== undefined) return hit;
    const generations = desc.tables.map((t) => this.generations.get(t));
    const value = await load();
    if (!desc.tables.every((t, i) => this.generations.get(t) === generations[i] && !this.inFlight.get(t))) return value;
    if (entries.size >= MAX_ENTRIES) entries.clear();
    return store(entries, key, value);
  }
}

type Entries = Map<CacheMap<unknown, unknown>, Map<unknown, unknown>>;

function entriesOf<K, V>(maps: Entries, desc: CacheMap<K, V>): Map<K, V> {
  let entries = maps.get(desc as CacheMap<unknown, unknown>) as Map<K, V> | undefined;
  if (!entries) maps.set(desc as CacheMap<unknown, unknown>, (entries = new Map()) as Map<unknown, unknown>);
  return entries;
}

function store<K, V>(entries: Map<K, V>, key: K, value: V): V {
  if (value !== undefined) entries.set(key, deepFreeze(value));
  return value;
}

const caches = new WeakMap<DialectAdapter, StoreCache>();
// A snapshot (POST /register's state) never reads the cache, but reads what it read before from a memory of its
// own, exact within its snapshot: blocks that need the same users or channels read them once.
const snapshots = new WeakMap<Kysely<any>, Entries>();

export function registerCache(adapter: DialectAdapter, cache: StoreCache): void {
  caches.set(adapter, cache);
}

const cacheOf = (db: Kysely<any>) => caches.get(db.getExecutor().adapter);

// Memory a serving process keeps for one database beside its cache (the same for its read pool), under `key`;
// undefined where nothing is kept (command-line tools, tests' helpers).
const memories = new WeakMap<StoreCache, Map<object, unknown>>();
export function processMemory<T>(db: Kysely<any>, key: object, make: () => T): T | undefined {
  const cache = cacheOf(db);
  if (!cache?.enabled) return undefined;
  let m = memories.get(cache);
  if (!m) memories.set(cache, (m = new Map()));
  if (!m.has(key)) m.set(key, make());
  return m.get(key) as T;
}

// The value for `key`, from memory when this process may answer from it, else from `load` (a query on `db`).
// `load` must return `null`, not undefined, for "no such row" (that answer is cached too).
export async function cached<K, V>(db: Kysely<any>, desc: CacheMap<K, V>, key: K, load: () => Promise<V>): Promise<V> {
  const memo = snapshots.get(db);
  if (memo) {
    const entries = entriesOf(memo, desc);
    const hit = entries.get(key);
    if (hit !== undefined) return hit;
    // Not frozen: a snapshot's memory lives for one request (freezing 50,000 users costs 30 ms of the loop).
    const value = await load();
    if (value !== undefined) entries.set(key, value);
    return value;
  }
  const cache = cacheOf(db);
  return cache?.enabled ? cache.read(desc, key, load) : load();
}

// The same for many keys at once; `load` reads those not in memory, in one query.
export async function cachedMany<K, V>(db: Kysely<any>, desc: CacheMap<K, V>, keys: K[], load: (missing: K[]) => Promise<Map<K, V>>): Promise<Map<K, V>> {
  const memo = snapshots.get(db);
  if (memo) {
    const entries = entriesOf(memo, desc);
    const missing = keys.filter((k) => !entries.has(k));
    if (missing.length) for (const [k, v] of await load(missing)) if (v !== undefined) entries.set(k, v);
    return new Map(keys.filter((k) => entries.has(k)).map((k) => [k, entries.get(k)!]));
  }
  const cache = cacheOf(db);
  return cache?.enabled ? cache.readMany(desc, keys, load) : load(keys);
}

// Before answering a request: every change committed by any process before this call is taken into account.
export function syncCaches(db: Kysely<any>): Promise<void> | void {
  return cacheOf(db)?.sync(db);
}

// Whether what `db` reads of the table now is committed: outside a write transaction, or in one while no
// transaction (its own included) has written the table.
export const readsCommitted = (db: Kysely<any>, table: CachedTable) => isSnapshot(db) || !db.isTransaction || !cacheOf(db)?.writing(table);

// Whether `db` is a snapshot: what it reads stays its own (nothing to freeze for sharing).
export const isSnapshot = (db: Kysely<any>) => snapshots.has(db);

// Reads in this transaction see its snapshot only, never the cache.
export function markSnapshot(tx: Kysely<any>): void {
  snapshots.set(tx, new Map());
}

export async function pruneCacheChanges(db: Kysely<any>, before: number): Promise<void> {
  await sql`delete from cache_changes where created < ${before}`.execute(db);
}
