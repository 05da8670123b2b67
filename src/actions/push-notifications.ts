// Mobile push notifications for new messages, sent through the push bouncer once the message is committed: to
// the recipients for whom it is a direct message or mentions them (unless it arrived read — their own, or from
// someone they muted — or they turned such notifications off), on their end-to-end encrypted devices
// (push/e2ee/notify, encrypted with each device's key) and their older plain tokens (push/notify). Without a
// bouncer nothing is sent, and that is logged.
import type { App } from '../app.js';
import { bouncerOf, sendToBouncer, type Bouncer } from '../lib/bouncer.js';
import { organizationUrl } from '../lib/urls.js';
import { realmUuid } from '../state/realm.js';
import { userSetting } from '../state/user-settings.js';
import { forgetBouncerDevices, forgetPushTokens, pushableDevices, pushTokensOf, TOKEN_KIND, type Device } from '../store/devices.js';
import type { LoggedEvent, Recipient } from '../store/events.js';
import { findRealm, type Realm } from '../store/realms.js';
import { findUsers } from '../store/users.js';
import { userUuid } from './devices.js';

const MENTION_FLAGS = ['mentioned', 'stream_wildcard_mentioned', 'topic_wildcard_mentioned', 'has_alert_word'];
// The reference shows this much of the message in a notification.
const MAX_CONTENT = 200;

type Message = Record<string, any>;

// Who is to be notified of a new message, from the recipients of its event.
function notified(message: Message, users: Recipient[] | null): number[] {
  if (!users) return [];
  const dm = message.type === 'private';
  const out: number[] = [];
  for (const r of users) {
    const id = typeof r === 'number' ? r : r.id;
    const flags = typeof r === 'number' ? [] : (r.flags ?? []);
    if (id === message.sender_id || flags.includes('read')) continue;
    if (dm || flags.some((f) => MENTION_FLAGS.includes(f))) out.push(id);
  }
  return out;
}

function excerpt(raw: string): { content: string; truncated: boolean } {
  const chars = [...raw];
  return chars.length <= MAX_CONTENT ? { content: raw, truncated: false } : { content: chars.slice(0, MAX_CONTENT - 1).join('') + '…', truncated: true };
}

// The message as the mobile app reads a notification (lib/api/notifications.dart NotifPayloadNewMessage).
function payload(app: App, realm: Realm, message: Message, raw: string, userId: number): Record<string, unknown> {
  const realmUrl = organizationUrl(app, realm);
  const avatar = String(message.avatar_url ?? '');
  const recipient = message.type === 'stream'
    ? { recipient_type: 'channel', channel_id: message.stream_id, channel_name: message.display_recipient, topic: message.subject }
    : { recipient_type: 'direct', recipient_user_ids: (message.display_recipient as { id: number }[]).map((u) => u.id) };
  return {
    type: 'message', realm_url: realmUrl, realm_name: realm.name, user_id: userId,
    sender_id: message.sender_id, sender_full_name: message.sender_full_name, sender_avatar_url: avatar.startsWith('/') ? realmUrl + avatar : avatar,
    ...recipient, message_id: message.id, time: message.timestamp, content: excerpt(raw).content,
  };
}

// Loaded with the first encrypted notification, not at start-up (B8).
let naclModule: Promise<typeof import('tweetnacl')> | undefined;
const loadNacl = () => (naclModule ??= import('tweetnacl').then((m) => (m as unknown as { default?: typeof m }).default ?? m));

// nonce (24 bytes) followed by the secretbox, with the device's key (its first byte names the cryptosystem).
function encryptFor(nacl: typeof import('tweetnacl'), device: Device, data: Record<string, unknown>): string {
  const key = Buffer.from(device.push_key!, 'base64').subarray(1);
  const nonce = nacl.randomBytes(nacl.secretbox.nonceLength);
  const box = nacl.secretbox(Buffer.from(JSON.stringify(data), 'utf8'), nonce, key);
  return Buffer.concat([Buffer.from(nonce), Buffer.from(box)]).toString('base64');
}

