// Subscribing (creating missing channels), unsubscribing and per-user subscription settings.
import type { App } from '../app.js';
import { ApiError } from '../http/errors.js';
import { canAddSubscribers, canRemoveSubscribers, canSeeSubscribers, hasContentAccess, canSubscribeSelf, hasMetadataAccess, isRealmAdmin, type Viewer } from '../permissions/channels.js';
import { streamList, subscriptionState, type StreamListOptions } from '../state/subscriptions.js';
import type { Tx } from '../store/db.js';
import { systemGroupIds } from '../store/groups.js';
import type { Realm } from '../store/realms.js';
import { findStreamByName, nameKey, setDefaultStream, type Stream } from '../store/streams.js';
import {
  activateSubscriptions, deactivateSubscriptions, findSubscription, subscriberIds, subscriptionsOfUser, updateSubscriptionProperty,
  type SubscriptionProperty,
} from '../store/subscriptions.js';
import { findUsers, findUsersByEmails, type User } from '../store/users.js';
import { formatStream, formatSubscription } from '../format/channels.js';
import { displayTopic } from '../format/messages.js';
import { channelTopics } from '../store/messages.js';
import { accessChannelById, accessChannelByName, channelAudience, checkChannelName, checkNewChannel, holdsRealmSetting, insertChannel, realmGroupValue, viewerOf, type NewChannelInput } from './channels.js';
import { checkNotGuest } from './checks.js';
import { inTransaction, type Emit } from './transaction.js';
import { isUniqueViolation } from '../store/tx.js';
import { SERVER_LIMITS } from '../state/realm-data.js';
import { postSubscriptionNotices } from './channel-notices.js';

const COLORS = ['#76ce90', '#fae589', '#a6c7e5', '#e79ab5', '#bfd56f', '#f4ae55', '#b0a5fd', '#addfe5', '#f5ce6e', '#c2726a', '#94c849', '#bd86e5', '#ee7e4a', '#a6dcbf', '#95a5fd', '#53a063', '#9987e1', '#e4523d', '#c2c2c2', '#4f8de4', '#c6a8ad', '#e7cc4d', '#c8bebf', '#a47462'];

// A new subscription's color: the first of COLORS the user has not used yet.
export const newSubscriptionColor = (taken: Set<string>, userId: number, streamId: number) =>
  COLORS.find((c) => !taken.has(c)) ?? COLORS[(userId + streamId) % COLORS.length];

// Principals arrive as user ids or API e-mails; an unknown or deactivated one is an error.
export async function resolvePrincipals(tx: Tx, realm: Realm, principals: (string | number)[]): Promise<User[]> {
  const ids = principals.filter((p): p is number => typeof p === 'number');
  const emails = principals.filter((p): p is string => typeof p === 'string');
  const users = [...(await findUsers(tx, realm.id, ids)), ...(await findUsersByEmails(tx, realm.id, emails))];
  const byId = new Map(users.map((u) => [u.id, u]));
  const byEmail = new Map(users.map((u) => [u.email.toLowerCase(), u]));
  return principals.map((p) => {
    const u = typeof p === 'number' ? byId.get(p) : byEmail.get(p.toLowerCase());
    if (!u || !u.isActive) throw new ApiError(`User not authorized to execute queries on behalf of '${p}'`, 'BAD_REQUEST', 400, { principal: p });
    return u;
  });
}

export interface SubscribeInput extends Omit<NewChannelInput, 'name' | 'description'> {
  subscriptions: { name: string; description?: string; color?: string }[];
  principals?: (string | number)[];
  authorizationErrorsFatal: boolean;
  isDefaultStream: boolean;
  announce: boolean;
  sendNewSubscriptionMessages: boolean;
}

