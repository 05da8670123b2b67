// Presence (§2.8, §4.8): each client pings about once a minute; a change worth announcing (coming online, or
// becoming active again) emits a presence event. Every stored change takes the next id of the organization's
// presence sequence, so clients fetch only what changed since the id they last saw. A user with presence_enabled
// off (invisible) stops updating and looks as if last seen a while before going invisible.
import type { App } from '../app.js';
import { ApiError } from '../lib/errors.js';
import { userSetting } from '../state/user-settings.js';
import type { Tx } from '../store/db.js';
import { findPresence, savePresence, savePresenceAlone, type Presence } from '../store/presence.js';
import type { Realm } from '../store/realms.js';
import { listUsers, type User } from '../store/users.js';
import { checkHuman } from './checks.js';
import { inTransaction, type Emit } from './transaction.js';
import { accessUser } from './users.js';
import { accessibleBy, audienceOf } from '../permissions/users.js';
import { keptAnswer, keptOf, legacyPresence, OFFLINE_THRESHOLD, presenceData, refreshKept } from '../state/presence.js';
import { keep, type Kept, type KeptRow, modernPresence } from '../state/presence-log.js';

// Pings closer together than this change nothing worth storing.
const MIN_UPDATE_INTERVAL = 50;
// How long before going invisible a user appears last seen: old enough for every client to show them offline.
const INVISIBLE_BACKDATE = OFFLINE_THRESHOLD + 120;

// After this process stored `stored` (committed) over `old`, read when the kept rows were true to `seq`: when the
// id it took is the next one, nothing else changed in between (ids are taken one by one under the sequence's lock)
// and the kept rows with it are true to that id, without reading them again. What decides how the row is shown
// did not change either (a change of it takes an id). Returns the position the kept rows are true to, if known.
function keepStored(c: Kept, seq: number, old: KeptRow, stored: Presence): number | undefined {
  if (stored.lastUpdateId !== seq + 1) return undefined;
  keep(c, { ...stored, email: old.email, visible: old.visible });
  c.seq = Math.max(c.seq, stored.lastUpdateId);
  return stored.lastUpdateId;
}

type Change = { lastConnectedTime: number; lastActiveTime: number | null; announce: boolean };

// Stores the change `decide` makes of the user's row. `old` is the row as read before the transaction; the save is
// conditional on it being unchanged, which spares reading it again here. If another writer changed it meanwhile,
// `decide` looks again at the row as it is now, which stays so: every writer of presence takes the sequence's lock
// and holds it to its commit. Tells everyone when the change is worth announcing. Returns the stored row, if any.
// `eventLimit`: see announce (null: always announced).
async function storePresence(tx: Tx, emit: Emit, realm: Realm, user: User, old: Presence | undefined, decide: (old: Presence | undefined) => Change | null, eventLimit: number | null) {
  for (let attempt = 0, change = decide(old); change; attempt++) {
    const next = { userId: user.id, lastConnectedTime: change.lastConnectedTime, lastActiveTime: change.lastActiveTime };
    const { lastUpdateId, stored } = await savePresence(tx, realm.id, next, old?.lastUpdateId ?? null);
    if (stored) {
      const row = { ...next, lastUpdateId };
      if (change.announce) await announce(tx, emit, realm, user, row, eventLimit);
      return row;
    }
    if (attempt) throw new Error(`presence of user ${user.id} changed under the sequence lock`);
    old = await findPresence(tx, user.id);
    change = decide(old);
  }
  return undefined;
}

// Most stored pings announce nothing (each user online pings about once a minute); where saving is one statement,
// it is a transaction of its own, with nothing else to write: no BEGIN and COMMIT around it. Undefined when it is
// not one, or when another writer changed the row first: then storePresence decides again, in a transaction.
async function storeQuietly(app: App, realm: Realm, user: User, old: Presence, change: Change): Promise<Presence | undefined> {
  const next = { userId: user.id, lastConnectedTime: change.lastConnectedTime, lastActiveTime: change.lastActiveTime };
  const saved = await savePresenceAlone(app.db, realm.id, next, old.lastUpdateId);
  return saved?.stored ? { ...next, lastUpdateId: saved.lastUpdateId } : undefined;
}

// Active users by cached list: the list is the same array until a user changes.
const activeCounts = new WeakMap<User[], number>();

async function activeUserCount(tx: Tx, realmId: number): Promise<number> {
  const users = await listUsers(tx, realmId);
  let n = activeCounts.get(users);
  if (n === undefined) activeCounts.set(users, (n = users.reduce((a, u) => a + (u.isActive ? 1 : 0), 0)));
  return n;
}

// To those who may access the user, unless they are more than `eventLimit`: as on the reference server
// (USER_LIMIT_FOR_SENDING_PRESENCE_UPDATE_EVENTS), a large organization gets no event when someone comes online —
// each would go to everyone, and people come online all the time — and clients learn it from their own pings.
async function announce(tx: Tx, emit: Emit, realm: Realm, user: User, stored: Presence, eventLimit: number | null) {
  const audience = await audienceOf(tx, realm, user);
  if (eventLimit !== null && (audience?.length ?? (await activeUserCount(tx, realm.id))) > eventLimit) return;
  emit(realm.id, {
    type: 'presence',
    user_id: user.id,
    email: user.email,
    server_timestamp: Math.floor(Date.now() / 1000),
    presence: { website: legacyPresence(stored).website },
    _presences: { [user.id]: modernPresence(stored) },
  }, audience);
}

