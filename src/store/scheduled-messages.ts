import type { Selectable } from 'kysely';
import type { Db } from './db.js';
import type { ScheduledMessageTable } from './schema.js';
import { isStoredId } from './users.js';

export interface ScheduledMessage {
  id: number;
  realmId: number;
  senderId: number;
  type: 'stream' | 'private';
  to: number | number[];
  topic: string;
  content: string;
  renderedContent: string;
  scheduledTimestamp: number;
  readBySender: boolean | null;
  delivered: boolean;
  failed: boolean;
  // Set for reminders: the message they recall.
  reminderTargetMessageId: number | null;
}

const toScheduled = (r: Selectable<ScheduledMessageTable>): ScheduledMessage => ({
  id: r.id, realmId: r.realm_id, senderId: r.sender_id, type: r.type as ScheduledMessage['type'], to: JSON.parse(r.to), topic: r.topic,
  content: r.content, renderedContent: r.rendered_content, scheduledTimestamp: r.scheduled_timestamp,
  readBySender: r.read_by_sender === null ? null : r.read_by_sender === 1, delivered: r.delivered === 1, failed: r.failed === 1,
  reminderTargetMessageId: r.reminder_target_message_id,
});

export type ScheduledFields = Pick<ScheduledMessage, 'type' | 'to' | 'topic' | 'content' | 'renderedContent' | 'scheduledTimestamp'>;

export async function insertScheduled(
  db: Db,
  realmId: number,
  senderId: number,
  f: ScheduledFields,
  readBySender: boolean | null,
  reminderTargetMessageId: number | null = null,
): Promise<ScheduledMessage> {
  const row = await db
    .insertInto('scheduled_messages')
    .values({
      realm_id: realmId, sender_id: senderId, type: f.type, to: JSON.stringify(f.to), topic: f.topic, content: f.content,
      rendered_content: f.renderedContent, scheduled_timestamp: f.scheduledTimestamp, read_by_sender: readBySender === null ? null : readBySender ? 1 : 0,
      reminder_target_message_id: reminderTargetMessageId,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toScheduled(row);
}

// Scheduled messages and reminders share the table and the delivery worker; everything else keeps them apart.
const pending = (db: Db, senderId: number, reminders: boolean) =>
  db
    .selectFrom('scheduled_messages')
    .selectAll()
    .where('sender_id', '=', senderId)
    .where('delivered', '=', 0)
    .where('reminder_target_message_id', reminders ? 'is not' : 'is', null);

// Scheduled messages and reminders together.
export async function countPendingScheduled(db: Db, senderId: number): Promise<number> {
  const row = await db.selectFrom('scheduled_messages').select((eb) => eb.fn.countAll<number>().as('n')).where('sender_id', '=', senderId).where('delivered', '=', 0).executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function findScheduled(db: Db, senderId: number, id: number, reminders = false): Promise<ScheduledMessage | undefined> {
  if (!isStoredId(id)) return undefined;
  const row = await pending(db, senderId, reminders).where('id', '=', id).executeTakeFirst();
  return row && toScheduled(row);
}

export async function updateScheduled(db: Db, id: number, f: ScheduledFields): Promise<void> {
  await db
    .updateTable('scheduled_messages')
    .set({ type: f.type, to: JSON.stringify(f.to), topic: f.topic, content: f.content, rendered_content: f.renderedContent, scheduled_timestamp: f.scheduledTimestamp, failed: 0, failure_message: null })
    .where('id', '=', id)
    .execute();
}

export async function deleteScheduled(db: Db, id: number): Promise<void> {
  await db.deleteFrom('scheduled_messages').where('id', '=', id).execute();
}

export async function listScheduled(db: Db, senderId: number, reminders = false): Promise<ScheduledMessage[]> {
  const rows = await pending(db, senderId, reminders).orderBy('scheduled_timestamp').orderBy('id').execute();
  return rows.map(toScheduled);
}

export async function dueScheduled(db: Db, now: number, limit = 100): Promise<ScheduledMessage[]> {
  const rows = await db.selectFrom('scheduled_messages').selectAll().where('delivered', '=', 0).where('failed', '=', 0).where('scheduled_timestamp', '<=', now).orderBy('scheduled_timestamp').limit(limit).execute();
  return rows.map(toScheduled);
}

// The content of the organization's messages waiting to be sent that link to uploads.
export async function pendingContentWithUploads(db: Db, realmId: number): Promise<string[]> {
  const rows = await db.selectFrom('scheduled_messages').select('content').where('delivered', '=', 0).where('realm_id', '=', realmId).where('content', 'like', '%/user_uploads/%').execute();
  return rows.map((r) => r.content);
}

// Claims a due message for delivery; false when another process (or an edit) got there first.
export async function claimScheduled(db: Db, id: number, scheduledTimestamp: number): Promise<boolean> {
  const r = await db
    .updateTable('scheduled_messages')
    .set({ delivered: 1 })
    .where('id', '=', id)
    .where('delivered', '=', 0)
    .where('failed', '=', 0)
    .where('scheduled_timestamp', '=', scheduledTimestamp)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function markDelivered(db: Db, id: number, messageId: number): Promise<void> {
  await db.updateTable('scheduled_messages').set({ delivered_message_id: messageId }).where('id', '=', id).execute();
}

// False when the message was meanwhile delivered, failed already, or deleted.
export async function markFailed(db: Db, id: number, reason: string): Promise<boolean> {
  const r = await db.updateTable('scheduled_messages').set({ failed: 1, failure_message: reason }).where('id', '=', id).where('delivered', '=', 0).where('failed', '=', 0).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}
