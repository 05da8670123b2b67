// Mobile devices (POST /register_client_device, /remove_client_device) and their push registrations: the
// end-to-end encrypted kind (POST /mobile_push/register, feature level 468) and the older plain tokens
// (/users/me/apns_device_token, /users/me/android_gcm_reg_id). Registrations are stored here and forwarded to
// the push bouncer after the commit, never holding up or failing the request; with no bouncer configured they
// are kept (and sent once one is) and the fact is logged.
import type { App } from '../app.js';
import { nowSeconds } from '../app.js';
import { ApiError, MissingArgumentError } from '../lib/errors.js';
import { bouncerOf, BouncerError, sendToBouncer } from '../lib/bouncer.js';
import { realmUuid } from '../state/realm.js';
import {
  addPushToken, countDevices, deleteDevice, findDevice, insertDevice, pendingRegistrations, removePushToken, TOKEN_KIND, updateDevice, type Device,
} from '../store/devices.js';
import { findRealm } from '../store/realms.js';
import type { Realm } from '../store/realms.js';
import type { User } from '../store/users.js';
import { inTransaction, type Emit } from './transaction.js';
import type { deviceState } from '../state/devices.js';

// Devices one user may hold (each login of the app registers one; logging out removes it).
export const MAX_DEVICES_PER_USER = 100;
// The libsodium secretbox tag the mobile app puts before its 32-byte key (lib/model/push_key.dart).
const PUSH_KEY_SECRETBOX = 0x31;

const invalidDevice = () => new ApiError('Invalid device ID');

function emitUpdate(emit: Emit, realmId: number, userId: number, deviceId: number, changes: Partial<ReturnType<typeof deviceState>>) {
  if (Object.keys(changes).length) emit(realmId, { type: 'device', op: 'update', device_id: deviceId, ...changes }, [userId]);
}

export async function doRegisterClientDevice(app: App, realm: Realm, user: User): Promise<{ device_id: number }> {
  return inTransaction(app, async (tx, emit) => {
    if ((await countDevices(tx, user.id)) >= MAX_DEVICES_PER_USER) throw new ApiError(`You may register at most ${MAX_DEVICES_PER_USER} devices.`);
    const id = await insertDevice(tx, realm.id, user.id, nowSeconds());
    emit(realm.id, { type: 'device', op: 'add', device_id: id }, [user.id]);
    return { device_id: id };
  });
}

export async function doRemoveClientDevice(app: App, realm: Realm, user: User, deviceId: number): Promise<void> {
  await inTransaction(app, async (tx, emit) => {
    const device = await findDevice(tx, user.id, deviceId);
    if (!device) throw invalidDevice();
    await deleteDevice(tx, device.id);
    emit(realm.id, { type: 'device', op: 'remove', device_id: device.id }, [user.id]);
  });
}

