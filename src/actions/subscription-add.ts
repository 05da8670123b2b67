// Adding subscriptions (POST /users/me/subscriptions, invitation links) and the events that announce them. A
// bulk subscription touches users × channels pairs and channels × audience members: everything is read and
// written in a few statements per few hundred rows, events whose content is the same for many users are made
// once for all of them, and long loops hand the event loop back now and then (src/lib/pace.ts).
import { pace } from '../lib/pace.js';
import type { Tx } from '../store/db.js';
import type { Realm } from '../store/realms.js';
import { nameKey, type Stream } from '../store/streams.js';
import { activateSubscriptions, subscriberIds, subscriptionRows, subscriptionsOfUsers, type Subscription } from '../store/subscriptions.js';
import type { User } from '../store/users.js';
import { formatStream, formatSubscription } from '../format/channels.js';
import { channelAudience } from './channels.js';
import type { Emit } from './transaction.js';

const COLORS = ['#76ce90', '#fae589', '#a6c7e5', '#e79ab5', '#bfd56f', '#f4ae55', '#b0a5fd', '#addfe5', '#f5ce6e', '#c2726a', '#94c849', '#bd86e5', '#ee7e4a', '#a6dcbf', '#95a5fd', '#53a063', '#9987e1', '#e4523d', '#c2c2c2', '#4f8de4', '#c6a8ad', '#e7cc4d', '#c8bebf', '#a47462'];

// A new subscription's color: the first of COLORS the user has not used yet.
export const newSubscriptionColor = (taken: Set<string>, userId: number, streamId: number) =>
  COLORS.find((c) => !taken.has(c)) ?? COLORS[(userId + streamId) % COLORS.length];

// Subscribes each user to each channel they are not subscribed to yet, and tells them and the channels'
// audiences (`created` are channels made in the same transaction, announced with their first subscribers;
// `colors` are colors asked for by channel name).
export async function addSubscriptionsInTx(
  tx: Tx,
  emit: Emit,
  realm: Realm,
  systemGroups: Map<string, number>,
  users: User[],
  streams: Stream[],
  created: Stream[] = [],
  colors = new Map<string, string>(),
): Promise<{ subscribed: Record<string, string[]>; already: Record<string, string[]>; added: Map<number, Stream[]> }> {
  const subscribed: Record<string, string[]> = {};
  const already: Record<string, string[]> = {};
  const added = new Map<number, Stream[]>(); // user id → channels newly subscribed to
  const current = new Map([...(await subscriberIds(tx, streams.map((s) => s.id)))].map(([id, list]) => [id, new Set(list)]));
  const createdIds = new Set(created.map((s) => s.id));
  const knewBefore = new Map<number, Set<number>>();
  for (const s of streams) {
    if (!createdIds.has(s.id)) knewBefore.set(s.id, new Set(await channelAudience(tx, realm.id, s, [...current.get(s.id)!])));
    await pace();
  }
  const newByStream = new Map<number, number[]>();
  const pairs: { userId: number; streamId: number; color: string }[] = [];
  const existing = await subscriptionsOfUsers(tx, users.map((u) => u.id));
  for (const p of users) {
    const mine = new Set(existing.get(p.id)!.map((s) => s.color));
    for (const s of streams) {
      if (current.get(s.id)!.has(p.id)) {
        (already[p.id] ??= []).push(s.name);
        continue;
      }
      const color = colors.get(nameKey(s.name)) ?? newSubscriptionColor(mine, p.id, s.id);
      mine.add(color);
      pairs.push({ userId: p.id, streamId: s.id, color });
      (subscribed[p.id] ??= []).push(s.name);
      (added.get(p.id) ?? added.set(p.id, []).get(p.id)!).push(s);
      (newByStream.get(s.id) ?? newByStream.set(s.id, []).get(s.id)!).push(p.id);
    }
    await pace();
  }
  await activateSubscriptions(tx, pairs);
  await emitSubscribeEvents(tx, realm, emit, systemGroups, { created, added, newByStream, knewBefore });
  return { subscribed, already, added };
}

