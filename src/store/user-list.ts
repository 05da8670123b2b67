// Every user of an organization, in id order: read by most of what fans out (a channel's readers, mentions,
// register's realm_users), cached until a user changes — and in a large organization users change all the time
// (names, settings, roles), so what a change costs is what matters.
import { sql } from 'kysely';
import type { Db } from './db.js';
import { cached, cacheMap, deepFreeze, isSnapshot, processMemory, readsCommitted } from './cache.js';
import { toUser, USER_COLUMNS, type User } from './user-rows.js';

const usersByRealm = cacheMap<number, User[]>('users');

// Read in pages, each made ready for the cache (frozen) as it arrives: an organization of 50,000 users read and
// frozen in one piece held the event loop for half a second, at every change of the users table.
const USER_PAGE = 5000;

export async function listUsers(db: Db, realmId: number): Promise<User[]> {
  return cached(db, usersByRealm, realmId, async () => (await usersByVersion(db, realmId)) ?? readUsers(db, realmId, isSnapshot(db) ? (u) => u : deepFreeze));
}

export async function findUsers(db: Db, realmId: number, ids: number[]): Promise<User[]> {
  const out: User[] = [];
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db.selectFrom('users').select(USER_COLUMNS).where('realm_id', '=', realmId).where('id', 'in', ids.slice(i, i + 500)).execute();
    out.push(...rows.map(toUser));
  }
  return out;
}

// `+realm_id`: the reads below walk the table in id order; through the (realm_id, …) indexes SQLite sorted them.
const inRealm = (realmId: number) => sql<boolean>`+${sql.ref('realm_id')} = ${realmId}`;

// Every user of the organization in id order, read in pages, each passed through `keep` (frozen when the process
// shares them).
async function readUsers(db: Db, realmId: number, keep: (u: User) => User): Promise<User[]> {
  const users: User[] = [];
  for (let after = 0; ; ) {
    const rows = await db.selectFrom('users').select(USER_COLUMNS).where(inRealm(realmId)).where('id', '>', after).orderBy('id').limit(USER_PAGE).execute();
    for (const r of rows) users.push(keep(toUser(r)));
    if (rows.length < USER_PAGE) return users;
    after = rows[rows.length - 1].id;
  }
}

// Users are kept by ranges of ids. Every change of a row raises its row_version by one (migration 039) and rows
// are never deleted, so a range's count and sum of versions grow with every change in it: equal figures are the
// same rows at the same versions.
export const USER_RANGE = 1024;
// Past this many changed ranges, one query reads every version rather than one query a range.
const RANGE_QUERIES = 8;
type Range = { signature: string; users: User[] };
interface Kept {
  rows: Map<number, { version: number; user: User }>;
  ranges: Map<number, Map<number, Range>>; // by organization, by range
}
const KEPT_USERS = {};

// The users as `db` sees them, from what this process kept: one query of each range's figures (50 rows for 50,000
// users), then the versions of the ranges that changed and the whole rows only of users changed since this
// process last read them. Nothing is kept that a transaction read while the users were being written: it may
// never be committed. Undefined where the process keeps nothing.
async function usersByVersion(db: Db, realmId: number): Promise<User[] | undefined> {
  const kept = processMemory<Kept>(db, KEPT_USERS, () => ({ rows: new Map(), ranges: new Map() }));
  if (!kept) return undefined;
  const committedBefore = readsCommitted(db, 'users');
  const committed = () => committedBefore && readsCommitted(db, 'users');
  const figures = await db.selectFrom('users').where(inRealm(realmId))
    .select([sql<number>`id / ${sql.lit(USER_RANGE)}`.as('range'), sql<number>`count(*)`.as('n'), sql<number>`sum(row_version)`.as('v')])
    .groupBy(sql`id / ${sql.lit(USER_RANGE)}`).orderBy('range').execute();
  // Taken before any wait: another reader, older or newer, may replace kept ranges meanwhile.
  const keptRanges = kept.ranges.get(realmId);
  const ranges = figures.map((f) => {
    const signature = `${Number(f.n)} ${Number(f.v)}`;
    const k = keptRanges?.get(Number(f.range));
    return { range: Number(f.range), signature, users: k?.signature === signature ? k.users : null };
  });
  const changed = ranges.filter((r) => !r.users);
  if (changed.length) await readRanges(db, realmId, kept, changed, committed);
  if (committed()) {
    kept.ranges.set(realmId, new Map(ranges.map((r) => [r.range, { signature: r.signature, users: r.users! }])));
  }
  const list = ranges.flatMap((r) => r.users!);
  partsOfList.set(list, new Map(ranges.map((r) => [r.range, r.users!])));
  // Its users are frozen already: frozen itself, the cache does not walk 50,000 of them to freeze it.
  if (!isSnapshot(db)) Object.freeze(list);
  return list;
}

// The parts a list was made of, by range of ids (USER_RANGE apart): what is derived from a part (an index by id
// or by name) serves every later list that shares it, so a change costs a part's worth. Undefined for a list read
// whole.
const partsOfList = new WeakMap<User[], Map<number, User[]>>();
export const listParts = (list: User[]) => partsOfList.get(list);

// Fills in `users` of each range: the kept rows at their version, the others read.
async function readRanges(db: Db, realmId: number, kept: Kept, changed: { range: number; users: User[] | null }[], committed: () => boolean): Promise<void> {
  const versionsIn = (from: number, to?: number) => {
    const q = db.selectFrom('users').select(['id', 'row_version']).where(inRealm(realmId)).where('id', '>=', from);
    return (to === undefined ? q : q.where('id', '<', to)).orderBy('id').execute();
  };
  const wanted = new Set(changed.map((c) => c.range));
  const versions = changed.length > RANGE_QUERIES
    ? (await versionsIn(0)).filter((v) => wanted.has(Math.floor(v.id / USER_RANGE)))
    : (await Promise.all(changed.map((c) => versionsIn(c.range * USER_RANGE, (c.range + 1) * USER_RANGE)))).flat();
  // Compared before any wait, as above.
  const found = new Map<number, User>();
  const stale: number[] = [];
  for (const v of versions) {
    const k = kept.rows.get(v.id);
    if (k?.version === Number(v.row_version)) found.set(v.id, k.user);
    else stale.push(v.id);
  }
  const fresh = stale.length > USER_PAGE ? await readUsers(db, realmId, deepFreeze) : (await findUsers(db, realmId, stale)).map(deepFreeze);
  const keep = committed();
  const versionOf = new Map(versions.map((v) => [v.id, Number(v.row_version)]));
  for (const u of fresh) {
    const version = versionOf.get(u.id);
    if (version === undefined) continue;
    found.set(u.id, u);
    if (keep) kept.rows.set(u.id, { version, user: u });
  }
  const byRange = new Map<number, User[]>(changed.map((c) => [c.range, (c.users = [])]));
  for (const v of versions) byRange.get(Math.floor(v.id / USER_RANGE))!.push(found.get(v.id)!);
  for (const part of byRange.values()) Object.freeze(part); // shared by every list made of it
}
