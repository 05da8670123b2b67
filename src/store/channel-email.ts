import type { Db, Tx } from './db.js';

// Each channel's e-mail gateway token, made when its address is first asked for.
export async function channelEmailToken(db: Db, streamId: number): Promise<string | undefined> {
  const row = await db.selectFrom('channel_email_tokens').select('token').where('stream_id', '=', streamId).executeTakeFirst();
  return row?.token;
}

// Keeps the token already there should another request have made one meanwhile.
export async function insertChannelEmailToken(tx: Tx, t: { streamId: number; realmId: number; token: string }, now: number): Promise<void> {
  await tx
    .insertInto('channel_email_tokens')
    .values({ stream_id: t.streamId, realm_id: t.realmId, token: t.token, created: now })
    .onConflict((oc) => oc.column('stream_id').doNothing())
    .execute();
}

export async function channelByEmailToken(db: Db, token: string): Promise<{ streamId: number; realmId: number } | undefined> {
  const row = await db.selectFrom('channel_email_tokens').select(['stream_id', 'realm_id']).where('token', '=', token).executeTakeFirst();
  return row && { streamId: row.stream_id, realmId: row.realm_id };
}
