// Subscribing (creating missing channels) and per-user subscription settings.
import type { App } from '../app.js';
import { ApiError, RateLimitedError } from '../lib/errors.js';
import { accessUser } from './users.js';
import { LIMITS } from '../lib/limits.js';
import { pace } from '../lib/pace.js';
import { canAddSubscribers, canSeeSubscribers, hasContentAccess, canSubscribeSelf, isRealmAdmin } from '../permissions/channels.js';
import { streamList, subscriptionState, type StreamListOptions } from '../state/subscriptions.js';
import type { Tx } from '../store/db.js';
import { systemGroupIds } from '../store/groups.js';
import type { Realm } from '../store/realms.js';
import { findStreamByName, nameKey, setDefaultStream, type Stream } from '../store/streams.js';
import { findSubscription, subscriberIds, updateSubscriptionProperty, type SubscriptionProperty } from '../store/subscriptions.js';
import { findUsers, findUsersByEmails, type User } from '../store/users.js';
import { formatStream } from '../format/channels.js';
import { realmFakeEmailDomain } from '../format/users.js';
import { displayTopic } from '../format/messages.js';
import { channelTopics } from '../store/messages.js';
import { accessChannelById, accessChannelByName, checkChannelName, checkNewChannel, holdsRealmSetting, insertChannel, realmGroupValue, viewerOf, type NewChannelInput } from './channels.js';
import { checkNotGuest } from './checks.js';
import { inTransaction, type Emit } from './transaction.js';
import { isUniqueViolation } from '../store/tx.js';
import { SERVER_LIMITS } from '../state/realm-data.js';
import { postSubscriptionNotices } from './channel-notices.js';
import { addSubscriptionsInTx } from './subscription-add.js';

// Principals arrive as user ids or API e-mails (a real address is no principal, even where the caller may see
// it, as on the reference server); an unknown or deactivated one is an error. A user named twice (by id, by
// e-mail, or both) counts once.
export async function resolvePrincipals(tx: Tx, realm: Realm, principals: (string | number)[], placeholderDomain: string): Promise<User[]> {
  const ids = [...new Set(principals.filter((p): p is number => typeof p === 'number'))];
  const emails = [...new Set(principals.filter((p): p is string => typeof p === 'string'))];
  const users = [...(await findUsers(tx, realm.id, ids)), ...(await findUsersByEmails(tx, realm.id, emails, placeholderDomain))];
  const byId = new Map(users.map((u) => [u.id, u]));
  const byEmail = new Map(users.map((u) => [u.email.toLowerCase(), u]));
  const out = new Map<number, User>();
  for (const p of principals) {
    const u = typeof p === 'number' ? byId.get(p) : byEmail.get(p.toLowerCase());
    if (!u || !u.isActive) throw new ApiError(`User not authorized to execute queries on behalf of '${p}'`, 'BAD_REQUEST', 400, { principal: p });
    out.set(u.id, u);
  }
  return [...out.values()];
}

export interface SubscribeInput extends Omit<NewChannelInput, 'name' | 'description'> {
  subscriptions: { name: string; description?: string; color?: string }[];
  principals?: (string | number)[];
  authorizationErrorsFatal: boolean;
  isDefaultStream: boolean;
  announce: boolean;
  sendNewSubscriptionMessages: boolean;
  // POST /channels/create: exactly these principals subscribe (none, if none are named), the caller not added.
  onlyPrincipals?: boolean;
  // The organization's placeholder domain (realmFakeEmailDomain), set by the action from configuration.
  placeholderDomain?: string;
}

// Channels a user creates count against PARLANCE_CHANNEL_CREATION_LIMIT per hour (off with the other per-user
// limits, PARLANCE_RATE_LIMIT=0). A request takes its channels before creating them and gives them back if it
// fails, so concurrent requests cannot pass the limit together.
export class CreationQuota {
  private taken = 0;
  constructor(private app: App, private user: User) {}

  private get key() {
    return `channels-created:${this.user.id}`;
  }

  async take(count: number): Promise<void> {
    const { channelCreationPerHour: max, rateLimitPerMinute } = this.app.config;
    if (max <= 0 || rateLimitPerMinute <= 0 || count === 0) return;
    const v = await this.app.limiter.hit(this.key, max, 3600, count);
    if (!v.allowed) {
      const wait = Math.ceil(v.retryAfter);
      throw new RateLimitedError(wait, `Too many channels created: at most ${max} an hour (${v.remaining} more now); try again in ${wait} seconds.`);
    }
    this.taken += count;
  }

  async giveBack(): Promise<void> {
    if (this.taken) await this.app.limiter.refund(this.key, this.taken);
    this.taken = 0;
  }
}

// Runs a subscribing transaction; channels counted for one that fails are given back.
export async function withCreationQuota<T>(app: App, user: User, fn: (quota: CreationQuota) => Promise<T>): Promise<T> {
  const quota = new CreationQuota(app, user);
  try {
    return await fn(quota);
  } catch (err) {
    await quota.giveBack();
    throw err;
  }
}

