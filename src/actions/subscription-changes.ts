// Unsubscribing, and PATCH /users/me/subscriptions, which subscribes (`add`) and unsubscribes (`delete`) in one
// transaction and answers with both results merged, as the reference server's update_subscriptions_backend does.
import type { App } from '../app.js';
import { ApiError } from '../lib/errors.js';
import { LIMITS } from '../lib/limits.js';
import { pace } from '../lib/pace.js';
import { canRemoveSubscribers, hasMetadataAccess, type Viewer } from '../permissions/channels.js';
import type { Tx } from '../store/db.js';
import { systemGroupIds } from '../store/groups.js';
import type { Realm } from '../store/realms.js';
import { findStreamByName, type Stream } from '../store/streams.js';
import { deactivateSubscriptions, findSubscription, subscriberIds } from '../store/subscriptions.js';
import type { User } from '../store/users.js';
import { formatStream } from '../format/channels.js';
import { realmFakeEmailDomain } from '../format/users.js';
import { channelAudience, viewerOf } from './channels.js';
import { checkNotGuest } from './checks.js';
import { resolvePrincipals, subscribeInTx, withCreationQuota, type SubscribeInput } from './subscriptions.js';
import { inTransaction, type Emit } from './transaction.js';

export async function doUnsubscribe(app: App, realm: Realm, user: User, names: string[], principals?: (string | number)[]) {
  return inTransaction(app, (tx, emit) => unsubscribeInTx(tx, emit, realm, user, names, principals, realmFakeEmailDomain(app, realm)));
}

// A channel named twice (in any case) is unsubscribed from once.
async function unsubscribeInTx(tx: Tx, emit: Emit, realm: Realm, user: User, names: string[], principals: (string | number)[] | undefined, placeholderDomain: string) {
  const viewer: Viewer = await viewerOf(tx, user);
  const targets = principals?.length ? await resolvePrincipals(tx, realm, principals, placeholderDomain) : [user];
  if (targets.length * names.length > LIMITS.subscriptionsPerRequest) {
    throw new ApiError(`Too many subscriptions in one request: ${targets.length} users × ${names.length} channels (limit: ${LIMITS.subscriptionsPerRequest})`);
  }
  const removed: string[] = [];
  const notRemoved: string[] = [];
  const seen = new Set<number>();
  for (const raw of names) {
    const stream = await findStreamByName(tx, realm.id, raw.trim());
    const own = stream && (await findSubscription(tx, user.id, stream.id));
    if (!stream || !hasMetadataAccess(viewer, stream, own)) throw new ApiError(`Channel(s) (${raw}) do not exist`, 'STREAM_DOES_NOT_EXIST', 400, { stream: raw });
    if (seen.has(stream.id)) continue;
    seen.add(stream.id);
    if (targets.some((t) => t.id !== user.id) && !canRemoveSubscribers(viewer, stream, own)) throw new ApiError('Insufficient permission');
    const current = new Set((await subscriberIds(tx, [stream.id])).get(stream.id));
    const leaving = targets.filter((t) => current.has(t.id));
    if (!leaving.length) {
      notRemoved.push(stream.name);
      continue;
    }
    await removeSubscribersInTx(tx, emit, realm, stream, leaving);
    removed.push(stream.name);
    await pace();
  }
  return { removed, not_removed: notRemoved };
}

// Unsubscribes `leaving` (subscribers all) from the channel, with the events of it.
export async function removeSubscribersInTx(tx: Tx, emit: Emit, realm: Realm, stream: Stream, leaving: User[]): Promise<void> {
  await deactivateSubscriptions(tx, stream.id, leaving.map((t) => t.id));
  emit(realm.id, { type: 'subscription', op: 'remove', subscriptions: [{ name: stream.name, stream_id: stream.id }] }, leaving.map((t) => t.id));
  const knowers = new Set(await channelAudience(tx, realm.id, stream));
  const leavers = new Set(leaving.map((t) => t.id));
  // Leaving a channel one knows of only as a subscriber (a private one, or a public one for a guest) loses it.
  const lost = [...leavers].filter((id) => !knowers.has(id));
  if (lost.length) {
    const count = (await subscriberIds(tx, [stream.id])).get(stream.id)!.length;
    emit(realm.id, { type: 'stream', op: 'delete', streams: [formatStream(stream, { systemGroups: await systemGroupIds(tx, realm.id), subscriberCount: count })], stream_ids: [stream.id] }, lost);
  }
  const audience = [...knowers].filter((id) => !leavers.has(id));
  if (audience.length) emit(realm.id, { type: 'subscription', op: 'peer_remove', stream_ids: [stream.id], user_ids: [...leavers] }, audience);
}

// `add` as POST /users/me/subscriptions takes it (with the same creation parameters and principals), then
// `delete` as DELETE does, for the same principals; either failing undoes both.
export async function doUpdateSubscriptions(app: App, realm: Realm, user: User, add: SubscribeInput, remove: string[], realmUrl: string) {
  if (!add.subscriptions.length && !remove.length) throw new ApiError('Nothing to do. Specify at least one of "add" or "delete".');
  // The reference server runs its subscribe view, guarded by require_non_guest_user, whatever `add` holds.
  checkNotGuest(user);
  return withCreationQuota(app, user, (quota) => inTransaction(app, async (tx, emit) => {
    const subscribed = await subscribeInTx(tx, emit, realm, user, { ...add, placeholderDomain: realmFakeEmailDomain(app, realm) }, realmUrl, quota);
    const unsubscribed = await unsubscribeInTx(tx, emit, realm, user, remove, add.principals, realmFakeEmailDomain(app, realm));
    return { ...subscribed, ...unsubscribed };
  }));
}
