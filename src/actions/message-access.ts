// Loading a message by id for the caller, through the one rule of src/permissions/messages.ts: every endpoint
// that names a message (fetch, edit history, edits and moves, deletion, reactions, flags on messages one holds no
// row for, reminders, reports, edit typing notices, uploads linked from it) calls accessMessage.
import { ApiError } from '../lib/errors.js';
import { canAccessMessage } from '../permissions/messages.js';
import type { Db } from '../store/db.js';
import { groupsOfUser } from '../store/groups.js';
import { findMessages, userMessageFlags, type Message } from '../store/messages.js';
import type { Realm } from '../store/realms.js';
import { findStream, type Stream } from '../store/streams.js';
import { findSubscription } from '../store/subscriptions.js';
import type { User } from '../store/users.js';

export interface AccessedMessage {
  message: Message;
  // The caller's flags, when they hold a row for the message.
  flags: number | undefined;
  stream: Stream | null;
}

// `modifying`: the caller is about to change the message (edit, move, delete, react, announce editing), which the
// reference server refuses in archived channels. The refusal is the same as for a message that does not exist.
export async function accessMessage(db: Db, realm: Realm, user: User, id: number, opts: { modifying?: boolean } = {}): Promise<AccessedMessage> {
  const invalid = () => new ApiError('Invalid message(s)');
  const [message] = await findMessages(db, realm.id, [id]);
  if (!message) throw invalid();
  const flags = (await userMessageFlags(db, user.id, [id])).get(id);
  const stream = message.streamId === null ? null : ((await findStream(db, realm.id, message.streamId)) ?? null);
  if (message.streamId !== null && !stream) throw invalid();
  const sub = stream ? await findSubscription(db, user.id, stream.id) : undefined;
  const viewer = { user, groups: await groupsOfUser(db, user.id) };
  if (!canAccessMessage(viewer, { stream, received: flags !== undefined, sub }, opts)) throw invalid();
  return { message, flags, stream };
}
