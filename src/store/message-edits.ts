// SQL for editing, moving and deleting messages and for the per-recipient rows those changes touch.
import { sql } from 'kysely';
import type { Db, Tx } from './db.js';
import { topicKey } from './messages.js';
import { dialectOf, indexMessageText, unindexMessages } from './search.js';

const CHUNK = 500;

function chunks<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

// Serialises concurrent edits of one message on PostgreSQL; SQLite runs one writing transaction at a time.
export async function lockMessage(tx: Tx, id: number): Promise<void> {
  if (dialectOf(tx) === 'postgres') await sql`select id from messages where id = ${id} for update`.execute(tx);
}

export interface TopicMessage {
  id: number;
  dateSent: number;
}

// The messages of a channel topic (topics match case-insensitively), oldest first.
export async function topicMessages(db: Db, streamId: number, topic: string): Promise<TopicMessage[]> {
  const rows = await db
    .selectFrom('messages')
    .select(['id', 'date_sent'])
    .where('stream_id', '=', streamId)
    .where('topic_key', '=', topicKey(topic))
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ id: r.id, dateSent: Number(r.date_sent) }));
}

// Of these messages, those still in the channel topic (another move may have taken some meanwhile).
export async function stillInTopic(db: Db, streamId: number, topic: string, ids: number[]): Promise<number[]> {
  if (!ids.length) return [];
  const rows = await db.selectFrom('messages').select('id').where('stream_id', '=', streamId).where('topic_key', '=', topicKey(topic)).where('id', 'in', ids).execute();
  return rows.map((r) => r.id).sort((a, b) => a - b);
}

export interface MessageRow {
  userId: number;
  messageId: number;
  flags: number;
}

export async function messageRows(db: Db, messageIds: number[]): Promise<MessageRow[]> {
  const out: MessageRow[] = [];
  for (const ids of chunks(messageIds)) {
    const rows = await db.selectFrom('user_messages').select(['user_id', 'message_id', 'flags']).where('message_id', 'in', ids).execute();
    // A chunk of messages may have a row for every member of a large channel: no spread into push.
    for (const r of rows) out.push({ userId: r.user_id, messageId: r.message_id, flags: r.flags });
  }
  return out;
}

export async function setRowFlags(tx: Tx, messageId: number, rows: { userId: number; flags: number }[]): Promise<void> {
  for (const r of rows) {
    await tx.updateTable('user_messages').set({ flags: r.flags }).where('message_id', '=', messageId).where('user_id', '=', r.userId).execute();
  }
}

export async function deleteRows(tx: Tx, userIds: number[], messageIds: number[]): Promise<void> {
  if (!userIds.length) return;
  for (const users of chunks(userIds)) {
    for (const ids of chunks(messageIds)) {
      await tx.deleteFrom('user_messages').where('user_id', 'in', users).where('message_id', 'in', ids).execute();
    }
  }
}

// Rows for users who have none yet for these messages; existing rows (and their flags) stay as they are.
export async function addMissingRows(tx: Tx, userIds: number[], messageIds: number[], flags: number): Promise<void> {
  if (!userIds.length || !messageIds.length) return;
  let values: { user_id: number; message_id: number; flags: number }[] = [];
  const flush = async () => {
    if (values.length) await tx.insertInto('user_messages').values(values).onConflict((oc) => oc.doNothing()).execute();
    values = [];
  };
  for (const user_id of userIds) {
    for (const message_id of messageIds) {
      values.push({ user_id, message_id, flags });
      if (values.length === CHUNK) await flush();
    }
  }
  await flush();
}

// Who holds a row for any of these messages.
export async function messageHolderIds(db: Db, messageIds: number[]): Promise<number[]> {
  const out = new Set<number>();
  for (const ids of chunks(messageIds)) {
    for (const r of await db.selectFrom('user_messages').select('user_id').distinct().where('message_id', 'in', ids).execute()) out.add(r.user_id);
  }
  return [...out];
}

export interface NewContent {
  content: string;
  renderedContent: string;
  hasLink: boolean;
  hasImage: boolean;
  hasAttachment: boolean;
  isMeMessage: boolean;
}

export interface NewLocation {
  recipientId: number;
  streamId: number;
  topic: string;
}

export interface MessageChange {
  content?: NewContent;
  location?: NewLocation;
  lastEditTime?: number;
  lastMovedTime?: number;
}

// Applies one change to each message, putting `entryFor(id)` first in its edit history (most recent first).
export async function applyMessageChange(tx: Tx, ids: number[], change: MessageChange, entryFor: (id: number) => Record<string, unknown>): Promise<void> {
  for (const chunk of chunks(ids)) {
    const rows = await tx.selectFrom('messages').select(['id', 'topic', 'content', 'edit_history']).where('id', 'in', chunk).execute();
    for (const r of rows) {
      const history = [entryFor(r.id), ...(r.edit_history ? (JSON.parse(r.edit_history) as unknown[]) : [])];
      const c = change.content;
      const loc = change.location;
      await tx
        .updateTable('messages')
        .set({
          edit_history: JSON.stringify(history),
          ...(c ? {
            content: c.content, rendered_content: c.renderedContent, has_link: c.hasLink ? 1 : 0, has_image: c.hasImage ? 1 : 0,
            has_attachment: c.hasAttachment ? 1 : 0, is_me_message: c.isMeMessage ? 1 : 0,
          } : {}),
          ...(loc ? { recipient_id: loc.recipientId, stream_id: loc.streamId, topic: loc.topic, topic_key: topicKey(loc.topic) } : {}),
          ...(change.lastEditTime !== undefined ? { last_edit_time: change.lastEditTime } : {}),
          ...(change.lastMovedTime !== undefined ? { last_moved_time: change.lastMovedTime } : {}),
        })
        .where('id', '=', r.id)
        .execute();
      if (c || loc) await indexMessageText(tx, r.id, loc?.topic ?? r.topic, c?.content ?? r.content);
    }
  }
}

export async function deleteMessages(tx: Tx, ids: number[]): Promise<void> {
  await unindexMessages(tx, ids);
  for (const chunk of chunks(ids)) {
    await tx.deleteFrom('user_messages').where('message_id', 'in', chunk).execute();
    await tx.deleteFrom('messages').where('id', 'in', chunk).execute();
  }
}

export async function oldestMessageId(db: Db, streamId: number): Promise<number | null> {
  const row = await db.selectFrom('messages').select((eb) => eb.fn.min('id').as('id')).where('stream_id', '=', streamId).executeTakeFirst();
  return row?.id === null || row?.id === undefined ? null : Number(row.id);
}
