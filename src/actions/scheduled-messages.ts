// Scheduled messages (§2.6, §4.6): validated when scheduled exactly as a send would be, delivered at their
// time by a worker through the normal send path, exactly once (the claim and the send share a transaction).
import type { App } from '../app.js';
import { ApiError } from '../lib/errors.js';
import { organizationHost } from '../lib/urls.js';
import { findMessages } from '../store/messages.js';
import { findRealm, type Realm } from '../store/realms.js';
import {
  claimScheduled, countPendingScheduled, deleteScheduled, dueScheduled, findScheduled, insertScheduled, listScheduled, markDelivered, markFailed, updateScheduled,
  type ScheduledFields, type ScheduledMessage,
} from '../store/scheduled-messages.js';
import { dryRun } from '../store/tx.js';
import type { Tx } from '../store/db.js';
import { findUser, type User } from '../store/users.js';
import { sendMessageInTx } from './messages-send.js';
import { notificationBot } from './system-bots.js';
import { checkRoom } from './per-user-limits.js';
import { inTransaction, type Emit } from './transaction.js';
import { formatScheduled } from '../state/scheduled-messages.js';

export interface ScheduleInput {
  type?: string;
  to?: unknown;
  topic?: string;
  content?: string;
  scheduledDeliveryTimestamp?: number;
  readBySender?: boolean;
}

const normalType = (t: string): 'stream' | 'private' => (t === 'stream' || t === 'channel' ? 'stream' : 'private');
const missing = () => new ApiError('Scheduled message does not exist', 'BAD_REQUEST', 404);

function checkTarget(type: 'stream' | 'private', to: unknown): number | number[] {
  const list = Array.isArray(to) ? to : [to];
  if (!list.length || !list.every((x) => typeof x === 'number' && Number.isInteger(x))) throw new ApiError('Invalid recipient list');
  if (type === 'stream') {
    if (list.length !== 1) throw new ApiError('Invalid channel ID');
    return list[0] as number;
  }
  return [...new Set(list as number[])];
}

// Validates by sending in a transaction that is rolled back; returns the fields to store as the send normalised
// them (topic and content), with their rendering.
export async function checkScheduled(app: App, realm: Realm, user: User, f: Omit<ScheduledFields, 'renderedContent' | 'topic'> & { topic?: string }): Promise<ScheduledFields> {
  if (f.scheduledTimestamp <= Math.floor(Date.now() / 1000)) throw new ApiError('Scheduled delivery time must be in the future.');
  const sent = await dryRun(app.db, async (tx) => {
    const { id } = await sendMessageInTx(tx, () => {}, realm, user, { type: f.type, to: f.to, topic: f.topic, content: f.content });
    return (await findMessages(tx, realm.id, [id]))[0];
  });
  return { ...f, topic: f.type === 'stream' ? sent.topic : '', content: sent.content, renderedContent: sent.renderedContent };
}

// Scheduled messages and reminders waiting to be sent count together.
export async function checkRoomToSchedule(tx: Tx, user: User): Promise<void> {
  checkRoom(await countPendingScheduled(tx, user.id), 1, 'scheduled messages and reminders');
}

export async function doCreateScheduled(app: App, realm: Realm, user: User, input: Required<Pick<ScheduleInput, 'type' | 'to' | 'content' | 'scheduledDeliveryTimestamp'>> & ScheduleInput): Promise<number> {
  const type = normalType(input.type);
  // A missing channel topic is refused by the send path, as POST /messages refuses it.
  const fields = await checkScheduled(app, realm, user, {
    type, to: checkTarget(type, input.to), topic: type === 'stream' ? input.topic : '', content: input.content, scheduledTimestamp: input.scheduledDeliveryTimestamp,
  });
  return inTransaction(app, async (tx, emit) => {
    await checkRoomToSchedule(tx, user);
    const m = await insertScheduled(tx, realm.id, user.id, fields, input.readBySender ?? null);
    emit(realm.id, { type: 'scheduled_messages', op: 'add', scheduled_messages: [formatScheduled(m)] }, [user.id]);
    return m.id;
  });
}

