// The reference's older ways of marking messages read: all of them (POST /mark_all_as_read), a channel's
// (/mark_stream_as_read) or a topic's (/mark_topic_as_read). Newest first, in batches of their own transactions,
// so that a user with a great many unread messages makes progress and no request holds the database long.
import type { App } from '../app.js';
import { ApiError } from '../lib/errors.js';
import { hasContentAccess } from '../permissions/channels.js';
import { EMPTY_TOPIC_DISPLAY_NAME } from '../state/realm-data.js';
import { holdsTopic, newestUnread, type ReadScope } from '../store/mark-read.js';
import { changeFlag, FLAG_BITS, topicKey } from '../store/messages.js';
import type { Realm } from '../store/realms.js';
import type { User } from '../store/users.js';
import { accessChannelById, viewerOf } from './channels.js';
import { inTransaction } from './transaction.js';

// The reference's batch size, and how long POST /mark_all_as_read works before answering `complete: false`.
const BATCH = 1000;
const ALL_BUDGET_MS = 50_000;

// Returns whether every unread message of the scope was marked read within the budget.
async function markRead(app: App, realm: Realm, user: User, scope: ReadScope, budgetMs = Infinity): Promise<boolean> {
  const deadline = Date.now() + budgetMs;
  for (;;) {
    if (Date.now() >= deadline) return false;
    const done = await inTransaction(app, async (tx, emit) => {
      const ids = await newestUnread(tx, user.id, scope, BATCH);
      const changed = await changeFlag(tx, user.id, ids, FLAG_BITS.read, true);
      if (changed.length) emit(realm.id, { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: changed, all: false }, [user.id]);
      return ids.length < BATCH;
    });
    if (done) return true;
  }
}

export async function doMarkAllAsRead(app: App, realm: Realm, user: User): Promise<{ complete: boolean }> {
  return { complete: await markRead(app, realm, user, {}, ALL_BUDGET_MS) };
}

async function accessReadableChannel(app: App, realm: Realm, user: User, streamId: number) {
  const viewer = await viewerOf(app.db, user);
  const { stream, sub } = await accessChannelById(app.db, realm, viewer, streamId);
  if (!hasContentAccess(viewer, stream, sub)) throw new ApiError('Invalid channel ID');
  return stream;
}

export async function doMarkChannelAsRead(app: App, realm: Realm, user: User, streamId: number): Promise<void> {
  const stream = await accessReadableChannel(app, realm, user, streamId);
  await markRead(app, realm, user, { streamId: stream.id });
}

export async function doMarkTopicAsRead(app: App, realm: Realm, user: User, streamId: number, topic: string): Promise<void> {
  const stream = await accessReadableChannel(app, realm, user, streamId);
  const key = topicKey(topic === EMPTY_TOPIC_DISPLAY_NAME || topic === '(no topic)' ? '' : topic);
  if (!(await holdsTopic(app.db, user.id, stream.id, key))) throw new ApiError(`No such topic '${topic}'`);
  await markRead(app, realm, user, { streamId: stream.id, topicKey: key });
}