export interface PushDeviceInput {
  deviceId: number;
  pushKeyId?: number;
  pushKey?: string;
  tokenKind?: 'fcm' | 'apns';
  tokenId?: string;
  bouncerPublicKey?: string;
  encryptedPushRegistration?: string;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const isBase64 = (s: string) => s.length > 0 && s.length % 4 === 0 && BASE64.test(s);

// Either group of fields comes whole: a new key, a new token, or both.
function checkPushInput(input: PushDeviceInput): { key: boolean; token: boolean } {
  const keyFields = { push_key_id: input.pushKeyId, push_key: input.pushKey };
  const tokenFields = { token_kind: input.tokenKind, token_id: input.tokenId, bouncer_public_key: input.bouncerPublicKey, encrypted_push_registration: input.encryptedPushRegistration };
  const given = (fields: Record<string, unknown>) => Object.values(fields).some((v) => v !== undefined);
  const key = given(keyFields);
  const token = given(tokenFields);
  if (!key && !token) throw new ApiError('Missing push key or token fields.');
  for (const [group, fields] of [[key, keyFields], [token, tokenFields]] as const) {
    if (!group) continue;
    for (const [name, value] of Object.entries(fields)) if (value === undefined) throw new MissingArgumentError(name);
  }
  if (key) {
    const bytes = isBase64(input.pushKey!) ? Buffer.from(input.pushKey!, 'base64') : null;
    if (!bytes || bytes.length !== 33 || bytes[0] !== PUSH_KEY_SECRETBOX) throw new ApiError('Invalid push_key');
  }
  if (token) {
    if (!isBase64(input.tokenId!) || input.tokenId!.length > 128) throw new ApiError('Invalid token_id');
    if (!isBase64(input.bouncerPublicKey!) || input.bouncerPublicKey!.length > 128) throw new ApiError('Invalid bouncer_public_key');
    if (!isBase64(input.encryptedPushRegistration!) || input.encryptedPushRegistration!.length > 16_384) throw new ApiError('Invalid encrypted_push_registration');
  }
  return { key, token };
}

export async function doRegisterPushDevice(app: App, realm: Realm, user: User, input: PushDeviceInput): Promise<void> {
  const { key, token } = checkPushInput(input);
  const forward = await inTransaction(app, async (tx, emit) => {
    const device = await findDevice(tx, user.id, input.deviceId);
    if (!device) throw invalidDevice();
    const changes: Partial<Device> = {};
    const shown: Partial<ReturnType<typeof deviceState>> = {};
    if (key) {
      Object.assign(changes, { push_key_id: input.pushKeyId!, push_key: input.pushKey! });
      if (device.push_key_id !== input.pushKeyId) shown.push_key_id = input.pushKeyId!;
    }
    if (token) {
      const registration = { token_kind: input.tokenKind, token_id: input.tokenId, bouncer_public_key: input.bouncerPublicKey, encrypted_push_registration: input.encryptedPushRegistration };
      Object.assign(changes, { token_kind: input.tokenKind!, pending_push_token_id: input.tokenId!, pending_registration: JSON.stringify(registration), push_registration_error_code: null });
      if (device.pending_push_token_id !== input.tokenId) shown.pending_push_token_id = input.tokenId!;
      if (device.push_registration_error_code !== null) shown.push_registration_error_code = null;
    }
    await updateDevice(tx, device.id, changes);
    emitUpdate(emit, realm.id, user.id, device.id, shown);
    return token;
  });
  if (forward) void forwardRegistration(app, realm.id, user.id, input.deviceId);
}

// Sends a device's pending token registration to the bouncer; its answer settles the device's state.
export async function forwardRegistration(app: App, realmId: number, userId: number, deviceId: number): Promise<void> {
  const bouncer = bouncerOf(app.config);
  if (!bouncer) {
    app.log.info({ userId, deviceId }, 'push notification bouncer not configured (PARLANCE_PUSH_BOUNCER_URL): device registration kept, not forwarded');
    return;
  }
  const device = await findDevice(app.db, userId, deviceId);
  const realm = await findRealm(app.db, realmId);
  if (!device?.pending_registration || !realm) return;
  const r = JSON.parse(device.pending_registration) as Record<string, string>;
  let settled: Partial<Device>;
  try {
    const answer = await sendToBouncer(bouncer, 'push/e2ee/register', {
      form: { realm_uuid: realmUuid(realm), token_id: r.token_id, bouncer_public_key: r.bouncer_public_key, encrypted_push_registration: r.encrypted_push_registration },
    });
    settled = { bouncer_device_id: Number(answer.device_id), push_token_id: r.token_id, push_token_last_updated: nowSeconds(), push_registration_error_code: null };
  } catch (err) {
    if (!(err instanceof BouncerError) || err.retry) {
      app.log.warn({ err, deviceId }, 'push device registration not forwarded to the bouncer; will try again');
      return;
    }
    app.log.warn({ code: err.code, msg: err.message, deviceId }, 'the push bouncer refused a device registration');
    settled = { push_registration_error_code: err.code ?? 'BAD_REQUEST' };
  }
  await inTransaction(app, async (tx, emit) => {
    // Only if the registration is still the one sent: a newer one waits for its own answer.
    const now = await findDevice(tx, userId, deviceId);
    if (!now || now.pending_registration !== device.pending_registration) return;
    await updateDevice(tx, deviceId, { ...settled, pending_push_token_id: null, pending_registration: null });
    const shown: Partial<ReturnType<typeof deviceState>> = { pending_push_token_id: null };
    if (settled.push_token_id !== undefined) Object.assign(shown, { push_token_id: settled.push_token_id, push_token_last_updated_timestamp: settled.push_token_last_updated });
    if (settled.push_registration_error_code) shown.push_registration_error_code = settled.push_registration_error_code;
    emitUpdate(emit, realmId, userId, deviceId, shown);
  });
}

// The older registrations: checked as the reference checks them, stored, and told to the bouncer.
const APP_ID = /^[.a-zA-Z0-9-]+$/;

function checkToken(token: string, kind: number): void {
  if (token === '' || token.length > 4096) throw new ApiError('Empty or invalid length token');
  if (kind === TOKEN_KIND.apns && !/^([0-9a-fA-F]{2})+$/.test(token)) throw new ApiError('Invalid APNS token');
}

export async function doAddPushToken(app: App, realm: Realm, user: User, kind: 'apns' | 'fcm', token: string, appId?: string): Promise<void> {
  const k = TOKEN_KIND[kind];
  checkToken(token, k);
  if (kind === 'apns') {
    if (appId === undefined) throw new MissingArgumentError('appid');
    if (!APP_ID.test(appId)) throw new ApiError('Invalid app ID');
  }
  const added = await inTransaction(app, (tx) => addPushToken(tx, realm.id, { userId: user.id, kind: k, token, iosAppId: kind === 'apns' ? appId! : null }, nowSeconds()));
  if (added) void tellBouncer(app, realm, user, 'push/register', { token, token_kind: k, ...(kind === 'apns' ? { ios_app_id: appId! } : {}) });
}

export async function doRemovePushToken(app: App, realm: Realm, user: User, kind: 'apns' | 'fcm', token: string): Promise<void> {
  const k = TOKEN_KIND[kind];
  checkToken(token, k);
  const removed = await inTransaction(app, (tx) => removePushToken(tx, user.id, k, token));
  if (!removed) throw new ApiError('Token does not exist');
  void tellBouncer(app, realm, user, 'push/unregister', { token, token_kind: k });
}

async function tellBouncer(app: App, realm: Realm, user: User, endpoint: string, data: Record<string, string | number>): Promise<void> {
  const bouncer = bouncerOf(app.config);
  if (!bouncer) {
    app.log.info({ userId: user.id, endpoint }, 'push notification bouncer not configured (PARLANCE_PUSH_BOUNCER_URL): push token kept, not forwarded');
    return;
  }
  const identity = { server_uuid: bouncer.orgId, realm_uuid: realmUuid(realm), user_uuid: userUuid(realm, user.id), user_id: user.id };
  await sendToBouncer(bouncer, endpoint, { form: { ...identity, ...data } }).catch((err) => app.log.warn({ err, endpoint }, 'push bouncer request failed'));
}

// A stable UUID per user, derived like the organization's (src/state/realm.ts realmUuid).
export function userUuid(realm: Realm, userId: number): string {
  const base = realmUuid(realm).replaceAll('-', '');
  const hex = (BigInt(`0x${base}`) ^ BigInt(userId)).toString(16).padStart(32, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

// A periodic pass (with a bouncer configured): registrations left pending are sent again.
export async function retryPendingRegistrations(app: App): Promise<void> {
  if (!bouncerOf(app.config)) return;
  for (const d of await pendingRegistrations(app.db, 100)) await forwardRegistration(app, d.realmId, d.userId, d.id);
}
