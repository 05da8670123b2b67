import type { Db, Tx } from './db.js';

// A submessage as message objects and `submessage` events carry it.
export interface Submessage {
  id: number;
  message_id: number;
  sender_id: number;
  msg_type: string;
  content: string;
}

export async function insertSubmessage(tx: Tx, s: Omit<Submessage, 'id'>): Promise<Submessage> {
  const row = await tx.insertInto('submessages').values(s).returning('id').executeTakeFirstOrThrow();
  return { id: row.id, ...s };
}

// Every submessage of these messages, in order, by message.
export async function submessagesOf(db: Db, messageIds: number[]): Promise<Map<number, Submessage[]>> {
  const out = new Map<number, Submessage[]>();
  for (let i = 0; i < messageIds.length; i += 500) {
    const rows = await db
      .selectFrom('submessages')
      .select(['id', 'message_id', 'sender_id', 'msg_type', 'content'])
      .where('message_id', 'in', messageIds.slice(i, i + 500))
      .orderBy('message_id')
      .orderBy('id')
      .execute();
    for (const r of rows) {
      const list = out.get(r.message_id);
      if (list) list.push(r);
      else out.set(r.message_id, [r]);
    }
  }
  return out;
}

// The message's widget: its first submessage of type "widget".
export async function widgetSubmessage(db: Db, messageId: number): Promise<Submessage | undefined> {
  return db
    .selectFrom('submessages')
    .select(['id', 'message_id', 'sender_id', 'msg_type', 'content'])
    .where('message_id', '=', messageId)
    .where('msg_type', '=', 'widget')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
}

export async function hasSubmessageFrom(db: Db, messageId: number, senderId: number): Promise<boolean> {
  const row = await db.selectFrom('submessages').select('id').where('message_id', '=', messageId).where('sender_id', '=', senderId).limit(1).executeTakeFirst();
  return row !== undefined;
}
