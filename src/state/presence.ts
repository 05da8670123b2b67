// The presence register block (and GET /realm/presence's data).
import { JsonText } from '../lib/json-text.js';
import { SERVER_LIMITS } from './realm-data.js';
import type { Db } from '../store/db.js';
import { presenceSince, type Presence, type PresenceRow } from '../store/presence.js';
import type { Realm } from '../store/realms.js';

// `keep` uses the process's kept rows; a register snapshot (a transaction) reads its own.
export async function presenceData(db: Db, realm: Realm, opts: DataOptions & { keep?: boolean }) {
  if (opts.keep) {
    const seq = await refreshKept(db, realm.id);
    return presenceAnswer(keptRows(keptOf(db, realm.id), opts.lastUpdateId), seq, opts);
  }
  const after = opts.lastUpdateId !== undefined && opts.lastUpdateId > 0 ? opts.lastUpdateId : 0;
  const { lastUpdateId, rows } = await presenceSince(db, realm.id, after);
  return presenceAnswer(rows, lastUpdateId, opts);
}

// `accessible`: the users the viewer may access (null: everyone), as accessibleBy tells.
export type DataOptions = { lastUpdateId?: number; historyLimitDays: number; modern: boolean; accessible: Set<number> | null };

// Brings the kept rows up to date with one statement; returns the sequence position they are now true to.
export async function refreshKept(db: Db, realmId: number): Promise<number> {
  const c = keptOf(db, realmId);
  const { lastUpdateId, rows } = await presenceSince(db, realmId, c.seq);
  rows.sort((a, b) => a.lastUpdateId - b.lastUpdateId);
  for (const r of rows) keep(c, r);
  c.seq = Math.max(c.seq, lastUpdateId);
  return lastUpdateId;
}

// Presence of the organization's active human users, changed since an id or seen within the history limit, from
// rows true to sequence position `seq`.
export function presenceAnswer(rows: Iterable<KeptRow>, seq: number, opts: DataOptions) {
  const now = Math.floor(Date.now() / 1000);
  const after = opts.lastUpdateId !== undefined && opts.lastUpdateId > 0 ? opts.lastUpdateId : undefined;
  const since = now - opts.historyLimitDays * 86400;
  const entries: string[] = [];
  for (const p of rows) {
    if (!p.visible || (after !== undefined ? p.lastUpdateId <= after : p.lastConnectedTime < since)) continue;
    if (opts.accessible && !opts.accessible.has(p.userId)) continue;
    entries.push(opts.modern ? (p.modern ??= `"${p.userId}":${JSON.stringify(modernPresence(p))}`) : (p.legacy ??= `${JSON.stringify(p.email)}:${JSON.stringify(legacyPresence(p))}`));
  }
  return {
    presences: new JsonText(`{${entries.join(',')}}`),
    presence_last_update_id: seq === 0 ? Math.max(-1, opts.lastUpdateId ?? -1) : Math.max(seq, opts.lastUpdateId ?? -1),
    server_timestamp: Date.now() / 1000,
  };
}

export function keptOf(db: Db, realmId: number): Kept {
  let realms = kept.get(db);
  if (!realms) kept.set(db, (realms = new Map()));
  let c = realms.get(realmId);
  if (!c) realms.set(realmId, (c = { seq: 0, rows: new Map(), log: [] }));
  return c;
}

export const OFFLINE_THRESHOLD = SERVER_LIMITS.server_presence_offline_threshold_seconds;

export function modernPresence(p: Presence) {
  return { active_timestamp: p.lastActiveTime ?? 0, idle_timestamp: p.lastConnectedTime };
}

export function legacyPresence(p: Presence) {
  const active = p.lastActiveTime !== null && p.lastActiveTime >= p.lastConnectedTime - OFFLINE_THRESHOLD;
  const website = { client: 'website', status: active ? 'active' : 'idle', timestamp: active ? p.lastActiveTime! : p.lastConnectedTime, pushable: false };
  return { aggregated: { client: website.client, status: website.status, timestamp: website.timestamp }, website };
}

// Each process keeps the presence rows it has read, per organization, and reads only those changed since: every
// change of what a row shows takes a new update id (touchPresence), so the kept rows stay true to the database,
// whichever process wrote. A row is only replaced by a newer one, so concurrent refreshes cannot go back in time.
// Kept rows also keep their entries of an answer in each format, as JSON, which depend on nothing else: an answer
// often holds hundreds of them.
export type KeptRow = PresenceRow & { modern?: string; legacy?: string };

// `log` holds the kept rows in the order of their update ids (and rows since replaced, skipped when read), so that
// an answer to a client's position reads only what changed after it: a client pinging once a minute in an
// organization of 10,000 online users gets a few thousand of them, not a walk over all 10,000.
export type Kept = { seq: number; rows: Map<number, KeptRow>; log: KeptRow[] };

export const kept = new WeakMap<Db, Map<number, Kept>>();

// Keeps a row unless the one kept is as new. Every kept row has the same shape: answers loop over thousands.
export function keep(c: Kept, r: PresenceRow): void {
  if (r.lastUpdateId <= (c.rows.get(r.userId)?.lastUpdateId ?? 0)) return;
  const { userId, lastActiveTime, lastConnectedTime, lastUpdateId, email, visible } = r;
  const row: KeptRow = { userId, lastActiveTime, lastConnectedTime, lastUpdateId, email, visible, modern: undefined, legacy: undefined };
  c.rows.set(userId, row);
  // Rows come in update-id order (refreshKept sorts what it reads) except when refreshes overlap.
  if ((c.log.at(-1)?.lastUpdateId ?? 0) < lastUpdateId) c.log.push(row);
  else c.log.splice(firstAfter(c.log, lastUpdateId), 0, row);
  // Replaced rows are dropped once they outnumber the live ones.
  if (c.log.length > 2 * c.rows.size + 1000) c.log = [...c.rows.values()].sort((a, b) => a.lastUpdateId - b.lastUpdateId);
}

// The index of the first row of `log` with an update id above `id`.
function firstAfter(log: KeptRow[], id: number): number {
  let lo = 0;
  let hi = log.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (log[mid].lastUpdateId <= id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// The kept rows changed after update id `after`, oldest first (without one: all of them, in no order).
export function keptRows(c: Kept, after?: number): Iterable<KeptRow> {
  if (after === undefined || after <= 0) return c.rows.values();
  const out: KeptRow[] = [];
  const log = c.log;
  for (let i = firstAfter(log, after); i < log.length; i++) if (c.rows.get(log[i].userId) === log[i]) out.push(log[i]);
  return out;
}
