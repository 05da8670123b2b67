// Messages the Notification Bot posts about what users did (new channels, channel changes, moved topics,
// subscriptions by others), through the normal send path inside the caller's transaction: they reach queues as
// ordinary `message` events and exist only if the action commits.
import { realmSettings } from '../state/realm.js';
import type { Tx } from '../store/db.js';
import type { Realm } from '../store/realms.js';
import type { Stream } from '../store/streams.js';
import type { User } from '../store/users.js';
import { sendMessageInTx } from './messages-send.js';
import { notificationBot } from './system-bots.js';
import type { Emit } from './transaction.js';
import { hostOf } from '../lib/urls.js';

export interface NoticeContext {
  tx: Tx;
  emit: Emit;
  realm: Realm;
  realmUrl: string;
  bot?: User;
}

// The reference server's Realm.STREAM_EVENTS_NOTIFICATION_TOPIC_NAME; a channel allowing only the general chat
// gets its notices there.
export const CHANNEL_EVENTS_TOPIC = 'channel events';
export const channelEventsTopic = (s: Stream) => (s.topicsPolicy === 'empty_topic_only' ? '' : CHANNEL_EVENTS_TOPIC);


// `markRead` picks the recipients for whom the notice arrives already read.
type Target = { channel: Stream; topic: string } | { userId: number };

export async function postNotice(ctx: NoticeContext, to: Target, content: string, markRead?: (userId: number) => boolean): Promise<number> {
  ctx.bot ??= await notificationBot(ctx.tx, ctx.emit, ctx.realm, hostOf(ctx.realmUrl));
  const address = 'channel' in to ? { type: 'stream' as const, to: to.channel.id, topic: to.topic } : { type: 'private' as const, to: [to.userId] };
  const { id } = await sendMessageInTx(ctx.tx, ctx.emit, ctx.realm, ctx.bot, { ...address, content, system: true, client: 'Internal', markRead });
  return id;
}

// Notices in a channel's "channel events" topic, which the organization may turn off (send_channel_events_messages).
export async function postChannelEventsNotice(ctx: NoticeContext, channel: Stream, content: string, markRead?: (userId: number) => boolean): Promise<void> {
  if (!realmSettings(ctx.realm).send_channel_events_messages) return;
  await postNotice(ctx, { channel, topic: channelEventsTopic(channel) }, content, markRead);
}