export async function doEditScheduled(app: App, realm: Realm, user: User, id: number, input: ScheduleInput): Promise<void> {
  const old = await findScheduled(app.db, user.id, id);
  if (!old) throw missing();
  if (Object.values(input).every((v) => v === undefined)) throw new ApiError('Nothing to change');
  const type = input.type !== undefined ? normalType(input.type) : old.type;
  if (type !== old.type && input.to === undefined) throw new ApiError('Recipient required when updating type of scheduled message.');
  if (type === 'stream' && old.type !== 'stream' && input.topic === undefined) throw new ApiError('Topic required when updating scheduled message type to channel.');
  // A failed message is scheduled again only with a new time (§3).
  if (old.failed && input.scheduledDeliveryTimestamp === undefined) throw new ApiError('Scheduled delivery time must be in the future.');
  const fields = await checkScheduled(app, realm, user, {
    type,
    to: input.to !== undefined ? checkTarget(type, input.to) : old.to,
    topic: type === 'stream' ? (input.topic ?? old.topic) : '',
    content: input.content ?? old.content,
    scheduledTimestamp: input.scheduledDeliveryTimestamp ?? old.scheduledTimestamp,
  });
  await inTransaction(app, async (tx, emit) => {
    if (!(await findScheduled(tx, user.id, id))) throw missing();
    await updateScheduled(tx, id, fields);
    emit(realm.id, { type: 'scheduled_messages', op: 'update', scheduled_message: formatScheduled({ ...old, ...fields, failed: false }) }, [user.id]);
  });
}

export async function doDeleteScheduled(app: App, realm: Realm, user: User, id: number): Promise<void> {
  await inTransaction(app, async (tx, emit) => {
    if (!(await findScheduled(tx, user.id, id))) throw missing();
    await deleteScheduled(tx, id);
    emit(realm.id, { type: 'scheduled_messages', op: 'remove', scheduled_message_id: id }, [user.id]);
  });
}

export async function accessScheduled(app: App, user: User): Promise<Record<string, unknown>[]> {
  return (await listScheduled(app.db, user.id)).map(formatScheduled);
}

// The sender learns why a message was not sent, from the Notification Bot, as on the reference server.
async function notifyFailure(tx: Tx, emit: Emit, app: App, realm: Realm, sender: User, m: ScheduledMessage, reason: string): Promise<void> {
  const bot = await notificationBot(tx, emit, realm, organizationHost(app, realm));
  const when = new Date(m.scheduledTimestamp * 1000).toISOString();
  const content = `The message you scheduled for <time:${when}> was not sent because of the following error:\n> ${reason}\n\n[View scheduled messages](#scheduled)`;
  await sendMessageInTx(tx, emit, realm, bot, { type: 'private', to: [sender.id], content, system: true });
}

// A reminder is delivered by the Notification Bot to the user who set it; a scheduled message by its sender.
async function deliverInTx(app: App, tx: Tx, emit: Emit, realm: Realm, sender: User, m: ScheduledMessage): Promise<number> {
  if (m.reminderTargetMessageId !== null) {
    const bot = await notificationBot(tx, emit, realm, organizationHost(app, realm));
    const { id } = await sendMessageInTx(tx, emit, realm, bot, { type: 'private', to: [sender.id], content: m.content, system: true, client: 'Internal' });
    emit(realm.id, { type: 'reminders', op: 'remove', reminder_id: m.id }, [sender.id]);
    return id;
  }
  const { id } = await sendMessageInTx(tx, emit, realm, sender, {
    type: m.type, to: m.to, topic: m.topic, content: m.content, ...(m.readBySender !== null ? { readBySender: m.readBySender } : {}),
  });
  emit(realm.id, { type: 'scheduled_messages', op: 'remove', scheduled_message_id: m.id }, [sender.id]);
  return id;
}

// One pass of the delivery worker. A send that is no longer allowed marks the message failed, with the reason,
// for its sender; so does an unexpected error, which must not hold up the messages due after it. A failed
// reminder stays listed with `failed` (reminders have no update event).
export async function deliverDueScheduled(app: App): Promise<number> {
  let delivered = 0;
  for (const m of await dueScheduled(app.db, Math.floor(Date.now() / 1000))) {
    const realm = await findRealm(app.db, m.realmId);
    const sender = realm && (await findUser(app.db, realm.id, m.senderId));
    try {
      if (!realm || !sender || !sender.isActive || realm.deactivated) throw new ApiError('The sender can no longer send messages.');
      const sent = await inTransaction(app, async (tx, emit) => {
        if (!(await claimScheduled(tx, m.id, m.scheduledTimestamp))) return false;
        await markDelivered(tx, m.id, await deliverInTx(app, tx, emit, realm, sender, m));
        return true;
      });
      if (sent) delivered++;
    } catch (err) {
      if (!(err instanceof ApiError)) app.log.error({ err, scheduled_message_id: m.id }, 'scheduled message failed');
      const reason = err instanceof ApiError ? err.message : 'Internal server error';
      await inTransaction(app, async (tx, emit) => {
        if (!(await markFailed(tx, m.id, reason)) || !realm || m.reminderTargetMessageId !== null) return;
        emit(realm.id, { type: 'scheduled_messages', op: 'update', scheduled_message: formatScheduled({ ...m, failed: true }) }, [m.senderId]);
        if (sender?.isActive && !realm.deactivated) await notifyFailure(tx, emit, app, realm, sender, m, reason);
      });
    }
  }
  return delivered;
}