interface SubscribeChanges {
  created: Stream[];
  added: Map<number, Stream[]>; // user id → channels newly subscribed to
  newByStream: Map<number, number[]>; // channel id → users newly subscribed
  knewBefore: Map<number, Set<number>>; // existing channel id → who knew of it before (its audience then)
}

// What of a subscription is the user's own; users whose new subscriptions agree on it get one event together.
const ownPart = (sub: Subscription) => `${sub.streamId}:${sub.color}:${sub.isMuted}:${sub.pinToTop}:${Object.values(sub.notifications).join(',')}`;

// Recipients grouped by what they are sent, the content made once per group.
function emitGrouped<T>(realmId: number, emit: Emit, groups: Map<string, { sample: T; users: number[] }>, event: (sample: T) => Record<string, unknown>): void {
  for (const { sample, users } of groups.values()) emit(realmId, event(sample), users);
}

function group<T>(map: Map<string, { sample: T; users: number[] }>, key: string, sample: T, users: number[]): void {
  const entry = map.get(key);
  if (entry) entry.users.push(...users);
  else map.set(key, { sample, users: [...users] });
}

async function emitSubscribeEvents(tx: Tx, realm: Realm, emit: Emit, systemGroups: Map<string, number>, changes: SubscribeChanges): Promise<void> {
  const { created, added, newByStream, knewBefore } = changes;
  const allIds = [...new Set([...created.map((s) => s.id), ...newByStream.keys()])];
  const subscribers = await subscriberIds(tx, allIds);
  const streamsById = new Map<number, Stream>();
  for (const list of added.values()) for (const s of list) streamsById.set(s.id, s);
  for (const s of created) streamsById.set(s.id, s);
  const stream = (s: Stream) => formatStream(s, { systemGroups, subscriberCount: subscribers.get(s.id)!.length });
  // New channels with the same audience (public ones, as a rule) are announced in one event.
  const creations = new Map<string, { sample: Stream[]; users: number[] }>();
  for (const s of created) {
    const audience = await channelAudience(tx, realm.id, s, subscribers.get(s.id));
    const key = audience.join(',');
    const entry = creations.get(key);
    if (entry) entry.sample.push(s);
    else creations.set(key, { sample: [s], users: audience });
    await pace();
  }
  emitGrouped(realm.id, emit, creations, (list) => ({ type: 'stream', op: 'create', streams: list.map(stream) }));
  // Users who did not know of a channel (a private one, or a public one for a guest) get it before their
  // subscription.
  for (const [streamId, userIds] of newByStream) {
    const before = knewBefore.get(streamId);
    const newcomers = before ? userIds.filter((id) => !before.has(id)) : [];
    if (newcomers.length) emit(realm.id, { type: 'stream', op: 'create', streams: [stream(streamsById.get(streamId)!)] }, newcomers);
  }
  const rows = await subscriptionRows(tx, [...added.keys()], [...streamsById.keys()]);
  const additions = new Map<string, { sample: Subscription[]; users: number[] }>();
  for (const [userId, list] of added) {
    const subs = list.map((s) => rows.get(`${userId} ${s.id}`)!);
    group(additions, subs.map(ownPart).join(';'), subs, [userId]);
    await pace();
  }
  emitGrouped(realm.id, emit, additions, (subs) => ({
    type: 'subscription',
    op: 'add',
    subscriptions: subs.map((sub) => {
      const ids = subscribers.get(sub.streamId)!;
      return formatSubscription(streamsById.get(sub.streamId)!, sub, { systemGroups, subscriberCount: ids.length, subscribers: ids });
    }),
  }));
  // A new channel's create event already counts its first subscribers.
  const createdIds = new Set(created.map((c) => c.id));
  for (const [streamId, userIds] of newByStream) {
    if (createdIds.has(streamId)) continue;
    // Subscribing gave only the new subscribers knowledge of the channel: the others who know of it now knew before.
    const joined = new Set(userIds);
    const audience = [...knewBefore.get(streamId)!].filter((id) => !joined.has(id));
    if (audience.length) emit(realm.id, { type: 'subscription', op: 'peer_add', stream_ids: [streamId], user_ids: userIds }, audience);
    await pace();
  }
}
