// Missed-message mails (the reference's missed-message e-mail notifications): a direct message, a mention, a
// wildcard mention or a message in a followed topic that a user was to be notified of, by their settings, while
// no client of theirs was looking (no event queue polled in the last ACTIVE_SECONDS), waits in the database and
// joins their batch, due PARLANCE_MISSED_MESSAGE_DELAY_SECONDS (else their email_notifications_batching_period_seconds,
// 120 s by default) after its first message. When due, the messages still unread go out in ONE mail; the
// content only where the organization and the user allow it. Noticed after the message's transaction commits,
// so a send never waits for any of this.
import type { App } from '../app.js';
import { nowSeconds } from '../app.js';
import { missedMessagesMail, type MissedMessage } from '../format/mails.js';
import { SAVE_LAG_SECONDS } from '../events/rows.js';
import { realmSettings } from '../state/realm.js';
import { userSetting } from '../state/user-settings.js';
import type { LoggedEvent, Recipient } from '../store/events.js';
import { FLAG_BITS, findMessages, userMessageFlags } from '../store/messages.js';
import { insertMissedNotices, takeUserNotices, TakenElsewhere, usersPolledSince, usersWithDueNotices } from '../store/missed-messages.js';
import { findRealm } from '../store/realms.js';
import { findStream } from '../store/streams.js';
import { subscriptionRows } from '../store/subscriptions.js';
import { topicPolicies } from '../store/user-topics.js';
import { findUsers, type User } from '../store/users.js';
import { queueTemplateMail } from './mail.js';
import { inTransaction } from './transaction.js';
import { VISIBILITY_POLICY } from '../state/user-topics.js';

// A queue row's last poll may lag its client by SAVE_LAG_SECONDS; a little more, and nobody has been looking.
export const ACTIVE_SECONDS = SAVE_LAG_SECONDS + 15;
// Users whose batches one pass of the worker sends.
const USERS_PER_PASS = 50;

type Reason = 'dm' | 'mention' | 'wildcard' | 'followed';
type Message = Record<string, any>;

const delayOf = (app: App, user: User) => app.config.missedMessageDelaySeconds ?? userSetting(user, 'email_notifications_batching_period_seconds');

// Why each recipient may be mailed about the message, before their settings are consulted: in a channel, a
// plain message matters only to those following its topic.
function candidates(message: Message, users: Recipient[], follows: (id: number) => boolean): Map<number, Reason> {
  const out = new Map<number, Reason>();
  for (const r of users) {
    const id = typeof r === 'number' ? r : r.id;
    const flags = typeof r === 'number' ? [] : (r.flags ?? []);
    if (id === message.sender_id || flags.includes('read')) continue;
    if (message.type === 'private') out.set(id, 'dm');
    else if (flags.includes('mentioned')) out.set(id, 'mention');
    else if (flags.includes('stream_wildcard_mentioned') || flags.includes('topic_wildcard_mentioned')) out.set(id, 'wildcard');
    else if (follows(id)) out.set(id, 'followed');
  }
  return out;
}

