// The `subscription`, `stream` and `default_streams` blocks of POST /register; GET /users/me/subscriptions and
// GET /streams read the same lists.
import { formatStream, formatSubscription } from '../format/channels.js';
import { canSeeSubscribers, hasContentAccess, hasMetadataAccess, isGuest, type Viewer } from '../permissions/channels.js';
import type { Db } from '../store/db.js';
import { Pacer } from '../lib/pace.js';
import { groupsOfUser, systemGroupIds } from '../store/groups.js';
import type { Realm } from '../store/realms.js';
import { listDefaultStreamIds, listStreams, type Stream } from '../store/streams.js';
import { subscriberCounts, subscriberIds, subscriptionsOfUser, type Subscription } from '../store/subscriptions.js';
import type { User } from '../store/users.js';

// §8: subscriber lists are complete for channels with fewer than this many subscribers.
const PARTIAL_SUBSCRIBERS_LIMIT = 250;

export interface SubscriptionStateOptions {
  includeSubscribers: 'true' | 'false' | 'partial';
  capabilities: Record<string, boolean>;
}

export async function subscriptionState(db: Db, realm: Realm, user: User, opts: SubscriptionStateOptions) {
  const viewer: Viewer = { user, groups: await groupsOfUser(db, user.id) };
  const systemGroups = await systemGroupIds(db, realm.id);
  const archived = !!opts.capabilities.archived_channels;
  const streams = (await listStreams(db, realm.id)).filter((s) => archived || !s.isArchived);
  const subs = new Map((await subscriptionsOfUser(db, user.id)).map((s) => [s.streamId, s]));
  const visible = streams.filter((s) => hasMetadataAccess(viewer, s, subs.get(s.id)));
  const visibleIds = visible.map((s) => s.id);
  // Without subscriber lists, only their lengths: counted, not listed.
  const members = opts.includeSubscribers === 'false' ? null : await subscriberIds(db, visibleIds);
  const counts = members ? new Map([...members].map(([id, ids]) => [id, ids.length])) : await subscriberCounts(db, visibleIds);
  const subscribersFor = (s: Stream, sub?: Subscription) => {
    if (!members) return {};
    const ids = members.get(s.id)!;
    const allowed = canSeeSubscribers(viewer, s, sub);
    if (opts.includeSubscribers === 'true' || ids.length < PARTIAL_SUBSCRIBERS_LIMIT) return { subscribers: allowed ? ids : [] };
    return { partialSubscribers: allowed ? ids : [] };
  };
  const record = (s: Stream, sub: Subscription) =>
    formatSubscription(s, sub, {
      systemGroups,
      subscriberCount: counts.get(s.id)!,
      notificationSettingsNull: !!opts.capabilities.notification_settings_null,
      ...subscribersFor(s, sub),
    });
  const subscribed: Record<string, unknown>[] = [];
  const unsubscribed: Record<string, unknown>[] = [];
  const never: Record<string, unknown>[] = [];
  const pacer = new Pacer();
  for (const s of visible) {
    if (pacer.due()) await pacer.pause();
    const sub = subs.get(s.id);
    if (sub?.active) subscribed.push(record(s, sub));
    else if (sub) unsubscribed.push(record(s, sub));
    else {
      const sb = subscribersFor(s);
      never.push({
        ...formatStream(s, { systemGroups, subscriberCount: counts.get(s.id)! }),
        ...('subscribers' in sb ? { subscribers: sb.subscribers } : {}),
        ...('partialSubscribers' in sb ? { partial_subscribers: sb.partialSubscribers } : {}),
      });
    }
  }
  return { subscriptions: subscribed, unsubscribed, never_subscribed: never };
}

export interface StreamListOptions {
  includePublic: boolean;
  includeWebPublic: boolean;
  includeSubscribed: boolean;
  includeAll: boolean;
  includeDefault: boolean;
  excludeArchived: boolean;
  includeCanAccessContent: boolean;
}

// Channels for GET /streams and the `stream` block: what the viewer may know of, narrowed by the filters.
export async function streamList(db: Db, realm: Realm, user: User, o: StreamListOptions) {
  const viewer: Viewer = { user, groups: await groupsOfUser(db, user.id) };
  const systemGroups = await systemGroupIds(db, realm.id);
  const subs = new Map((await subscriptionsOfUser(db, user.id)).map((s) => [s.streamId, s]));
  const defaults = new Set(await listDefaultStreamIds(db, realm.id));
  const chosen = (await listStreams(db, realm.id)).filter((s) => {
    const sub = subs.get(s.id);
    if (!hasMetadataAccess(viewer, s, sub)) return false;
    if (o.excludeArchived && s.isArchived) return false;
    if (o.includeAll) return true;
    if (o.includeSubscribed && sub?.active) return true;
    if (o.includeDefault && defaults.has(s.id)) return true;
    if (o.includeWebPublic && s.isWebPublic) return true;
    if (o.includePublic && !s.inviteOnly && !isGuest(user)) return true;
    return o.includeCanAccessContent && hasContentAccess(viewer, s, sub);
  });
  const counts = await subscriberCounts(db, chosen.map((s) => s.id));
  return chosen.map((s) => ({
    ...formatStream(s, { systemGroups, subscriberCount: counts.get(s.id)! }),
    is_default: defaults.has(s.id),
  }));
}

export async function defaultStreamsState(db: Db, realm: Realm) {
  const systemGroups = await systemGroupIds(db, realm.id);
  const ids = new Set(await listDefaultStreamIds(db, realm.id));
  const streams = (await listStreams(db, realm.id)).filter((s) => ids.has(s.id));
  const counts = await subscriberCounts(db, streams.map((s) => s.id));
  return streams.map((s) => formatStream(s, { systemGroups, subscriberCount: counts.get(s.id)! }));
}