export async function doSubscribe(app: App, realm: Realm, user: User, input: SubscribeInput, realmUrl: string) {
  // As the reference server refuses the whole endpoint to guests (require_non_guest_user).
  checkNotGuest(user);
  const withDomain = { ...input, placeholderDomain: realmFakeEmailDomain(app, realm) };
  return withCreationQuota(app, user, (quota) => inTransaction(app, (tx, emit) => subscribeInTx(tx, emit, realm, user, withDomain, realmUrl, quota)));
}

export async function subscribeInTx(tx: Tx, emit: Emit, realm: Realm, user: User, input: SubscribeInput, realmUrl: string, quota: CreationQuota) {
  const viewer = await viewerOf(tx, user);
  const systemGroups = await systemGroupIds(tx, realm.id);
  const principals = input.principals?.length
    ? await resolvePrincipals(tx, realm, input.principals, input.placeholderDomain ?? '')
    : input.onlyPrincipals ? [] : [user];
  const others = principals.some((p) => p.id !== user.id);

  // The channels named (once each), and the bounds on what the request would create and subscribe.
  const named = new Map<string, { name: string; description: string; stream: Stream | undefined }>();
  for (const item of input.subscriptions) {
    const name = checkChannelName(item.name);
    if (named.has(name.toLowerCase())) continue;
    named.set(name.toLowerCase(), { name, description: item.description ?? '', stream: await findStreamByName(tx, realm.id, name) });
  }
  const creating = [...named.values()].filter((n) => !n.stream).length;
  if (creating > LIMITS.channelsCreatedPerRequest) {
    throw new ApiError(`Too many new channels in one request: ${creating} (limit: ${LIMITS.channelsCreatedPerRequest})`);
  }
  if (principals.length * named.size > LIMITS.subscriptionsPerRequest) {
    throw new ApiError(`Too many subscriptions in one request: ${principals.length} users × ${named.size} channels (limit: ${LIMITS.subscriptionsPerRequest})`);
  }

  const streams: Stream[] = [];
  const created: Stream[] = [];
  const unauthorized: string[] = [];
  // A color asked for with a channel is every new subscriber's color for it.
  const colors = new Map<string, string>();
  for (const item of input.subscriptions) {
    if (item.color === undefined) continue;
    if (!/^#[0-9a-fA-F]{3,6}$/.test(item.color)) throw new ApiError('add.color is not a valid hex color code');
    colors.set(nameKey(item.name), item.color);
  }
  for (const { name, description, stream: found } of named.values()) {
    let stream = found;
    if (!stream) {
      // As the reference server checks them: only when a channel is created.
      if (input.isDefaultStream && !isRealmAdmin(user)) throw new ApiError('Insufficient permission');
      if (input.isDefaultStream && input.inviteOnly) throw new ApiError('A default channel cannot be private.');
      const channel = await checkNewChannel(tx, realm, viewer, { ...input, name, description }, systemGroups);
      if (!created.length) await quota.take(creating);
      try {
        stream = await insertChannel(tx, channel);
      } catch (err) {
        if (isUniqueViolation(err)) throw new ApiError(`Channel '${name}' already exists`, 'CHANNEL_ALREADY_EXISTS', 409, { channel_name: name });
        throw err;
      }
      created.push(stream);
      streams.push(stream);
      await pace();
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

// GET /users/{user_id}/subscriptions/{stream_id}: whether a user the caller may access is subscribed to a channel
// whose subscribers the caller may see.
export async function accessSubscriptionStatus(app: App, realm: Realm, user: User, userId: number, streamId: number): Promise<{ is_subscribed: boolean }> {
  const target = await accessUser(app, realm, user, { id: userId });
  const viewer = await viewerOf(app.db, user);
  const { stream, sub } = await accessChannelById(app.db, realm, viewer, streamId);
  if (!canSeeSubscribers(viewer, stream, sub)) throw new ApiError('Invalid channel ID');
  return { is_subscribed: (await findSubscription(app.db, target.id, stream.id))?.active ?? false };
}

// POST /channels/create (feature level 417): a new channel, with exactly the subscribers named; a name in use is
// the reference's 409.
export async function doCreateChannel(app: App, realm: Realm, user: User, input: SubscribeInput & { name: string; description: string }, realmUrl: string): Promise<{ id: number }> {
  checkNotGuest(user);
  const name = checkChannelName(input.name);
  const taken = () => new ApiError(`Channel '${name}' already exists`, 'CHANNEL_ALREADY_EXISTS', 409, { channel_name: name });
  if (await findStreamByName(app.db, realm.id, name)) throw taken();
  const withDomain = { ...input, subscriptions: [{ name, description: input.description }], onlyPrincipals: true, placeholderDomain: realmFakeEmailDomain(app, realm) };
  return withCreationQuota(app, user, (quota) => inTransaction(app, async (tx, emit) => {
    // Created meanwhile by another request: subscribing to it is not what was asked.
    if (await findStreamByName(tx, realm.id, name)) throw taken();
    await subscribeInTx(tx, emit, realm, user, withDomain, realmUrl, quota);
    return { id: (await findStreamByName(tx, realm.id, name))!.id };
  }));
}