export async function doSubscribe(app: App, realm: Realm, user: User, input: SubscribeInput, realmUrl: string) {
  // As the reference server refuses the whole endpoint to guests (require_non_guest_user).
  checkNotGuest(user);
  return inTransaction(app, async (tx, emit) => {
    const viewer = await viewerOf(tx, user);
    const systemGroups = await systemGroupIds(tx, realm.id);
    const principals = input.principals?.length ? await resolvePrincipals(tx, realm, input.principals) : [user];
    const others = principals.some((p) => p.id !== user.id);

    const streams: Stream[] = [];
    const created: Stream[] = [];
    const unauthorized: string[] = [];
    const seen = new Set<string>();
    // A color asked for with a channel is every new subscriber's color for it.
    const colors = new Map<string, string>();
    for (const item of input.subscriptions) {
      if (item.color === undefined) continue;
      if (!/^#[0-9a-fA-F]{3,6}$/.test(item.color)) throw new ApiError('add.color is not a valid hex color code');
      colors.set(nameKey(item.name), item.color);
    }
    for (const item of input.subscriptions) {
      const name = checkChannelName(item.name);
      if (seen.has(name.toLowerCase())) continue;
      seen.add(name.toLowerCase());
      let stream = await findStreamByName(tx, realm.id, name);
      if (!stream) {
        // As the reference server checks them: only when a channel is created.
        if (input.isDefaultStream && !isRealmAdmin(user)) throw new ApiError('Insufficient permission');
        if (input.isDefaultStream && input.inviteOnly) throw new ApiError('A default channel cannot be private.');
        const channel = await checkNewChannel(tx, realm, viewer, { ...input, name, description: item.description ?? '' }, systemGroups);
        try {
          stream = await insertChannel(tx, channel);
        } catch (err) {
          if (isUniqueViolation(err)) throw new ApiError(`Channel '${name}' already exists`, 'CHANNEL_ALREADY_EXISTS', 409, { channel_name: name });
          throw err;
        }
        created.push(stream);
        streams.push(stream);
        continue;
      }
      const sub = await findSubscription(tx, user.id, stream.id);
      const allowed = stream.isArchived
        ? false
        : others
          ? canAddSubscribers(viewer, stream, realmGroupValue(realm, 'can_add_subscribers_group', systemGroups), sub) && (principals.every((p) => p.id !== user.id) || sub?.active || canSubscribeSelf(viewer, stream))
          : sub?.active || canSubscribeSelf(viewer, stream);
      if (allowed) streams.push(stream);
      else if (input.authorizationErrorsFatal) throw new ApiError(`Unable to access channel (${stream.name}).`);
      else unauthorized.push(stream.name);
    }
    if (others && created.length && !holdsRealmSetting(viewer, realm, 'can_add_subscribers_group', systemGroups)) {
      throw new ApiError('Insufficient permission');
    }

    for (const s of created) if (input.isDefaultStream) await setDefaultStream(tx, realm.id, s.id, true);

    const { subscribed, already, added } = await addSubscriptionsInTx(tx, emit, realm, systemGroups, principals, streams, created, colors);
    // Direct messages to the users subscribed by someone else are skipped for bulk subscriptions.
    const directMessages = input.sendNewSubscriptionMessages && Object.keys(subscribed).length <= SERVER_LIMITS.max_bulk_new_subscription_messages;
    await postSubscriptionNotices({ tx, emit, realm, realmUrl }, user, { created, added, announce: input.announce, directMessages });
    return {
      subscribed,
      already_subscribed: already,
      ...(input.authorizationErrorsFatal ? {} : { unauthorized }),
      ...(input.sendNewSubscriptionMessages ? { new_subscription_messages_sent: directMessages } : {}),
    };
  });
}

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
  const current = await subscriberIds(tx, streams.map((s) => s.id));
  const knewBefore = new Map<number, Set<number>>();
  for (const s of streams) if (!created.includes(s)) knewBefore.set(s.id, new Set(await channelAudience(tx, realm.id, s, current.get(s.id))));
  const newByStream = new Map<number, number[]>();
  const pairs: { userId: number; streamId: number; color: string }[] = [];
  for (const p of users) {
    const mine = new Set((await subscriptionsOfUser(tx, p.id)).map((s) => s.color));
    for (const s of streams) {
      if (current.get(s.id)!.includes(p.id)) {
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

async function emitSubscribeEvents(tx: Tx, realm: Realm, emit: Emit, systemGroups: Map<string, number>, changes: SubscribeChanges): Promise<void> {
  const { created, added, newByStream, knewBefore } = changes;
  const allIds = [...new Set([...created.map((s) => s.id), ...newByStream.keys()])];
  const subscribers = await subscriberIds(tx, allIds);
  const streamsById = new Map<number, Stream>();
  for (const list of added.values()) for (const s of list) streamsById.set(s.id, s);
  for (const s of created) streamsById.set(s.id, s);
  for (const s of created) {
    const audience = await channelAudience(tx, realm.id, s, subscribers.get(s.id));
    emit(realm.id, { type: 'stream', op: 'create', streams: [formatStream(s, { systemGroups, subscriberCount: subscribers.get(s.id)!.length })] }, audience);
  }
  // Users who did not know of a channel (a private one, or a public one for a guest) get it before their
  // subscription.
  for (const [streamId, userIds] of newByStream) {
    const newcomers = userIds.filter((id) => knewBefore.get(streamId)?.has(id) === false);
    const s = streamsById.get(streamId)!;
    if (newcomers.length) emit(realm.id, { type: 'stream', op: 'create', streams: [formatStream(s, { systemGroups, subscriberCount: subscribers.get(streamId)!.length })] }, newcomers);
  }
  for (const [userId, list] of added) {
    const subs: Record<string, unknown>[] = [];
    for (const s of list) {
      const sub = (await findSubscription(tx, userId, s.id))!;
      const ids = subscribers.get(s.id)!;
      subs.push(formatSubscription(s, sub, { systemGroups, subscriberCount: ids.length, subscribers: ids }));
    }
    emit(realm.id, { type: 'subscription', op: 'add', subscriptions: subs }, [userId]);
  }
  // A new channel's create event already counts its first subscribers.
  for (const [streamId, userIds] of newByStream) {
    if (created.some((c) => c.id === streamId)) continue;
    // Subscribing gave only the new subscribers knowledge of the channel: the others who know of it now knew before.
    const audience = [...knewBefore.get(streamId)!].filter((id) => !userIds.includes(id));
    if (audience.length) emit(realm.id, { type: 'subscription', op: 'peer_add', stream_ids: [streamId], user_ids: userIds }, audience);
  }
}

export async function doUnsubscribe(app: App, realm: Realm, user: User, names: string[], principals?: (string | number)[]) {
  return inTransaction(app, async (tx, emit) => {
    const viewer: Viewer = await viewerOf(tx, user);
    const targets = principals?.length ? await resolvePrincipals(tx, realm, principals) : [user];
    const removed: string[] = [];
    const notRemoved: string[] = [];
    for (const raw of names) {
      const stream = await findStreamByName(tx, realm.id, raw.trim());
      const own = stream && (await findSubscription(tx, user.id, stream.id));
      if (!stream || !hasMetadataAccess(viewer, stream, own)) throw new ApiError(`Channel(s) (${raw}) do not exist`, 'STREAM_DOES_NOT_EXIST', 400, { stream: raw });
      if (targets.some((t) => t.id !== user.id) && !canRemoveSubscribers(viewer, stream, own)) throw new ApiError('Insufficient permission');
      const current = new Set((await subscriberIds(tx, [stream.id])).get(stream.id));
      const leaving = targets.filter((t) => current.has(t.id));
      if (!leaving.length) {
        notRemoved.push(stream.name);
        continue;
      }
      await deactivateSubscriptions(tx, leaving.map((t) => ({ userId: t.id, streamId: stream.id })));
      removed.push(stream.name);
      for (const t of leaving) emit(realm.id, { type: 'subscription', op: 'remove', subscriptions: [{ name: stream.name, stream_id: stream.id }] }, [t.id]);
      const knowers = await channelAudience(tx, realm.id, stream);
      // Leaving a channel one knows of only as a subscriber (a private one, or a public one for a guest) loses it.
      const lost = leaving.filter((t) => !knowers.includes(t.id)).map((t) => t.id);
      if (lost.length) {
        const count = (await subscriberIds(tx, [stream.id])).get(stream.id)!.length;
        emit(realm.id, { type: 'stream', op: 'delete', streams: [formatStream(stream, { systemGroups: await systemGroupIds(tx, realm.id), subscriberCount: count })], stream_ids: [stream.id] }, lost);
      }
      const audience = knowers.filter((id) => !leaving.some((t) => t.id === id));
      if (audience.length) emit(realm.id, { type: 'subscription', op: 'peer_remove', stream_ids: [stream.id], user_ids: leaving.map((t) => t.id) }, audience);
    }
    return { removed, not_removed: notRemoved };
  });
}

export const SUBSCRIPTION_PROPERTIES = ['color', 'is_muted', 'in_home_view', 'pin_to_top', 'desktop_notifications', 'audible_notifications', 'push_notifications', 'email_notifications', 'wildcard_mentions_notify'] as const;

export async function doSetSubscriptionProperties(app: App, realm: Realm, user: User, changes: { stream_id: number; property: string; value: unknown }[]) {
  return inTransaction(app, async (tx, emit) => {
    for (const { stream_id, property, value } of changes) {
      const sub = await findSubscription(tx, user.id, stream_id);
      if (!sub || !sub.active) throw new ApiError(`Not subscribed to channel ID ${stream_id}`);
      if (!(SUBSCRIPTION_PROPERTIES as readonly string[]).includes(property)) throw new ApiError(`Unknown subscription property: ${property}`);
      let stored: boolean | string | null;
      if (property === 'color') {
        if (typeof value !== 'string' || !/^#[0-9a-fA-F]{6}$/.test(value)) throw new ApiError('color is not a valid hex color code');
        stored = value;
      } else {
        const nullable = property !== 'is_muted' && property !== 'in_home_view' && property !== 'pin_to_top';
        if (typeof value !== 'boolean' && !(nullable && value === null)) throw new ApiError(`${property} is not a boolean`);
        stored = value;
      }
      // in_home_view is the legacy inverse of is_muted; both are announced (feature level 139).
      const column: SubscriptionProperty = property === 'in_home_view' ? 'is_muted' : (property as SubscriptionProperty);
      const v = property === 'in_home_view' ? !stored : stored;
      await updateSubscriptionProperty(tx, user.id, stream_id, column, v);
      if (column === 'is_muted') {
        emit(realm.id, { type: 'subscription', op: 'update', stream_id, property: 'in_home_view', value: !v }, [user.id]);
        emit(realm.id, { type: 'subscription', op: 'update', stream_id, property: 'is_muted', value: v }, [user.id]);
      } else emit(realm.id, { type: 'subscription', op: 'update', stream_id, property, value: v }, [user.id]);
    }
  });
}

export async function accessSubscriptionList(app: App, realm: Realm, user: User, includeSubscribers: boolean) {
  const { subscriptions } = await subscriptionState(app.db, realm, user, { includeSubscribers: includeSubscribers ? 'true' : 'false', capabilities: { notification_settings_null: false } });
  return subscriptions;
}

export async function accessStreamList(app: App, realm: Realm, user: User, options: StreamListOptions) {
  if (options.includeAll && !isRealmAdmin(user)) throw new ApiError('User not authorized for this query');
  return streamList(app.db, realm, user, options);
}

export async function accessChannel(app: App, realm: Realm, user: User, key: { id?: number; name?: string }) {
  const viewer = await viewerOf(app.db, user);
  const { stream, sub } = key.id !== undefined ? await accessChannelById(app.db, realm, viewer, key.id) : await accessChannelByName(app.db, realm, viewer, key.name!);
  const systemGroups = await systemGroupIds(app.db, realm.id);
  const subscribers = (await subscriberIds(app.db, [stream.id])).get(stream.id)!;
  return {
    stream: formatStream(stream, { systemGroups, subscriberCount: subscribers.length }),
    subscribers: canSeeSubscribers(viewer, stream, sub) ? subscribers : null,
  };
}

// GET /users/me/{stream_id}/topics: a channel's topics, as far as the caller may read its history.
export async function accessChannelTopics(app: App, realm: Realm, user: User, streamId: number, allowEmptyTopicName: boolean) {
  const viewer = await viewerOf(app.db, user);
  const { stream, sub } = await accessChannelById(app.db, realm, viewer, streamId);
  if (!hasContentAccess(viewer, stream, sub)) throw new ApiError('Invalid channel ID');
  const topics = await channelTopics(app.db, stream.id, stream.historyPublicToSubscribers ? undefined : user.id);
  return topics.map((t) => ({ ...t, name: displayTopic(t.name, true, allowEmptyTopicName) }));
}