async function noticesOf(app: App, e: LoggedEvent): Promise<void> {
  const message = e.event.message as Message;
  if (!e.users) return;
  const channel = message.type === 'stream' ? Number(message.stream_id) : null;
  const policies = channel !== null ? await topicPolicies(app.db, channel, String(message.subject)) : new Map<number, number>();
  const follows = (id: number) => policies.get(id) === VISIBILITY_POLICY.followed;
  const found = candidates(message, e.users, follows);
  if (!found.size) return;
  const ids = [...found.keys()];
  const active = await usersPolledSince(app.db, ids, nowSeconds() - ACTIVE_SECONDS);
  const users = (await findUsers(app.db, e.realmId, ids.filter((id) => !active.has(id)))).filter((u) => u.isActive && !u.isBot);
  const subs = channel !== null ? await subscriptionRows(app.db, users.map((u) => u.id), [channel]) : new Map();
  const rows: { realmId: number; userId: number; messageId: number; reason: Reason }[] = [];
  for (const u of users) {
    const reason = found.get(u.id)!;
    const offline = userSetting(u, 'enable_offline_email_notifications');
    let wanted: boolean;
    if (reason === 'dm' || reason === 'mention') wanted = offline;
    else if (reason === 'wildcard') {
      const override = subs.get(`${u.id} ${channel}`)?.notifications.wildcard_mentions_notify ?? null;
      wanted = (offline && (override ?? userSetting(u, 'wildcard_mentions_notify'))) ||
        (follows(u.id) && userSetting(u, 'enable_followed_topic_wildcard_mentions_notify')) ||
        (follows(u.id) && userSetting(u, 'enable_followed_topic_email_notifications'));
    } else wanted = userSetting(u, 'enable_followed_topic_email_notifications');
    if (wanted) rows.push({ realmId: e.realmId, userId: u.id, messageId: Number(message.id), reason });
  }
  const now = nowSeconds();
  const byId = new Map(users.map((u) => [u.id, u]));
  await insertMissedNotices(app.db, rows, (id) => now + delayOf(app, byId.get(id)!));
}

// Called with the events a transaction of this process committed; returns at once.
export function noticeMissedMessages(app: App, events: LoggedEvent[]): void {
  for (const e of events) {
    if (e.event.type !== 'message') continue;
    void noticesOf(app, e).catch((err) => app.log.warn({ err }, 'missed-message notification not recorded'));
  }
}

const whereOf = (m: { streamId: number | null; topic: string }, channelNames: Map<number, string>) =>
  m.streamId === null ? 'direct message' : `#${channelNames.get(m.streamId) ?? 'unknown channel'} > ${m.topic}`;

async function mailBatch(app: App, userId: number): Promise<void> {
  await inTransaction(app, async (tx) => {
    const notices = await takeUserNotices(tx, userId);
    if (!notices.length) return;
    const realm = await findRealm(tx, notices[0].realmId);
    const [user] = realm ? await findUsers(tx, realm.id, [userId]) : [];
    if (!realm || !user || !user.isActive || realm.deactivated) return;
    const flags = await userMessageFlags(tx, userId, notices.map((n) => n.messageId));
    // Read meanwhile (here or on another device), or gone: no mail for it.
    const unread = notices.filter((n) => { const f = flags.get(n.messageId); return f !== undefined && !(f & FLAG_BITS.read); });
    const messages = await findMessages(tx, realm.id, unread.map((n) => n.messageId));
    if (!messages.length) return;
    const senders = new Map((await findUsers(tx, realm.id, [...new Set(messages.map((m) => m.senderId))])).map((u) => [u.id, u.fullName]));
    const channelNames = new Map<number, string>();
    for (const id of new Set(messages.flatMap((m) => (m.streamId === null ? [] : [m.streamId])))) {
      const s = await findStream(tx, realm.id, id);
      if (s) channelNames.set(id, s.name);
    }
    const withContent = !!realmSettings(realm).message_content_allowed_in_email_notifications && userSetting(user, 'message_content_in_email_notifications');
    const missed: MissedMessage[] = messages.map((m) => ({
      id: m.id, senderName: senders.get(m.senderId) ?? 'Someone', where: whereOf(m, channelNames), content: withContent ? m.content : null,
    }));
    await queueTemplateMail(app, tx, realm, user.deliveryEmail, missedMessagesMail({ realmName: realm.name, messages: missed }));
  });
}

// The worker's pass: every user whose batch is due gets its mail.
export async function deliverMissedMessages(app: App): Promise<void> {
  for (const userId of await usersWithDueNotices(app.db, nowSeconds(), USERS_PER_PASS)) {
    try {
      await mailBatch(app, userId);
    } catch (err) {
      if (!(err instanceof TakenElsewhere)) throw err;
    }
  }
}
