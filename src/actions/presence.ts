// Presence (§2.8, §4.8): each client pings about once a minute; a change worth announcing (coming online, or
// becoming active again) emits a presence event. Every stored change takes the next id of the organization's
// presence sequence, so clients fetch only what changed since the id they last saw. A user with presence_enabled
// off (invisible) stops updating and looks as if last seen a while before going invisible.
import type { App } from '../app.js';
import { ApiError } from '../http/errors.js';
import { SERVER_LIMITS } from '../state/realm-data.js';
import { userSettings } from '../state/user-settings.js';
import type { Db, Tx } from '../store/db.js';
import { findPresence, listPresence, nextPresenceUpdateId, savePresence, type Presence } from '../store/presence.js';
import type { Realm } from '../store/realms.js';
import { findUsers, type User } from '../store/users.js';
import { checkHuman } from './checks.js';
import { inTransaction, type Emit } from './transaction.js';

const OFFLINE_THRESHOLD = SERVER_LIMITS.server_presence_offline_threshold_seconds;
// Pings closer together than this change nothing worth storing.
const MIN_UPDATE_INTERVAL = 50;
// How long before going invisible a user appears last seen: old enough for every client to show them offline.
const INVISIBLE_BACKDATE = OFFLINE_THRESHOLD + 120;

export function modernPresence(p: Presence) {
  return { active_timestamp: p.lastActiveTime ?? 0, idle_timestamp: p.lastConnectedTime };
}

export function legacyPresence(p: Presence) {
  const active = p.lastActiveTime !== null && p.lastActiveTime >= p.lastConnectedTime - OFFLINE_THRESHOLD;
  const website = { client: 'website', status: active ? 'active' : 'idle', timestamp: active ? p.lastActiveTime! : p.lastConnectedTime, pushable: false };
  return { aggregated: { client: website.client, status: website.status, timestamp: website.timestamp }, website };
}

// Presence of the organization's human users, changed since an id or seen within the history limit. The id
// returned is the newest one among the rows read, so a client asking from it later misses no change.
export async function presenceData(db: Db, realm: Realm, opts: { lastUpdateId?: number; historyLimitDays: number; modern: boolean }) {
  const now = Math.floor(Date.now() / 1000);
  const incremental = opts.lastUpdateId !== undefined && opts.lastUpdateId > 0;
  const rows = await listPresence(db, realm.id, incremental ? { afterUpdateId: opts.lastUpdateId } : { since: now - opts.historyLimitDays * 86400 });
  const users = new Map((await findUsers(db, realm.id, rows.map((r) => r.userId))).map((u) => [u.id, u]));
  const presences: Record<string, unknown> = {};
  for (const p of rows) {
    const u = users.get(p.userId);
    if (!u || !u.isActive || u.isBot) continue;
    presences[opts.modern ? String(u.id) : u.email] = opts.modern ? modernPresence(p) : legacyPresence(p);
  }
  const newest = rows.reduce((max, r) => Math.max(max, r.lastUpdateId), -1);
  return {
    presences,
    presence_last_update_id: Math.max(newest, opts.lastUpdateId ?? -1),
    server_timestamp: Date.now() / 1000,
  };
}

// Stores a user's new presence under the next sequence id and, when asked, tells everyone.
async function storePresence(tx: Tx, emit: Emit, realm: Realm, user: User, next: Omit<Presence, 'lastUpdateId'>, exists: boolean, announce: boolean) {
  const stored: Presence = { ...next, lastUpdateId: await nextPresenceUpdateId(tx, realm.id) };
  await savePresence(tx, realm.id, stored, exists);
  if (!announce) return;
  emit(realm.id, {
    type: 'presence',
    user_id: user.id,
    email: user.email,
    server_timestamp: Math.floor(Date.now() / 1000),
    presence: { website: legacyPresence(stored).website },
    _presences: { [user.id]: modernPresence(stored) },
  }, null);
}

// Turning presence_enabled off makes the user look offline at once; turning it on, active now.
export async function presenceEnabledChanged(tx: Tx, emit: Emit, realm: Realm, user: User, enabled: boolean): Promise<void> {
  const now = Math.floor(Date.now() / 1000);
  const at = enabled ? now : now - INVISIBLE_BACKDATE;
  await storePresence(tx, emit, realm, user, { userId: user.id, lastConnectedTime: at, lastActiveTime: at }, !!(await findPresence(tx, user.id)), true);
}

export interface PresenceInput {
  status: string;
  pingOnly: boolean;
  lastUpdateId?: number;
  historyLimitDays?: number;
  slimPresence: boolean;
}

export async function doUpdatePresence(app: App, realm: Realm, user: User, input: PresenceInput) {
  checkHuman(user);
  if (input.status !== 'active' && input.status !== 'idle') throw new ApiError(`Invalid status: ${input.status}`);
  const now = Math.floor(Date.now() / 1000);
  // An invisible user's pings are not recorded.
  if (userSettings(user).presence_enabled) {
    await inTransaction(app, async (tx, emit) => {
      const old = await findPresence(tx, user.id);
      const wasOnline = !!old && now - old.lastConnectedTime < OFFLINE_THRESHOLD;
      const wasActive = !!old && old.lastActiveTime !== null && now - old.lastActiveTime < OFFLINE_THRESHOLD;
      const becameActive = input.status === 'active' && !wasActive;
      const stale = !old || now - old.lastConnectedTime >= MIN_UPDATE_INTERVAL || (input.status === 'active' && (old.lastActiveTime === null || now - old.lastActiveTime >= MIN_UPDATE_INTERVAL));
      if (!stale && !becameActive) return;
      const next = { userId: user.id, lastConnectedTime: now, lastActiveTime: input.status === 'active' ? now : (old?.lastActiveTime ?? null) };
      await storePresence(tx, emit, realm, user, next, !!old, !wasOnline || becameActive);
    });
  }
  // Nothing is returned with ping_only, so the client's position in the sequence stays where it was.
  if (input.pingOnly) return { presence_last_update_id: input.lastUpdateId ?? -1 };
  return presenceData(app.db, realm, {
    lastUpdateId: input.lastUpdateId,
    historyLimitDays: input.historyLimitDays ?? 14,
    modern: input.lastUpdateId !== undefined || input.slimPresence,
  });
}