// Turning presence_enabled off makes the user look offline at once; turning it on, active now. Always announced,
// whatever the organization's size (the reference forces this update too).
export async function presenceEnabledChanged(tx: Tx, emit: Emit, realm: Realm, user: User, enabled: boolean): Promise<void> {
  const now = Math.floor(Date.now() / 1000);
  const at = enabled ? now : now - INVISIBLE_BACKDATE;
  await storePresence(tx, emit, realm, user, await findPresence(tx, user.id), () => ({ lastConnectedTime: at, lastActiveTime: at, announce: true }), null);
}

export interface PresenceInput {
  status: string;
  pingOnly: boolean;
  lastUpdateId?: number;
  historyLimitDays?: number;
  slimPresence: boolean;
}

// What a ping changes: nothing when it repeats what was stored less than MIN_UPDATE_INTERVAL ago; an event when
// the user comes online or becomes active again.
function planPresence(old: Presence | undefined, status: 'active' | 'idle', now: number): Change | null {
  const wasOnline = !!old && now - old.lastConnectedTime < OFFLINE_THRESHOLD;
  const wasActive = !!old && old.lastActiveTime !== null && now - old.lastActiveTime < OFFLINE_THRESHOLD;
  const becameActive = status === 'active' && !wasActive;
  const stale = !old || now - old.lastConnectedTime >= MIN_UPDATE_INTERVAL || (status === 'active' && (old.lastActiveTime === null || now - old.lastActiveTime >= MIN_UPDATE_INTERVAL));
  if (!stale && !becameActive) return null;
  return { lastConnectedTime: now, lastActiveTime: status === 'active' ? now : (old?.lastActiveTime ?? null), announce: !wasOnline || becameActive };
}

export async function doUpdatePresence(app: App, realm: Realm, user: User, input: PresenceInput) {
  checkHuman(user);
  const status = input.status;
  if (status !== 'active' && status !== 'idle') throw new ApiError(`Invalid status: ${status}`);
  const now = Math.floor(Date.now() / 1000);
  // An invisible user's pings are not recorded. The kept rows, brought up to date, hold the user's row: most
  // pings change nothing, which that tells without taking the write lock, and their answer needs no other read.
  const c = keptOf(app.db, realm.id);
  let seq: number | undefined;
  if (userSetting(user, 'presence_enabled')) {
    seq = await refreshKept(app.db, realm.id);
    const old = c.rows.get(user.id);
    const plan = planPresence(old, status, now);
    if (plan) {
      const stored = (old && !plan.announce && (await storeQuietly(app, realm, user, old, plan))) ||
        (await inTransaction(app, (tx, emit) => storePresence(tx, emit, realm, user, old, (o) => planPresence(o, status, now), app.config.userLimitForPresenceEvents)));
      seq = old && stored ? keepStored(c, seq, old, stored) : undefined;
    }
  }
  // Nothing is returned with ping_only, so the client's position in the sequence stays where it was.
  if (input.pingOnly) return { presence_last_update_id: input.lastUpdateId ?? -1 };
  seq ??= await refreshKept(app.db, realm.id);
  return keptAnswer(c, seq, {
    accessible: await accessibleBy(app.db, realm, user),
    lastUpdateId: input.lastUpdateId,
    historyLimitDays: input.historyLimitDays ?? 14,
    modern: input.lastUpdateId !== undefined || input.slimPresence,
  });
}

// GET /realm/presence: the organization's presence in the legacy format, as the reference server sends it.
// GET /realm/presence: without presence_last_update_id, which the reference sends only to POST /users/me/presence.
export async function accessRealmPresence(app: App, realm: Realm, viewer: User) {
  const { presence_last_update_id: _id, ...answer } = await presenceData(app.db, realm, { historyLimitDays: 14, modern: false, keep: true, accessible: await accessibleBy(app.db, realm, viewer) });
  return answer;
}

// GET /users/{user_id_or_email}/presence: one user's presence, `offline` in the aggregate once it is stale (as an
// invisible user's backdated row always is).
export async function accessUserPresence(app: App, realm: Realm, viewer: User, key: { id?: number; email?: string }, label: string) {
  const target = await accessUser(app, realm, viewer, key);
  if (target.isBot) throw new ApiError('Presence is not supported for bot users.');
  const p = await findPresence(app.db, target.id);
  if (!p || !target.isActive) throw new ApiError(`No presence data for ${label}`);
  const { website } = legacyPresence(p);
  const now = Math.floor(Date.now() / 1000);
  const entry = { status: website.status, timestamp: website.timestamp };
  return { presence: { website: entry, aggregated: { ...entry, status: now - entry.timestamp > OFFLINE_THRESHOLD ? 'offline' : entry.status } } };
}
