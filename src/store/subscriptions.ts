import type { Selectable } from 'kysely';
import type { Db } from './db.js';
import type { SubscriptionTable } from './schema.js';
import { cached, cachedMany, cacheMap } from './cache.js';

export const SUBSCRIPTION_FLAGS = ['desktop_notifications', 'audible_notifications', 'push_notifications', 'email_notifications', 'wildcard_mentions_notify'] as const;

export interface Subscription {
  userId: number;
  streamId: number;
  active: boolean;
  isMuted: boolean;
  pinToTop: boolean;
  color: string;
  notifications: Record<(typeof SUBSCRIPTION_FLAGS)[number], boolean | null>;
}

function toSubscription(r: Selectable<SubscriptionTable>): Subscription {
  const n = (v: number | null) => (v === null ? null : v === 1);
  return {
    userId: r.user_id,
    streamId: r.stream_id,
    active: r.active === 1,
    isMuted: r.is_muted === 1,
    pinToTop: r.pin_to_top === 1,
    color: r.color,
    notifications: {
      desktop_notifications: n(r.desktop_notifications),
      audible_notifications: n(r.audible_notifications),
      push_notifications: n(r.push_notifications),
      email_notifications: n(r.email_notifications),
      wildcard_mentions_notify: n(r.wildcard_mentions_notify),
    },
  };
}

// Every subscription row of a user (active and former), for register's subscribed/unsubscribed lists.
export async function subscriptionsOfUser(db: Db, userId: number): Promise<Subscription[]> {
  return cached(db, subscriptionsByUser, userId, async () => {
    const rows = await db.selectFrom('subscriptions').selectAll().where('user_id', '=', userId).execute();
    return rows.map(toSubscription);
  });
}

// The same for many users, in a few queries.
export async function subscriptionsOfUsers(db: Db, userIds: number[]): Promise<Map<number, Subscription[]>> {
  return cachedMany(db, subscriptionsByUser, userIds, async (missing) => {
    const out = new Map<number, Subscription[]>(missing.map((id) => [id, []]));
    for (let i = 0; i < missing.length; i += 500) {
      const rows = await db.selectFrom('subscriptions').selectAll().where('user_id', 'in', missing.slice(i, i + 500)).execute();
      for (const r of rows) out.get(r.user_id)!.push(toSubscription(r));
    }
    return out;
  });
}

// The rows of these users for these channels (as they are now: right after a change, in the changing
// transaction), keyed `${userId} ${streamId}`.
export async function subscriptionRows(db: Db, userIds: number[], streamIds: number[]): Promise<Map<string, Subscription>> {
  const out = new Map<string, Subscription>();
  for (let i = 0; i < userIds.length; i += 500) {
    for (let j = 0; j < streamIds.length; j += 500) {
      const rows = await db.selectFrom('subscriptions').selectAll()
        .where('user_id', 'in', userIds.slice(i, i + 500)).where('stream_id', 'in', streamIds.slice(j, j + 500)).execute();
      for (const r of rows) out.set(`${r.user_id} ${r.stream_id}`, toSubscription(r));
    }
  }
  return out;
}

// Every message to a channel needs its subscribers, and the sender's subscription: cached (src/store/cache.ts).
const subscriptionsByPair = cacheMap<string, Subscription | null>('subscriptions');
const subscribersByStream = cacheMap<number, number[]>('subscriptions', 'users');
const subscriptionsByUser = cacheMap<number, Subscription[]>('subscriptions');

export async function findSubscription(db: Db, userId: number, streamId: number): Promise<Subscription | undefined> {
  const sub = await cached(db, subscriptionsByPair, `${userId} ${streamId}`, async () => {
    const row = await db.selectFrom('subscriptions').selectAll().where('user_id', '=', userId).where('stream_id', '=', streamId).executeTakeFirst();
    return row ? toSubscription(row) : null;
  });
  return sub ?? undefined;
}

// Active subscribers, deactivated users excluded, for every given channel (fresh arrays: callers may change them).
export async function subscriberIds(db: Db, streamIds: number[]): Promise<Map<number, number[]>> {
  const lists = await cachedMany(db, subscribersByStream, streamIds, (missing) => loadSubscriberIds(db, missing));
  return new Map(streamIds.map((id) => [id, [...lists.get(id)!]]));
}

// How many active subscribers (deactivated users excluded) each channel has, counted by the database: register
// and channel lists need only the numbers, and listing every subscriber of 2,000 channels is 570,000 rows. The
// counts are kept like the lists (and within one register's snapshot, whose subscription and stream blocks
// both need them, counted once): counting 500,000 rows takes 200 ms.
const subscriberCountByStream = cacheMap<number, number>('subscriptions', 'users');

export async function subscriberCounts(db: Db, streamIds: number[]): Promise<Map<number, number>> {
  return cachedMany(db, subscriberCountByStream, streamIds, (missing) => countSubscribers(db, missing));
}

