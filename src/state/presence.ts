// The presence register block (and GET /realm/presence's data).
import { JsonBytes, JsonText } from '../lib/json-text.js';
import { SERVER_LIMITS } from './realm-data.js';
import type { Db } from '../store/db.js';
import { presenceSince, type Presence } from '../store/presence.js';
import type { Realm } from '../store/realms.js';
import { emptyKept, type EntryRow, keep, type Kept, keptRows, modernAfter, modernEntry } from './presence-log.js';

// `keep` uses the process's kept rows; a register snapshot (a transaction) reads its own.
export async function presenceData(db: Db, realm: Realm, opts: DataOptions & { keep?: boolean }) {
  if (opts.keep) {
    const seq = await refreshKept(db, realm.id);
    return keptAnswer(keptOf(db, realm.id), seq, opts);
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
export function presenceAnswer(rows: Iterable<EntryRow>, seq: number, opts: DataOptions) {
  const now = Math.floor(Date.now() / 1000);
  const after = opts.lastUpdateId !== undefined && opts.lastUpdateId > 0 ? opts.lastUpdateId : undefined;
  const since = now - opts.historyLimitDays * 86400;
  const entries: string[] = [];
  for (const p of rows) {
    if (!p.visible || (after !== undefined ? p.lastUpdateId <= after : p.lastConnectedTime < since)) continue;
    if (opts.accessible && !opts.accessible.has(p.userId)) continue;
    entries.push(opts.modern ? modernEntry(p) : (p.legacy ??= `${JSON.stringify(p.email)}:${JSON.stringify(legacyPresence(p))}`));
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
  if (!c) realms.set(realmId, (c = emptyKept()));
  return c;
}

export const OFFLINE_THRESHOLD = SERVER_LIMITS.server_presence_offline_threshold_seconds;

export function legacyPresence(p: Presence) {
  const active = p.lastActiveTime !== null && p.lastActiveTime >= p.lastConnectedTime - OFFLINE_THRESHOLD;
  const website = { client: 'website', status: active ? 'active' : 'idle', timestamp: active ? p.lastActiveTime! : p.lastConnectedTime, pushable: false };
  return { aggregated: { client: website.client, status: website.status, timestamp: website.timestamp }, website };
}

export const kept = new WeakMap<Db, Map<number, Kept>>();

const OPEN = Buffer.from('{');
const CLOSE = Buffer.from('}');

// The answer to a position from the kept rows `c`, true to `seq`. What clients ping with (a position, the modern
// format, a viewer who may access everyone) is answered from the kept blocks' bytes.
export function keptAnswer(c: Kept, seq: number, opts: DataOptions) {
  const after = opts.lastUpdateId;
  if (!opts.modern || opts.accessible || after === undefined || after <= 0) return presenceAnswer(keptRows(c, after), seq, opts);
  return {
    presences: new JsonBytes([OPEN, ...modernAfter(c, after), CLOSE]),
    presence_last_update_id: Math.max(seq, after),
    server_timestamp: Date.now() / 1000,
  };
}
