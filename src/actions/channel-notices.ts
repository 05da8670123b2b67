// The texts of the Notification Bot's messages about channels, as the reference server words them
// (zerver/views/streams.py, zerver/actions/streams.py), and the subscription request's notices.
import { fenceFor } from '../format/quote.js';
import { silentMention, channelLinkSyntax, silentGroupMention } from '../lib/mention-syntax.js';
import type { GroupSettingValue } from '../permissions/groups.js';
import { realmSettings } from '../state/realm.js';
import { EMPTY_TOPIC_DISPLAY_NAME } from '../state/realm-data.js';
import { findGroups } from '../store/groups.js';
import { findStream, type Stream } from '../store/streams.js';
import { findUsers, type User } from '../store/users.js';
import { postChannelEventsNotice, postNotice, type NoticeContext } from './notifications.js';

type Privacy = Pick<Stream, 'inviteOnly' | 'historyPublicToSubscribers' | 'isWebPublic'>;

// Stream.PERMISSION_POLICIES[...].policy_name
export function permissionPolicyName(s: Privacy): string {
  if (s.isWebPublic) return 'Web-public';
  if (!s.inviteOnly) return s.historyPublicToSubscribers ? 'Public' : 'Public, protected history';
  return s.historyPublicToSubscribers ? 'Private, shared history' : 'Private, protected history';
}

// A description of nothing but backticks would otherwise close the quote.
const quoted = (text: string) => {
  const fence = fenceFor(text, 4);
  return `\n${fence} quote\n${text || '*No description.*'}\n${fence}`;
};

export const channelCreatedText = (actor: User, s: Stream) => `**${permissionPolicyName(s)}** channel created by ${silentMention(actor)}. **Description:**${quoted(s.description)}`;

export function youWereSubscribedText(actor: User, channels: string[]): string {
  const names = [...channels].sort();
  if (names.length === 1) return `${silentMention(actor)} subscribed you to #**${names[0]}**.`;
  return `${silentMention(actor)} subscribed you to the following channels:\n\n${names.map((n) => `* #**${n}**\n`).join('')}`;
}

export const renamedText = (actor: User, from: string, to: string) => `${silentMention(actor)} renamed channel **${from}** to **${to}**.`;

export const descriptionChangedText = (actor: User, from: string, to: string) =>
  `${silentMention(actor)} changed the description for this channel.\n\n* **Old description:**${quoted(from)}\n* **New description:**${quoted(to)}`;

export const accessChangedText = (actor: User, from: Privacy, to: Privacy) =>
  `${silentMention(actor)} changed the [access permissions](/help/channel-permissions) for this channel from **${permissionPolicyName(from)}** to **${permissionPolicyName(to)}**.`;

export function retentionChangedText(actor: User, realmDefault: number, from: number | null, to: number | null): string {
  const [old, now] = [from ?? realmDefault, to ?? realmDefault];
  const days = (n: number) => `${n} days`;
  const summary = now === -1
    ? 'Messages in this channel will now be retained forever.'
    : `Messages in this channel will now be automatically deleted ${now} days after they are sent.`;
  return `${silentMention(actor)} has changed the [message retention period](/help/message-retention-policy) for this channel:\n` +
    `* **Old retention period**: ${old === -1 ? 'Forever' : days(old)}\n* **New retention period**: ${now === -1 ? 'Forever' : days(now)}\n\n${summary}`;
}

const TOPICS_POLICY_NAMES: Record<string, string> = {
  inherit: 'Automatic',
  allow_empty_topic: `*${EMPTY_TOPIC_DISPLAY_NAME}* topic allowed`,
  disable_empty_topic: `No *${EMPTY_TOPIC_DISPLAY_NAME}* topic`,
  empty_topic_only: `Only *${EMPTY_TOPIC_DISPLAY_NAME}* topic allowed`,
};

export const topicsPolicyChangedText = (actor: User, from: string, to: string) =>
  `${silentMention(actor)} changed the "Allow posting to the *general chat* topic?" setting from **${TOPICS_POLICY_NAMES[from]}** to **${TOPICS_POLICY_NAMES[to]}**.`;

// A group-setting value as the reference lists it: named groups (by id) first, then users (by id).
async function describeGroupSetting(ctx: NoticeContext, value: GroupSettingValue): Promise<string> {
  const groupIds = typeof value === 'number' ? [value] : [...value.direct_subgroups].sort((a, b) => a - b);
  const groups = await findGroups(ctx.tx, ctx.realm.id, groupIds);
  const userIds = typeof value === 'number' ? [] : [...value.direct_members].sort((a, b) => a - b);
  const users = new Map((await findUsers(ctx.tx, ctx.realm.id, userIds)).map((u) => [u.id, u]));
  return [
    ...groupIds.flatMap((id) => (groups.has(id) ? [silentGroupMention(groups.get(id)!.name)] : [])),
    ...userIds.flatMap((id) => (users.has(id) ? [silentMention(users.get(id)!)] : [])),
  ].join(', ');
}

export async function postingPermissionsChangedText(ctx: NoticeContext, actor: User, from: GroupSettingValue, to: GroupSettingValue): Promise<string> {
  return `${silentMention(actor)} changed the [posting permissions](/help/channel-posting-policy) for this channel:\n\n` +
    `* **Old**: ${await describeGroupSetting(ctx, from)}\n* **New**: ${await describeGroupSetting(ctx, to)}\n`;
}

export interface SubscriptionNotices {
  created: Stream[];
  added: Map<number, Stream[]>; // user id → channels they were just subscribed to
  announce: boolean;
  directMessages: boolean;
}

// After POST /users/me/subscriptions: a direct message to each user someone else subscribed to existing
// channels (not to bots), the announcement of new channels, and each new channel's first notice; all read for
// the acting user.
export async function postSubscriptionNotices(ctx: NoticeContext, actor: User, n: SubscriptionNotices): Promise<void> {
  const readByActor = (id: number) => id === actor.id;
  if (n.directMessages) {
    const createdIds = new Set(n.created.map((s) => s.id));
    const users = new Map((await findUsers(ctx.tx, ctx.realm.id, [...n.added.keys()])).map((u) => [u.id, u]));
    for (const [userId, channels] of n.added) {
      const names = channels.filter((s) => !createdIds.has(s.id)).map((s) => s.name);
      if (userId === actor.id || users.get(userId)?.isBot || !names.length) continue;
      await postNotice(ctx, { userId }, youWereSubscribedText(actor, names), readByActor);
    }
  }
  if (n.announce && n.created.length) {
    const id = realmSettings(ctx.realm).new_stream_announcements_stream_id;
    const channel = id !== null && id >= 0 ? await findStream(ctx.tx, ctx.realm.id, id) : undefined;
    if (channel && !channel.isArchived) {
      const links = n.created.map((s) => channelLinkSyntax(s.id, s.name)).join(', ');
      const content = n.created.length > 1
        ? `${silentMention(actor)} created the following channels: ${links}.`
        : `${silentMention(actor)} created a new channel ${links}.`;
      const topic = channel.topicsPolicy === 'empty_topic_only' ? '' : 'new channels';
      await postNotice(ctx, { channel, topic }, content, readByActor);
    }
  }
  for (const s of n.created) await postChannelEventsNotice(ctx, s, channelCreatedText(actor, s), readByActor);
}
