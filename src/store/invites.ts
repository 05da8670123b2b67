import type { Selectable } from 'kysely';
import type { Db } from './db.js';
import type { MultiuseInviteTable } from './schema.js';
import { isStoredId } from './users.js';

export interface MultiuseInvite {
  id: number;
  realmId: number;
  key: string;
  referredBy: number;
  invitedAs: number;
  created: number;
  expiry: number | null;
  revoked: boolean;
  includeRealmDefaultSubscriptions: boolean;
  streamIds: number[];
  groupIds: number[];
  welcomeMessageCustomText: string | null;
}

const toInvite = (r: Selectable<MultiuseInviteTable>): MultiuseInvite => ({
  id: r.id, realmId: r.realm_id, key: r.key, referredBy: r.referred_by, invitedAs: r.invited_as, created: r.created, expiry: r.expiry,
  revoked: r.revoked === 1, includeRealmDefaultSubscriptions: r.include_realm_default_subscriptions === 1,
  streamIds: JSON.parse(r.stream_ids), groupIds: JSON.parse(r.group_ids), welcomeMessageCustomText: r.welcome_message_custom_text,
});

// The column's width; keys are made 24 characters long.
export const MAX_KEY_LENGTH = 40;

export type NewInvite = Omit<MultiuseInvite, 'id' | 'revoked'>;

export async function insertInvite(db: Db, i: NewInvite): Promise<MultiuseInvite> {
  const row = await db
    .insertInto('multiuse_invites')
    .values({
      realm_id: i.realmId, key: i.key, referred_by: i.referredBy, invited_as: i.invitedAs, created: i.created, expiry: i.expiry,
      include_realm_default_subscriptions: i.includeRealmDefaultSubscriptions ? 1 : 0, stream_ids: JSON.stringify(i.streamIds),
      group_ids: JSON.stringify(i.groupIds), welcome_message_custom_text: i.welcomeMessageCustomText,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toInvite(row);
}

export async function findInvite(db: Db, realmId: number, id: number): Promise<MultiuseInvite | undefined> {
  if (!isStoredId(id)) return undefined;
  const row = await db.selectFrom('multiuse_invites').selectAll().where('realm_id', '=', realmId).where('id', '=', id).executeTakeFirst();
  return row && toInvite(row);
}

export async function findInviteByKey(db: Db, key: string): Promise<MultiuseInvite | undefined> {
  const row = await db.selectFrom('multiuse_invites').selectAll().where('key', '=', key).executeTakeFirst();
  return row && toInvite(row);
}

// Links not revoked and not expired at `now`, of one creator or (referredBy undefined) of everyone.
export async function listLiveInvites(db: Db, realmId: number, now: number, referredBy?: number): Promise<MultiuseInvite[]> {
  let q = db
    .selectFrom('multiuse_invites')
    .selectAll()
    .where('realm_id', '=', realmId)
    .where('revoked', '=', 0)
    .where((eb) => eb.or([eb('expiry', 'is', null), eb('expiry', '>', now)]));
  if (referredBy !== undefined) q = q.where('referred_by', '=', referredBy);
  return (await q.orderBy('id').execute()).map(toInvite);
}

export async function revokeInvite(db: Db, id: number): Promise<void> {
  await db.updateTable('multiuse_invites').set({ revoked: 1 }).where('id', '=', id).execute();
}

// Ends the given links now (as the reference server ends a departed user's: their expiry becomes now).
export async function expireInvites(db: Db, ids: number[], now: number): Promise<void> {
  if (ids.length) await db.updateTable('multiuse_invites').set({ expiry: now }).where('id', 'in', ids).execute();
}