// The older, unencrypted payloads (the reference's get_message_payload_gcm / _apns).
function legacyPayloads(app: App, realm: Realm, message: Message, raw: string, userId: number) {
  const { content, truncated } = excerpt(raw);
  const base = {
    server: new URL(organizationUrl(app, realm)).host, realm_id: realm.id, realm_name: realm.name, realm_uri: organizationUrl(app, realm), realm_url: organizationUrl(app, realm),
    user_id: userId, sender_id: message.sender_id, sender_email: message.sender_email, time: message.timestamp,
    ...(message.type === 'stream' ? { recipient_type: 'stream', stream: message.display_recipient, stream_id: message.stream_id, topic: message.subject } : { recipient_type: 'private' }),
  };
  const gcm = { ...base, event: 'message', zulip_message_id: message.id, content, content_truncated: truncated, sender_full_name: message.sender_full_name, sender_avatar_url: message.avatar_url };
  const title = message.type === 'stream' ? `#${message.display_recipient} > ${message.subject}` : message.sender_full_name;
  const apns = { alert: { title, subtitle: message.type === 'stream' ? `${message.sender_full_name}:` : '', body: content }, sound: 'default', badge: 0, custom: { zulip: { ...base, message_ids: [message.id] } } };
  return { gcm, apns };
}

async function notify(app: App, bouncer: Bouncer, e: LoggedEvent, message: Message): Promise<void> {
  const realm = await findRealm(app.db, e.realmId);
  if (!realm) return;
  const candidates = notified(message, e.users);
  if (!candidates.length) return;
  // The reference's setting for mobile notifications of direct messages and mentions.
  const users = (await findUsers(app.db, realm.id, candidates)).filter((u) => u.isActive && userSetting(u, 'enable_offline_push_notifications'));
  const raw = String(e.event._raw_content ?? '');
  const ids = users.map((u) => u.id);
  const devices = await pushableDevices(app.db, ids);
  if (devices.length) {
    const nacl = await loadNacl();
    const encrypted = Object.fromEntries(devices.map((d) => [String(d.bouncer_device_id), encryptFor(nacl, d, { ...payload(app, realm, message, raw, d.user_id), push_key_id: d.push_key_id })]));
    const pushKeyIds = Object.fromEntries(devices.map((d) => [String(d.bouncer_device_id), d.push_key_id]));
    const answer = await sendToBouncer(bouncer, 'push/e2ee/notify', { json: { realm_uuid: realmUuid(realm), device_id_to_encrypted_data: encrypted, device_id_to_push_key_id: pushKeyIds } });
    if (Array.isArray(answer.delete_device_ids)) await forgetBouncerDevices(app.db, answer.delete_device_ids.map(Number));
  }
  const tokens = await pushTokensOf(app.db, ids);
  for (const id of new Set(tokens.map((t) => t.userId))) {
    const mine = tokens.filter((t) => t.userId === id);
    const { gcm, apns } = legacyPayloads(app, realm, message, raw, id);
    const answer = await sendToBouncer(bouncer, 'push/notify', {
      json: {
        user_uuid: userUuid(realm, id), user_id: id, realm_uuid: realmUuid(realm), apns_payload: apns, gcm_payload: gcm, gcm_options: { priority: 'high' },
        android_devices: mine.filter((t) => t.kind === TOKEN_KIND.fcm).map((t) => t.token), apple_devices: mine.filter((t) => t.kind === TOKEN_KIND.apns).map((t) => t.token),
      },
    });
    const deleted = answer.deleted_devices as { android_devices?: string[]; apple_devices?: string[] } | undefined;
    if (deleted?.android_devices?.length) await forgetPushTokens(app.db, TOKEN_KIND.fcm, deleted.android_devices);
    if (deleted?.apple_devices?.length) await forgetPushTokens(app.db, TOKEN_KIND.apns, deleted.apple_devices);
  }
}

let warnedOff = false;

// Called with the events a transaction of this process committed; returns at once, the sending goes on after.
export function pushForCommitted(app: App, events: LoggedEvent[]): void {
  const messages = events.filter((e) => e.event.type === 'message');
  if (!messages.length) return;
  const bouncer = bouncerOf(app.config);
  if (!bouncer) {
    if (!warnedOff) app.log.info('push notification bouncer not configured (PARLANCE_PUSH_BOUNCER_URL): no mobile push notifications are sent');
    warnedOff = true;
    return;
  }
  for (const e of messages) {
    void notify(app, bouncer, e, e.event.message as Message).catch((err) => app.log.warn({ err }, 'push notification not sent'));
  }
}
