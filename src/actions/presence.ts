// Presence (§2.8, §4.8): each client pings about once a minute; a change worth announcing (coming online, or
// becoming active again) emits a presence event. Every stored change takes the next id of the organization's
// presence sequence, so clients fetch only what changed since the id they last saw.
import type { App } from '../app.js';
import { SERVER_LIMITS } from '../state/realm-data.js';
import { userSettings } from '../state/user-settings.js';
import type { Db } from '../store/db.js';
import { findPresence, lastPresenceUpdateId, listPresence, nextPresenceUpdateId, savePresence, type Presence } from '../store/presence.js';
import type { Realm } from '../store/realms.js';
import { findUsers, type User } from '../store/users.js';
import { ApiError } from '../http/errors.js';
import { inTransaction } from './transaction.js';
import { accessUser } from './users.js';

const OFFLINE_THRESHOLD = SERVER_LIMITS.server_presence_offline_threshold_seconds;
// Pings closer together than this change nothing worth storing.
const MIN_UPDATE_INTERVAL = 50;

export function modernPresence(p: Presence) {
  return { active_timestamp: p.lastActiveTime ?? 0, idle_timestamp: p.lastConnectedTime };
}

export function legacyPresence(p: Presence) {
  const active = p.lastActiveTime !== null && p.lastActiveTime >= p.lastConnectedTime - OFFLINE_THRESHOLD;
  const website = { client: 'website', status: active ? 'active' : 'idle', timestamp: active ? p.lastActiveTime! : p.lastConnectedTime, pushable: false };
  return { aggregated: { client: website.client, status: website.status, timestamp: website.timestamp }, website };
}

// Presence of the organization's users who share it (presence_enabled), changed since an id or seen recently.
export async function presenceData(db: Db, realm: Realm, opts: { lastUpdateId?: number; historyLimitDays: number; modern: boolean }) {
  const now = Math.floor(Date.now() / 1000);
  const incremental = opts.lastUpdateId !== undefined && opts.lastUpdateId > 0;
  const rows = await listPresence(db, realm.id, incremental ? { afterUpdateId: opts.lastUpdateId } : { since: now - opts.historyLimitDays * 86400 });
  const users = new Map((await findUsers(db, realm.id, rows.map((r) => r.userId))).map((u) => [u.id, u]));
  const presences: Record<string, unknown> = {};
  for (const p of rows) {
    const u = users.get(p.userId);
    if (!u || !u.isActive || !userSettings(u).presence_enabled) continue;
    presences[opts.modern ? String(u.id) : u.email] = opts.modern ? modernPresence(p) : legacyPresence(p);
  }
  const seq = await lastPresenceUpdateId(db, realm.id);
  return {
    presences,
    presence_last_update_id: seq === 0 ? Math.max(-1, opts.lastUpdateId ?? -1) : Math.max(seq, opts.lastUpdateId ?? -1),
    server_timestamp: Date.now() / 1000,
  };
}

export interface PresenceInput {
  status: 'active' | 'idle';
  pingOnly: boolean;
  lastUpdateId?: number;
  historyLimitDays?: number;
  slimPresence: boolean;
}

export async function doUpdatePresence(app: App, realm: Realm, user: User, input: PresenceInput) {
  const now = Math.floor(Date.now() / 1000);
  await inTransaction(app, async (tx, emit) => {
    const old = await findPresence(tx, user.id);
    const wasOnline = !!old && now - old.lastConnectedTime < OFFLINE_THRESHOLD;
    const wasActive = !!old && old.lastActiveTime !== null && now - old.lastActiveTime < OFFLINE_THRESHOLD;
    const becameActive = input.status === 'active' && !wasActive;
    const stale = !old || now - old.lastConnectedTime >= MIN_UPDATE_INTERVAL || (input.status === 'active' && (old.lastActiveTime === null || now - old.lastActiveTime >= MIN_UPDATE_INTERVAL));
    if (!stale && !becameActive) return;
    const next: Presence = {
      userId: user.id,
      lastConnectedTime: now,
      lastActiveTime: input.status === 'active' ? now : (old?.lastActiveTime ?? null),
      lastUpdateId: await nextPresenceUpdateId(tx, realm.id),
    };
    await savePresence(tx, realm.id, next, !!old);
    if ((!wasOnline || becameActive) && userSettings(user).presence_enabled) {
      emit(realm.id, {
        type: 'presence',
        user_id: user.id,
        email: user.email,
        server_timestamp: now,
        presence: { website: legacyPresence(next).website },
        _presences: { [user.id]: modernPresence(next) },
      }, null);
    }
  });
  if (input.pingOnly) return { presence_last_update_id: await lastPresenceUpdateId(app.db, realm.id) || -1 };
  return presenceData(app.db, realm, {
    lastUpdateId: input.lastUpdateId,
    historyLimitDays: input.historyLimitDays ?? 14,
    modern: input.lastUpdateId !== undefined || input.slimPresence,
  });
}

// GET /realm/presence: the organization's presence in the legacy format, as the reference server sends it.
export async function accessRealmPresence(app: App, realm: Realm) {
  return presenceData(app.db, realm, { historyLimitDays: 14, modern: false });
}

// GET /users/{user_id_or_email}/presence: one user's presence, `offline` in the aggregate once it is stale.
export async function accessUserPresence(app: App, realm: Realm, viewer: User, key: { id?: number; email?: string }, label: string) {
  const target = await accessUser(app, realm, viewer, key);
  if (target.isBot) throw new ApiError('Presence is not supported for bot users.');
  const p = await findPresence(app.db, target.id);
  if (!p || !target.isActive || !userSettings(target).presence_enabled) throw new ApiError(`No presence data for ${label}`);
  const { website } = legacyPresence(p);
  const now = Math.floor(Date.now() / 1000);
  const entry = { status: website.status, timestamp: website.timestamp };
  return { presence: { website: entry, aggregated: { ...entry, status: now - entry.timestamp > OFFLINE_THRESHOLD ? 'offline' : entry.status } } };
}
