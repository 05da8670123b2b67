// Who may see and do what on a channel (§2.2, §5.6). Every check takes a Viewer: the user, every group they
// belong to (through subgroups too) and their subscription to the channel, loaded once per request.
import type { Stream } from '../store/streams.js';
import type { Subscription } from '../store/subscriptions.js';
import { ROLE, type User } from '../store/users.js';
import { holdsGroupSetting, type GroupSettingValue } from './groups.js';

export interface Viewer {
  user: User;
  groups: Set<number>;
}

export const isRealmAdmin = (user: User) => user.role <= ROLE.administrator;
export const isGuest = (user: { role: number }) => user.role === ROLE.guest;

export function inGroupSetting(viewer: Viewer, value: GroupSettingValue): boolean {
  return holdsGroupSetting(value, viewer.user.id, viewer.groups);
}

const subscribed = (sub?: Pick<Subscription, 'active'>) => !!sub?.active;

// May read the channel's messages (subject to history_public_to_subscribers).
export function hasContentAccess(v: Viewer, s: Stream, sub?: Pick<Subscription, 'active'>): boolean {
  if (subscribed(sub)) return true;
  if (!s.inviteOnly && !isGuest(v.user)) return true;
  if (s.isWebPublic) return true;
  return inGroupSetting(v, s.groups.can_add_subscribers_group) || inGroupSetting(v, s.groups.can_subscribe_group);
}

// May know the channel exists and see its settings and subscribers.
export function hasMetadataAccess(v: Viewer, s: Stream, sub?: Subscription): boolean {
  if (hasContentAccess(v, s, sub)) return true;
  if (isGuest(v.user)) return false;
  return isRealmAdmin(v.user) || inGroupSetting(v, s.groups.can_administer_channel_group);
}

export function canAdminister(v: Viewer, s: Stream): boolean {
  return isRealmAdmin(v.user) || inGroupSetting(v, s.groups.can_administer_channel_group);
}

export function canSubscribeSelf(v: Viewer, s: Stream): boolean {
  if (!s.inviteOnly && !isGuest(v.user)) return true;
  return inGroupSetting(v, s.groups.can_subscribe_group) || inGroupSetting(v, s.groups.can_add_subscribers_group);
}

// Adding others: the channel's can_add_subscribers_group (no subscription needed), or the organization's
// can_add_subscribers_group together with content access, or administering a channel one can read.
export function canAddSubscribers(v: Viewer, s: Stream, realmAddGroup: GroupSettingValue, sub?: Subscription): boolean {
  if (inGroupSetting(v, s.groups.can_add_subscribers_group)) return true;
  const content = s.inviteOnly ? subscribed(sub) : !isGuest(v.user);
  if (!content) return false;
  return inGroupSetting(v, realmAddGroup) || canAdminister(v, s);
}

// Administrators always may remove subscribers; others need the channel's setting and metadata access.
export function canRemoveSubscribers(v: Viewer, s: Stream, sub?: Subscription): boolean {
  if (isRealmAdmin(v.user)) return true;
  return hasMetadataAccess(v, s, sub) && inGroupSetting(v, s.groups.can_remove_subscribers_group);
}

export function canSeeSubscribers(v: Viewer, s: Stream, sub?: Subscription): boolean {
  if (s.inviteOnly) return subscribed(sub) || isRealmAdmin(v.user) || inGroupSetting(v, s.groups.can_administer_channel_group) || hasContentAccess(v, s, sub);
  return hasMetadataAccess(v, s, sub);
}

// Rule 4 of §2.2: changing these settings needs content access to the channel; the others need only metadata
// access. The contract names neither can_resolve_topics_group (taken as content, like moving messages) nor
// can_create_topic_group (taken as metadata, like can_send_message_group).
export const SETTINGS_NEEDING_CONTENT_ACCESS: ReadonlySet<string> = new Set([
  'can_add_subscribers_group',
  'can_subscribe_group',
  'can_delete_any_message_group',
  'can_delete_own_message_group',
  'can_move_messages_out_of_channel_group',
  'can_move_messages_within_channel_group',
  'can_resolve_topics_group',
]);
