// The organization's settings and the person's own lists, as the settings overlay needs them: every realm_*
// field of the register snapshot (under its name without the prefix, as the realm events name them), the user
// groups, linkifiers, playgrounds, default channels, profile fields, channel folders, bots, alert words and muted
// users. Who may do what is decided here, from the person's role and the group-based permission settings.
import type {
  Bot, ChannelFolder, GroupSettingValue, Linkifier, PermissionSettingInfo, Playground, ProfileField, RegisterResponse, UserGroup,
} from '../api/types';

export interface OrgState {
  realmSettings: Record<string, unknown>;
  permissionSettings: { realm: Record<string, PermissionSettingInfo>; stream: Record<string, PermissionSettingInfo>; group: Record<string, PermissionSettingInfo> };
  groups: Map<number, UserGroup>;
  linkifiers: Linkifier[];
  playgrounds: Playground[];
  defaultChannels: number[];
  profileFields: ProfileField[];
  channelFolders: Map<number, ChannelFolder>;
  bots: Map<number, Bot>;
  alertWords: string[];
  mutedUsers: Map<number, number>; // user id → since (seconds)
  invitesVersion: number; // bumped by invites_changed: the invitations panel fetches the list again
  attachmentsVersion: number; // bumped by attachment events: the uploaded files panel fetches its list again
}

export function orgFromRegister(r: RegisterResponse): OrgState {
  const realmSettings: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(r)) if (k.startsWith('realm_') && !['realm_users', 'realm_non_active_users', 'realm_user_groups', 'realm_emoji', 'realm_linkifiers', 'realm_playgrounds', 'realm_default_streams', 'realm_bots'].includes(k)) realmSettings[k.slice(6)] = v;
  const perms = (r.server_supported_permission_settings ?? {}) as Partial<OrgState['permissionSettings']>;
  return {
    realmSettings,
    permissionSettings: { realm: perms.realm ?? {}, stream: perms.stream ?? {}, group: perms.group ?? {} },
    groups: new Map(((r.realm_user_groups ?? []) as UserGroup[]).map((g) => [g.id, g])),
    linkifiers: (r.realm_linkifiers ?? []) as Linkifier[],
    playgrounds: (r.realm_playgrounds ?? []) as Playground[],
    defaultChannels: ((r.realm_default_streams ?? []) as ({ stream_id: number } | number)[]).map((s) => (typeof s === 'number' ? s : s.stream_id)),
    profileFields: (r.custom_profile_fields ?? []) as ProfileField[],
    channelFolders: new Map(((r.channel_folders ?? []) as ChannelFolder[]).map((f) => [f.id, f])),
    bots: new Map(((r.realm_bots ?? []) as Bot[]).map((b) => [b.user_id, b])),
    alertWords: (r.alert_words ?? []) as string[],
    mutedUsers: new Map(((r.muted_users ?? []) as { id: number; timestamp: number }[]).map((m) => [m.id, m.timestamp])),
    invitesVersion: 0,
    attachmentsVersion: 0,
  };
}

// Everyone in a group, through its subgroups (system groups nest: owners are in administrators, and so on).
export function groupMembers(groups: Map<number, UserGroup>, id: number, seen = new Set<number>()): Set<number> {
  const out = new Set<number>();
  if (seen.has(id)) return out;
  seen.add(id);
  const g = groups.get(id);
  if (!g || g.deactivated) return out;
  for (const m of g.members) out.add(m);
  for (const sub of g.direct_subgroup_ids) for (const m of groupMembers(groups, sub, seen)) out.add(m);
  return out;
}

export function inGroupSetting(groups: Map<number, UserGroup>, value: GroupSettingValue | undefined, userId: number): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === 'number') return groupMembers(groups, value).has(userId);
  return value.direct_members.includes(userId) || value.direct_subgroups.some((g) => groupMembers(groups, g).has(userId));
}

export const ROLE = { owner: 100, admin: 200, moderator: 300, member: 400, guest: 600 } as const;

// Whether the person may do what a realm group setting allows (can_invite_users_group, …).
export function canDo(s: { groups: Map<number, UserGroup>; realmSettings: Record<string, unknown>; me: { userId: number } }, setting: string): boolean {
  return inGroupSetting(s.groups, s.realmSettings[setting] as GroupSettingValue | undefined, s.me.userId);
}
