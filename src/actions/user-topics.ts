// Topic visibility: POST /user_topics and the deprecated PATCH /users/me/subscriptions/muted_topics.
import type { App } from '../app.js';
import { ApiError } from '../lib/errors.js';
import { hasContentAccess } from '../permissions/channels.js';
import { EMPTY_TOPIC_DISPLAY_NAME } from '../state/realm-data.js';
import type { Db, Tx } from '../store/db.js';
import type { Realm } from '../store/realms.js';
import { findStream, findStreamByName, type Stream } from '../store/streams.js';
import { findSubscription } from '../store/subscriptions.js';
import { deleteUserTopic, findUserTopic, insertUserTopic } from '../store/user-topics.js';
import type { User } from '../store/users.js';
import { viewerOf } from './channels.js';
import { inTransaction, type Emit } from './transaction.js';
import { VISIBILITY_POLICY, mutedTopicsList } from '../state/user-topics.js';

const POLICIES: readonly number[] = Object.values(VISIBILITY_POLICY);

// `(no topic)` and the empty topic's display name name the empty topic (feature level 370).
export function readTopicName(raw: string): string {
  return raw === '(no topic)' || raw === EMPTY_TOPIC_DISPLAY_NAME ? '' : raw;
}

export type ChannelKey = { id: number } | { name: string };

export interface TopicVisibilityInput {
  channel: ChannelKey;
  topic: string;
  visibilityPolicy: number;
  // Message for a channel that cannot be found when only removing a policy; differs between the two endpoints.
  removalError?: string;
}

// Setting a policy needs content access to an active channel. Removing one needs only that the channel exists,
// so that a user who lost access can still clear what they set.
async function accessChannelForTopic(db: Db, realm: Realm, user: User, key: ChannelKey, removing: boolean, removalError: string): Promise<Stream> {
  const stream = 'id' in key ? await findStream(db, realm.id, key.id) : await findStreamByName(db, realm.id, key.name);
  if (removing) {
    if (!stream) throw new ApiError(removalError);
    return stream;
  }
  const invalid = () => new ApiError('id' in key ? 'Invalid channel ID' : `Invalid channel name '${key.name}'`);
  if (!stream || stream.isArchived) throw invalid();
  const sub = await findSubscription(db, user.id, stream.id);
  if (!hasContentAccess(await viewerOf(db, user), stream, sub)) throw invalid();
  return stream;
}

// Nothing is written and no event is sent when the topic already has the requested policy.
export async function doSetTopicVisibility(app: App, realm: Realm, user: User, input: TopicVisibilityInput): Promise<void> {
  if (!POLICIES.includes(input.visibilityPolicy)) {
    throw new ApiError('Invalid visibility_policy', 'BAD_REQUEST', 400, { var_name: 'visibility_policy' });
  }
  const topic = readTopicName(input.topic);
  const removing = input.visibilityPolicy === VISIBILITY_POLICY.inherit;
  await inTransaction(app, async (tx, emit) => {
    const stream = await accessChannelForTopic(tx, realm, user, input.channel, removing, input.removalError ?? 'Invalid channel ID');
    const existing = await findUserTopic(tx, user.id, stream.id, topic);
    if ((existing?.visibilityPolicy ?? VISIBILITY_POLICY.inherit) === input.visibilityPolicy) return;
    await setTopicPolicyInTx(tx, emit, realm.id, user.id, stream, topic, input.visibilityPolicy, Math.floor(Date.now() / 1000));
  });
}

// Writes one user's policy for a topic (inherit removes it) and tells the user. The legacy event carries the
// whole muted list; queues that asked for user_topic do not receive it, and a caller about to send another
// may skip it.
export async function setTopicPolicyInTx(
  tx: Tx, emit: Emit, realmId: number, userId: number, stream: Stream, topic: string, policy: number, now: number, legacyEvent = true,
): Promise<void> {
  if (policy === VISIBILITY_POLICY.inherit) await deleteUserTopic(tx, userId, stream.id, topic);
  else await insertUserTopic(tx, { userId, streamId: stream.id, topicName: topic, visibilityPolicy: policy, lastUpdated: now });
  if (legacyEvent) emit(realmId, { type: 'muted_topics', muted_topics: await mutedTopicsList(tx, userId) }, [userId]);
  emit(realmId, { type: 'user_topic', stream_id: stream.id, topic_name: topic, last_updated: now, visibility_policy: policy }, [userId]);
}

// PATCH /users/me/subscriptions/muted_topics: exactly one of stream_id and stream; idempotent since feature level 169.
export async function doUpdateMutedTopic(
  app: App,
  realm: Realm,
  user: User,
  input: { streamId?: number; stream?: string; topic: string; op: 'add' | 'remove' },
): Promise<void> {
  if (input.streamId === undefined && input.stream === undefined) throw new ApiError("Missing 'stream_id' argument");
  if (input.streamId !== undefined && input.stream !== undefined) {
    throw new ApiError('Unsupported parameter combination: stream_id, stream', 'BAD_REQUEST', 400, { parameters: 'stream_id, stream' });
  }
  await doSetTopicVisibility(app, realm, user, {
    channel: input.streamId !== undefined ? { id: input.streamId } : { name: input.stream! },
    topic: input.topic,
    visibilityPolicy: input.op === 'add' ? VISIBILITY_POLICY.muted : VISIBILITY_POLICY.inherit,
    removalError: 'Topic is not muted',
  });
}
