// E-mail invitations (the reference's PreregistrationUser): one address, a key for its sign-up page, what the
// account will get. Status 0 waits, 1 was accepted, 2 was revoked.
import { sql, type Selectable } from 'kysely';
import type { Db, Tx } from './db.js';
import type { EmailInviteTable } from './schema.js';

export const EMAIL_INVITE_STATUS = { waiting: 0, accepted: 1, revoked: 2 } as const;

export interface EmailInvite {
  id: number;
  realmId: number;
  email: string;
  key: string;
  invitedBy: number;
  invitedAt: number;
  expiry: number | null;
  invitedAs: number;
  streamIds: number[];
  groupIds: number[];
  includeRealmDefaultSubscriptions: boolean;
  notifyReferrerOnJoin: boolean;
  welcomeMessageCustomText: string | null;
  status: number;
}

const toInvite = (r: Selectable<EmailInviteTable>): EmailInvite => ({
  id: r.id, realmId: r.realm_id, email: r.email, key: r.key, invitedBy: r.invited_by, invitedAt: Number(r.invited_at),
  expiry: r.expiry === null ? null : Number(r.expiry), invitedAs: r.invited_as, streamIds: JSON.parse(r.stream_ids), groupIds: JSON.parse(r.group_ids),
  includeRealmDefaultSubscriptions: r.include_realm_default_subscriptions === 1, notifyReferrerOnJoin: r.notify_referrer_on_join === 1,
  welcomeMessageCustomText: r.welcome_message_custom_text, status: r.status,
});

export async function insertEmailInvite(tx: Tx, i: Omit<EmailInvite, 'id' | 'status'>): Promise<EmailInvite> {
  const row = await tx
    .insertInto('email_invites')
    .values({
      realm_id: i.realmId, email: i.email, key: i.key, invited_by: i.invitedBy, invited_at: i.invitedAt, expiry: i.expiry, invited_as: i.invitedAs,
      stream_ids: JSON.stringify(i.streamIds), group_ids: JSON.stringify(i.groupIds), include_realm_default_subscriptions: i.includeRealmDefaultSubscriptions ? 1 : 0,
      notify_referrer_on_join: i.notifyReferrerOnJoin ? 1 : 0, welcome_message_custom_text: i.welcomeMessageCustomText,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toInvite(row);
}

export async function findEmailInvite(db: Db, realmId: number, id: number): Promise<EmailInvite | undefined> {
  if (!Number.isSafeInteger(id) || id < 1 || id > 2 ** 31 - 1) return undefined;
  const row = await db.selectFrom('email_invites').selectAll().where('realm_id', '=', realmId).where('id', '=', id).executeTakeFirst();
  return row && toInvite(row);
}

export async function findEmailInviteByKey(db: Db, key: string): Promise<EmailInvite | undefined> {
  const row = await db.selectFrom('email_invites').selectAll().where('key', '=', key).executeTakeFirst();
  return row && toInvite(row);
}

// Waiting invitations that have not expired, of the organization or of one inviter.
export async function listLiveEmailInvites(db: Db, realmId: number, now: number, invitedBy?: number): Promise<EmailInvite[]> {
  let q = db
    .selectFrom('email_invites')
    .selectAll()
    .where('realm_id', '=', realmId)
    .where('status', '=', EMAIL_INVITE_STATUS.waiting)
    .where((eb) => eb.or([eb('expiry', 'is', null), eb('expiry', '>', now)]));
  if (invitedBy !== undefined) q = q.where('invited_by', '=', invitedBy);
  return (await q.orderBy('id').execute()).map(toInvite);
}

export async function setEmailInviteStatus(db: Db, id: number, status: number): Promise<void> {
  await db.updateTable('email_invites').set({ status }).where('id', '=', id).execute();
}

// Once an address has an account, its other waiting invitations are spent.
export async function closeEmailInvitesFor(db: Db, realmId: number, email: string): Promise<void> {
  await db
    .updateTable('email_invites')
    .set({ status: EMAIL_INVITE_STATUS.accepted })
    .where('realm_id', '=', realmId)
    .where('status', '=', EMAIL_INVITE_STATUS.waiting)
    .where(sql<string>`lower(email)`, '=', email.toLowerCase())
    .execute();
}
