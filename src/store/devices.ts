// Mobile devices and their push registrations (end-to-end encrypted, and the older plain tokens).
import crypto from 'node:crypto';
import type { Selectable } from 'kysely';
import type { Db, Tx } from './db.js';
import type { DeviceTable } from './schema.js';

export type Device = Selectable<DeviceTable>;

const num = (v: number | string | null) => (v === null ? null : Number(v));
const toDevice = (r: Device): Device => ({
  ...r, push_key_id: num(r.push_key_id), push_token_last_updated: num(r.push_token_last_updated), bouncer_device_id: num(r.bouncer_device_id), created: Number(r.created),
});

export async function insertDevice(tx: Tx, realmId: number, userId: number, now: number): Promise<number> {
  const row = await tx.insertInto('devices').values({ realm_id: realmId, user_id: userId, created: now }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function countDevices(db: Db, userId: number): Promise<number> {
  const row = await db.selectFrom('devices').select((eb) => eb.fn.countAll().as('n')).where('user_id', '=', userId).executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function findDevice(db: Db, userId: number, id: number): Promise<Device | undefined> {
  if (!Number.isSafeInteger(id) || id < 1 || id > 2 ** 31 - 1) return undefined;
  const row = await db.selectFrom('devices').selectAll().where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
  return row && toDevice(row);
}

export async function listDevices(db: Db, userId: number): Promise<Device[]> {
  return (await db.selectFrom('devices').selectAll().where('user_id', '=', userId).orderBy('id').execute()).map(toDevice);
}

export async function deleteDevice(tx: Tx, id: number): Promise<void> {
  await tx.deleteFrom('devices').where('id', '=', id).execute();
}

export async function updateDevice(db: Db, id: number, changes: Partial<Omit<Device, 'id' | 'realm_id' | 'user_id' | 'created'>>): Promise<void> {
  await db.updateTable('devices').set(changes).where('id', '=', id).execute();
}

// Devices the bouncer knows (with the key to encrypt for), of these users.
export async function pushableDevices(db: Db, userIds: number[]): Promise<Device[]> {
  const out: Device[] = [];
  for (let i = 0; i < userIds.length; i += 500) {
    const rows = await db
      .selectFrom('devices')
      .selectAll()
      .where('user_id', 'in', userIds.slice(i, i + 500))
      .where('bouncer_device_id', 'is not', null)
      .where('push_key', 'is not', null)
      .execute();
    out.push(...rows.map(toDevice));
  }
  return out;
}

export const TOKEN_KIND = { apns: 1, fcm: 2 } as const;
const tokenHash = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

export interface PushToken {
  userId: number;
  kind: number;
  token: string;
  iosAppId: string | null;
}

// Returns false when the user had the token already.
export async function addPushToken(tx: Tx, realmId: number, t: PushToken, now: number): Promise<boolean> {
  const result = await tx
    .insertInto('push_tokens')
    .values({ realm_id: realmId, user_id: t.userId, kind: t.kind, token: t.token, token_hash: tokenHash(t.token), ios_app_id: t.iosAppId, created: now })
    .onConflict((oc) => oc.columns(['user_id', 'kind', 'token_hash']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function removePushToken(tx: Tx, userId: number, kind: number, token: string): Promise<boolean> {
  const result = await tx.deleteFrom('push_tokens').where('user_id', '=', userId).where('kind', '=', kind).where('token_hash', '=', tokenHash(token)).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function pushTokensOf(db: Db, userIds: number[]): Promise<PushToken[]> {
  const out: PushToken[] = [];
  for (let i = 0; i < userIds.length; i += 500) {
    const rows = await db.selectFrom('push_tokens').select(['user_id', 'kind', 'token', 'ios_app_id']).where('user_id', 'in', userIds.slice(i, i + 500)).execute();
    out.push(...rows.map((r) => ({ userId: r.user_id, kind: r.kind, token: r.token, iosAppId: r.ios_app_id })));
  }
  return out;
}

// Tokens the bouncer reported gone (uninstalled apps), for everyone.
export async function forgetPushTokens(db: Db, kind: number, tokens: string[]): Promise<void> {
  for (let i = 0; i < tokens.length; i += 500) {
    await db.deleteFrom('push_tokens').where('kind', '=', kind).where('token_hash', 'in', tokens.slice(i, i + 500).map(tokenHash)).execute();
  }
}

export async function forgetBouncerDevices(db: Db, bouncerIds: number[]): Promise<void> {
  if (!bouncerIds.length) return;
  await db.updateTable('devices').set({ bouncer_device_id: null, push_token_id: null }).where('bouncer_device_id', 'in', bouncerIds).execute();
}

// Registrations still waiting for the bouncer's answer (a process that stopped before getting one, or a bouncer
// that could not be reached), oldest first.
export async function pendingRegistrations(db: Db, limit: number): Promise<{ id: number; realmId: number; userId: number }[]> {
  const rows = await db.selectFrom('devices').select(['id', 'realm_id', 'user_id']).where('pending_registration', 'is not', null).orderBy('id').limit(limit).execute();
  return rows.map((r) => ({ id: r.id, realmId: r.realm_id, userId: r.user_id }));
}