// Counted as all active subscriptions (an index walk) less those of deactivated users (found from the users, who
// are few): joining each of 500,000 subscriptions to its user took 190 ms, these two 30 ms.
async function countSubscribers(db: Db, streamIds: number[]): Promise<Map<number, number>> {
  const out = new Map<number, number>(streamIds.map((id) => [id, 0]));
  for (let i = 0; i < streamIds.length; i += 500) {
    const part = streamIds.slice(i, i + 500);
    const all = await db
      .selectFrom('subscriptions')
      .select(['stream_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('stream_id', 'in', part)
      .where('active', '=', 1)
      .groupBy('stream_id')
      .execute();
    for (const r of all) out.set(r.stream_id, Number(r.n));
    // A cross join keeps SQLite's loop starting from the deactivated users.
    const inactive = await db
      .selectFrom('users as u')
      .crossJoin('subscriptions as s')
      .select(['s.stream_id', (eb) => eb.fn.countAll<number>().as('n')])
      .whereRef('s.user_id', '=', 'u.id')
      .where('u.is_active', '=', 0)
      .where('s.active', '=', 1)
      .where('s.stream_id', 'in', part)
      .groupBy('s.stream_id')
      .execute();
    for (const r of inactive) out.set(r.stream_id, out.get(r.stream_id)! - Number(r.n));
  }
  return out;
}

// Whether the channel has more than `limit` active subscribers (deactivated users excluded), reading at most
// limit + 1 rows however large the channel is.
export async function hasMoreSubscribersThan(db: Db, streamId: number, limit: number): Promise<boolean> {
  const some = db.selectFrom('subscriptions').innerJoin('users', 'users.id', 'subscriptions.user_id').select('subscriptions.user_id')
    .where('subscriptions.stream_id', '=', streamId).where('subscriptions.active', '=', 1).where('users.is_active', '=', 1).limit(limit + 1);
  const row = await db.selectFrom(some.as('s')).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n) > limit;
}

async function loadSubscriberIds(db: Db, streamIds: number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>(streamIds.map((id) => [id, []]));
  for (let i = 0; i < streamIds.length; i += 500) {
    const rows = await db
      .selectFrom('subscriptions')
      .innerJoin('users', 'users.id', 'subscriptions.user_id')
      .select(['subscriptions.stream_id', 'subscriptions.user_id'])
      .where('subscriptions.stream_id', 'in', streamIds.slice(i, i + 500))
      .where('subscriptions.active', '=', 1)
      .where('users.is_active', '=', 1)
      .orderBy('subscriptions.user_id')
      .execute();
    for (const r of rows) out.get(r.stream_id)!.push(r.user_id);
  }
  return out;
}

// The colors each user's subscriptions have (a new one takes a color not used yet), for many users at once.
export async function subscriptionColors(db: Db, userIds: number[]): Promise<Map<number, Set<string>>> {
  const out = new Map(userIds.map((id) => [id, new Set<string>()]));
  for (let i = 0; i < userIds.length; i += 500) {
    const rows = await db.selectFrom('subscriptions').select(['user_id', 'color']).where('user_id', 'in', userIds.slice(i, i + 500)).execute();
    for (const r of rows) out.get(r.user_id)!.add(r.color);
  }
  return out;
}

// Adds or reactivates subscriptions; returns the pairs that changed.
// Subscribes each user to each channel of `pairs`: an earlier (inactive) row is made active again, keeping its
// settings; the others are inserted. A few statements for any number of pairs (subscribing 1,000 users at once).
export async function activateSubscriptions(db: Db, pairs: { userId: number; streamId: number; color: string }[]): Promise<void> {
  if (!pairs.length) return;
  const streamIds = [...new Set(pairs.map((p) => p.streamId))];
  const userIds = [...new Set(pairs.map((p) => p.userId))];
  const existing = new Map<string, number>();
  for (let i = 0; i < userIds.length; i += 500) {
    const rows = await db
      .selectFrom('subscriptions')
      .select(['id', 'user_id', 'stream_id'])
      .where('stream_id', 'in', streamIds)
      .where('user_id', 'in', userIds.slice(i, i + 500))
      .execute();
    for (const r of rows) existing.set(`${r.user_id} ${r.stream_id}`, r.id);
  }
  const again = pairs.map((p) => existing.get(`${p.userId} ${p.streamId}`)).filter((id): id is number => id !== undefined);
  const fresh = pairs.filter((p) => !existing.has(`${p.userId} ${p.streamId}`));
  for (let i = 0; i < again.length; i += 500) {
    await db.updateTable('subscriptions').set({ active: 1 }).where('id', 'in', again.slice(i, i + 500)).execute();
  }
  for (let i = 0; i < fresh.length; i += 500) {
    await db
      .insertInto('subscriptions')
      .values(fresh.slice(i, i + 500).map((p) => ({ user_id: p.userId, stream_id: p.streamId, color: p.color })))
      .execute();
  }
}

// One statement per channel and few hundred users.
export async function deactivateSubscriptions(db: Db, streamId: number, userIds: number[]): Promise<void> {
  for (let i = 0; i < userIds.length; i += 500) {
    await db.updateTable('subscriptions').set({ active: 0 }).where('stream_id', '=', streamId).where('user_id', 'in', userIds.slice(i, i + 500)).execute();
  }
}

export type SubscriptionProperty = 'is_muted' | 'pin_to_top' | 'color' | (typeof SUBSCRIPTION_FLAGS)[number];

export async function updateSubscriptionProperty(db: Db, userId: number, streamId: number, property: SubscriptionProperty, value: boolean | string | null): Promise<void> {
  const stored = typeof value === 'boolean' ? (value ? 1 : 0) : value;
  await db.updateTable('subscriptions').set({ [property]: stored }).where('user_id', '=', userId).where('stream_id', '=', streamId).execute();
}
