// Uploaded files and the messages that link to them.
import { sql } from 'kysely';
import type { Db } from './db.js';

export interface Attachment {
  id: number;
  realmId: number;
  ownerId: number;
  pathId: string;
  fileName: string;
  contentType: string | null;
  size: number;
  createTime: number;
}

export interface LinkedMessage {
  id: number;
  dateSent: number;
}

type Row = { id: number; realm_id: number; owner_id: number; path_id: string; file_name: string; content_type: string | null; size: number; create_time: number };
const toAttachment = (r: Row): Attachment => ({
  id: r.id, realmId: r.realm_id, ownerId: r.owner_id, pathId: r.path_id, fileName: r.file_name, contentType: r.content_type,
  size: Number(r.size), createTime: Number(r.create_time),
});

export async function insertAttachment(db: Db, a: Omit<Attachment, 'id'>): Promise<Attachment> {
  const row = await db
    .insertInto('attachments')
    .values({ realm_id: a.realmId, owner_id: a.ownerId, path_id: a.pathId, file_name: a.fileName, content_type: a.contentType, size: a.size, create_time: a.createTime })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toAttachment(row);
}

export async function findAttachment(db: Db, realmId: number, id: number): Promise<Attachment | undefined> {
  const row = await db.selectFrom('attachments').selectAll().where('realm_id', '=', realmId).where('id', '=', id).executeTakeFirst();
  return row && toAttachment(row);
}

export async function findAttachments(db: Db, ids: number[]): Promise<Attachment[]> {
  if (!ids.length) return [];
  const rows = await db.selectFrom('attachments').selectAll().where('id', 'in', ids).orderBy('id').execute();
  return rows.map(toAttachment);
}

export async function findAttachmentsByPath(db: Db, realmId: number, pathIds: string[]): Promise<Attachment[]> {
  if (!pathIds.length) return [];
  const rows = await db.selectFrom('attachments').selectAll().where('realm_id', '=', realmId).where('path_id', 'in', pathIds).execute();
  return rows.map(toAttachment);
}

export async function ownedAttachments(db: Db, ownerId: number): Promise<Attachment[]> {
  const rows = await db.selectFrom('attachments').selectAll().where('owner_id', '=', ownerId).orderBy('id').execute();
  return rows.map(toAttachment);
}

export async function deleteAttachment(db: Db, id: number): Promise<void> {
  await db.deleteFrom('attachment_messages').where('attachment_id', '=', id).execute();
  await db.deleteFrom('attachments').where('id', '=', id).execute();
}

// Bytes the organization's quota counts: its uploads, the declared lengths of resumable uploads in progress,
// and the images of its active custom emoji (deactivated ones are deleted).
export async function realmUploadSpace(db: Db, realmId: number): Promise<number> {
  const { rows } = await sql<{ used: number | string | null }>`select
    coalesce((select sum(size) from attachments where realm_id = ${realmId}), 0)
    + coalesce((select sum(size) from staged_uploads where realm_id = ${realmId}), 0)
    + coalesce((select sum(size) from realm_emoji where realm_id = ${realmId} and deactivated = 0), 0) as used`.execute(db);
  return Number(rows[0]?.used ?? 0);
}

// Up to `limit` attachments after `afterId` in id order, with whether any message links to them: a bounded step
// through the whole table.
export async function attachmentsAfter(db: Db, afterId: number, limit: number): Promise<(Attachment & { claimed: boolean })[]> {
  const rows = await db
    .selectFrom('attachments')
    .selectAll()
    .select((eb) => eb.exists(eb.selectFrom('attachment_messages').select('message_id').whereRef('attachment_messages.attachment_id', '=', 'attachments.id')).as('claimed'))
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ ...toAttachment(r), claimed: Boolean(r.claimed) }));
}

// Deletes those of these attachments that are still unclaimed and older than `createdBefore`; returns them.
export async function deleteUnclaimedAttachments(db: Db, ids: number[], createdBefore: number): Promise<Attachment[]> {
  if (!ids.length) return [];
  const rows = await db
    .deleteFrom('attachments')
    .where('id', 'in', ids)
    .where('create_time', '<', createdBefore)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('attachment_messages').select('message_id').whereRef('attachment_messages.attachment_id', '=', 'attachments.id'))))
    .returningAll()
    .execute();
  return rows.map(toAttachment);
}

// The messages linking to each attachment, oldest first.
export async function linkedMessages(db: Db, attachmentIds: number[]): Promise<Map<number, LinkedMessage[]>> {
  const out = new Map<number, LinkedMessage[]>(attachmentIds.map((id) => [id, []]));
  if (!attachmentIds.length) return out;
  const rows = await db
    .selectFrom('attachment_messages')
    .innerJoin('messages', 'messages.id', 'attachment_messages.message_id')
    .select(['attachment_messages.attachment_id as attachmentId', 'messages.id as id', 'messages.date_sent as dateSent'])
    .where('attachment_messages.attachment_id', 'in', attachmentIds)
    .orderBy('messages.id')
    .execute();
  for (const r of rows) out.get(r.attachmentId)!.push({ id: r.id, dateSent: Number(r.dateSent) });
  return out;
}

// The attachments each of these messages links to.
export async function messageLinks(db: Db, messageIds: number[]): Promise<{ attachmentId: number; messageId: number }[]> {
  if (!messageIds.length) return [];
  return db
    .selectFrom('attachment_messages')
    .select(['attachment_id as attachmentId', 'message_id as messageId'])
    .where('message_id', 'in', messageIds)
    .execute();
}

export async function linkAttachments(db: Db, messageId: number, attachmentIds: number[]): Promise<void> {
  if (!attachmentIds.length) return;
  await db
    .insertInto('attachment_messages')
    .values(attachmentIds.map((attachment_id) => ({ attachment_id, message_id: messageId })))
    .onConflict((oc) => oc.columns(['attachment_id', 'message_id']).doNothing())
    .execute();
}

export async function unlinkAttachments(db: Db, messageIds: number[], attachmentIds?: number[]): Promise<void> {
  if (!messageIds.length || attachmentIds?.length === 0) return;
  let q = db.deleteFrom('attachment_messages').where('message_id', 'in', messageIds);
  if (attachmentIds) q = q.where('attachment_id', 'in', attachmentIds);
  await q.execute();
}
