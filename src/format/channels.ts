// The channel object (GET /streams, stream events) and the subscription record of §2.2.
import type { Stream } from '../store/streams.js';
import type { Subscription } from '../store/subscriptions.js';

// Legacy stream_post_policy, derived from can_send_message_group for clients that still read it.
function postPolicy(s: Stream, systemGroups: Map<string, number>): number {
  const v = s.groups.can_send_message_group;
  if (v === systemGroups.get('role:administrators')) return 2;
  if (v === systemGroups.get('role:fullmembers')) return 3;
  if (v === systemGroups.get('role:moderators')) return 4;
  return 1;
}

export interface ChannelFormatContext {
  systemGroups: Map<string, number>;
  subscriberCount: number;
  archivedChannels?: boolean;
}

export function formatStream(s: Stream, ctx: ChannelFormatContext): Record<string, unknown> {
  const policy = postPolicy(s, ctx.systemGroups);
  return {
    stream_id: s.id,
    name: s.name,
    description: s.description,
    rendered_description: s.renderedDescription,
    date_created: s.dateCreated,
    creator_id: s.creatorId,
    invite_only: s.inviteOnly,
    is_web_public: s.isWebPublic,
    history_public_to_subscribers: s.historyPublicToSubscribers,
    first_message_id: s.firstMessageId,
    folder_id: s.folderId,
    message_retention_days: s.messageRetentionDays,
    stream_post_policy: policy,
    is_announcement_only: policy === 2,
    topics_policy: s.topicsPolicy,
    is_archived: s.isArchived,
    is_recently_active: s.firstMessageId !== null,
    stream_weekly_traffic: null,
    subscriber_count: ctx.subscriberCount,
    ...s.groups,
  };
}

export function formatSubscription(
  s: Stream,
  sub: Subscription,
  ctx: ChannelFormatContext & { subscribers?: number[]; partialSubscribers?: number[]; notificationSettingsNull?: boolean },
): Record<string, unknown> {
  const n = sub.notifications;
  // Without the notification_settings_null capability, "inherit" (null) is sent as false.
  const setting = (v: boolean | null) => (v === null && !ctx.notificationSettingsNull ? false : v);
  return {
    ...formatStream(s, ctx),
    desktop_notifications: setting(n.desktop_notifications),
    email_notifications: setting(n.email_notifications),
    push_notifications: setting(n.push_notifications),
    audible_notifications: setting(n.audible_notifications),
    wildcard_mentions_notify: setting(n.wildcard_mentions_notify),
    pin_to_top: sub.pinToTop,
    is_muted: sub.isMuted,
    in_home_view: !sub.isMuted,
    color: sub.color,
    ...(ctx.subscribers ? { subscribers: ctx.subscribers } : {}),
    ...(ctx.partialSubscribers ? { partial_subscribers: ctx.partialSubscribers } : {}),
  };
}
