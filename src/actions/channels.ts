// Loading channels with permission checks, validating channel fields, and creating channels.
import { ApiError } from '../lib/errors.js';
import { codePointLength, invalidCharacterPosition } from '../lib/text.js';
import { renderMarkdown } from '../markdown/render.js';
import { checkGroupSetting, defaultValue, sameValue } from '../permissions/group-settings.js';
import { hasMetadataAccess, type Viewer } from '../permissions/channels.js';
import { holdsGroupSetting, resolveGroupSetting, type GroupSettingValue } from '../permissions/groups.js';
import { realmSettings } from '../state/realm.js';
import { SERVER_LIMITS, STREAM_PERMISSION_SETTINGS } from '../state/realm-data.js';
import type { Db, Tx } from '../store/db.js';
import { groupsOfUser, membersOfGroups } from '../store/groups.js';
import type { Realm } from '../store/realms.js';
import { CHANNEL_GROUP_SETTINGS, findStream, findStreamByName, insertStream, type ChannelGroupSetting, type Stream } from '../store/streams.js';
import { findSubscription, subscriberIds, type Subscription } from '../store/subscriptions.js';
import { listUsers, type User } from '../store/users.js';
import { findChannelFolder } from '../store/channel-folders.js';

export const TOPICS_POLICIES = ['inherit', 'allow_empty_topic', 'disable_empty_topic', 'empty_topic_only'] as const;

export async function viewerOf(db: Db, user: User): Promise<Viewer> {
  return { user, groups: await groupsOfUser(db, user.id) };
}

export function checkChannelName(raw: string): string {
  const name = raw.trim();
  if (!name) throw new ApiError("Channel name can't be empty.");
  if (codePointLength(name) > SERVER_LIMITS.max_stream_name_length) {
    throw new ApiError(`Channel name too long (limit: ${SERVER_LIMITS.max_stream_name_length} characters).`);
  }
  const bad = invalidCharacterPosition(name);
  if (bad) throw new ApiError(`Invalid character in channel name, at position ${bad}.`);
  return name;
}

export function checkChannelDescription(raw: string): string {
  const d = raw.replace(/\r\n?/g, '\n').replace(/\n/g, ' ').trim();
  if (codePointLength(d) > SERVER_LIMITS.max_stream_description_length) {
    throw new ApiError(`Channel description too long (limit: ${SERVER_LIMITS.max_stream_description_length} characters).`);
  }
  return d;
}

// `realm_default` (null), `unlimited` / `forever` (-1) or a positive number of days.
export function checkRetentionDays(raw: string | number | undefined): number | null | undefined {
  if (raw === undefined) return undefined;
  if (raw === 'realm_default') return null;
  if (raw === 'unlimited' || raw === 'forever') return -1;
  const n = typeof raw === 'number' ? raw : /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n) || n <= 0) throw new ApiError(`Bad value for 'message_retention_days': ${raw}`, 'BAD_REQUEST', 400, { var_name: 'message_retention_days' });
  return n;
}

// Rules 1 and 2 of §2.2, checked on creation and on every change.
export function checkHistoryRules(s: { inviteOnly: boolean; isWebPublic: boolean; historyPublicToSubscribers: boolean; groups: Record<ChannelGroupSetting, GroupSettingValue> }, everyone: number): void {
  if (!s.historyPublicToSubscribers) {
    if (!s.inviteOnly || s.isWebPublic) throw new ApiError('Invalid parameters');
    if (s.groups.can_create_topic_group !== everyone) {
      throw new ApiError("Channels with protected history require 'can_create_topic_group' to be 'role:everyone'.");
    }
  }
}

export function realmGroupValue(realm: Realm, name: string, systemGroups: Map<string, number>): GroupSettingValue {
  return resolveGroupSetting(realmSettings(realm)[name as never], systemGroups);
}

export function holdsRealmSetting(v: Viewer, realm: Realm, name: string, systemGroups: Map<string, number>): boolean {
  return holdsGroupSetting(realmGroupValue(realm, name, systemGroups), v.user.id, v.groups);
}

// A channel the viewer may not know of is answered exactly like a missing one.
export async function accessChannelById(db: Db, realm: Realm, v: Viewer, id: number): Promise<{ stream: Stream; sub: Awaited<ReturnType<typeof findSubscription>> }> {
  const stream = await findStream(db, realm.id, id);
  const sub = stream && (await findSubscription(db, v.user.id, stream.id));
  if (!stream || !hasMetadataAccess(v, stream, sub)) throw new ApiError('Invalid channel ID');
  return { stream, sub };
}

export async function accessChannelByName(db: Db, realm: Realm, v: Viewer, name: string): Promise<{ stream: Stream; sub: Awaited<ReturnType<typeof findSubscription>> }> {
  const stream = await findStreamByName(db, realm.id, name);
  const sub = stream && (await findSubscription(db, v.user.id, stream.id));
  if (!stream || !hasMetadataAccess(v, stream, sub)) throw new ApiError(`Invalid channel name '${name}'`);
  return { stream, sub };
}

// Everyone who may know of the channel (and see its subscribers), decided by hasMetadataAccess itself so that
// events agree with what GET /streams shows — including users who know of a private channel only through its
// group settings. Each user's Viewer holds just the groups the channel's settings name.
export async function channelAudience(db: Db, realmId: number, stream: Stream, subscribers?: number[]): Promise<number[]> {
  const users = (await listUsers(db, realmId)).filter((u) => u.isActive);
  const subscribed = new Set(subscribers ?? (await subscriberIds(db, [stream.id])).get(stream.id));
  const groupIds = [...new Set(Object.values(stream.groups).flatMap((g) => (typeof g === 'number' ? [g] : g.direct_subgroups)))];
  // Each user's groups among those, from the groups' (cached) members: no set built per user of a large
  // organization.
  const groupsOf = new Map<number, Set<number>>();
  for (const [g, members] of await membersOfGroups(db, groupIds)) {
    for (const id of members) {
      let groups = groupsOf.get(id);
      if (!groups) groupsOf.set(id, (groups = new Set()));
      groups.add(g);
    }
  }
  const none = new Set<number>();
  const active = { active: true } as Subscription;
  const out: number[] = [];
  for (const user of users) {
    if (hasMetadataAccess({ user, groups: groupsOf.get(user.id) ?? none }, stream, subscribed.has(user.id) ? active : undefined)) out.push(user.id);
  }
  return out;
}

// A channel may be put in an active folder of its organization (an archived folder holds no channels).
export async function checkFolder(db: Db, realm: Realm, folderId: number): Promise<void> {
  const folder = await findChannelFolder(db, realm.id, folderId);
  if (!folder) throw new ApiError('Invalid channel folder ID');
  if (folder.isArchived) throw new ApiError('Channel folder is archived.');
}

export interface NewChannelInput {
  name: string;
  description: string;
  inviteOnly: boolean;
  isWebPublic: boolean;
  historyPublicToSubscribers?: boolean;
  messageRetentionDays?: string | number;
  topicsPolicy: string;
  folderId?: number | null;
  groupSettings: Partial<Record<ChannelGroupSetting, unknown>>;
}

// Checks the creator's rights and the creation parameters; returns what to insert.
export async function checkNewChannel(tx: Tx, realm: Realm, v: Viewer, input: NewChannelInput, systemGroups: Map<string, number>) {
  const settings = realmSettings(realm);
  const creatorGroup = input.isWebPublic ? 'can_create_web_public_channel_group' : input.inviteOnly ? 'can_create_private_channel_group' : 'can_create_public_channel_group';
  if (input.isWebPublic && !settings.enable_spectator_access) throw new ApiError('Web-public channels are not enabled.');
  if (!holdsRealmSetting(v, realm, creatorGroup, systemGroups)) throw new ApiError('Insufficient permission');
  if (!(TOPICS_POLICIES as readonly string[]).includes(input.topicsPolicy)) throw new ApiError(`Invalid topics_policy: ${input.topicsPolicy}`);
  if (input.topicsPolicy !== 'inherit' && !holdsRealmSetting(v, realm, 'can_set_topics_policy_group', systemGroups)) {
    throw new ApiError('Insufficient permission');
  }
  const retention = checkRetentionDays(input.messageRetentionDays);
  if (retention !== undefined && retention !== null && v.user.role > 100) {
    throw new ApiError('Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL');
  }
  if (input.folderId !== undefined && input.folderId !== null) await checkFolder(tx, realm, input.folderId);
  const groups = {} as Record<ChannelGroupSetting, GroupSettingValue>;
  const nobody = systemGroups.get('role:nobody')!;
  for (const name of CHANNEL_GROUP_SETTINGS) {
    const meta = STREAM_PERMISSION_SETTINGS[name];
    const raw = input.groupSettings[name];
    groups[name] = raw === undefined ? defaultValue(meta, systemGroups, v.user.id) : await checkGroupSetting(tx, realm.id, name, meta, raw, systemGroups);
    if (raw !== undefined && DELETE_POLICY_SETTINGS.has(name) && !sameValue(groups[name], nobody, nobody)) checkMaySetDeletePolicy(v, realm, systemGroups);
  }
  const channel = {
    realmId: realm.id,
    name: checkChannelName(input.name),
    description: checkChannelDescription(input.description),
    renderedDescription: '',
    dateCreated: Math.floor(Date.now() / 1000),
    creatorId: v.user.id,
    inviteOnly: input.inviteOnly || false,
    isWebPublic: input.isWebPublic,
    historyPublicToSubscribers: input.historyPublicToSubscribers ?? !input.inviteOnly,
    messageRetentionDays: retention ?? null,
    folderId: input.folderId ?? null,
    topicsPolicy: input.topicsPolicy,
    groups,
  };
  if (channel.isWebPublic) channel.inviteOnly = false;
  checkHistoryRules(channel, systemGroups.get('role:everyone')!);
  channel.renderedDescription = renderMarkdown(channel.description);
  return channel;
}

// A channel's message deletion settings are set only by holders of the organization's
// can_set_delete_message_policy_group (on creation, unless set to nobody).
export const DELETE_POLICY_SETTINGS: ReadonlySet<string> = new Set(['can_delete_any_message_group', 'can_delete_own_message_group']);
export function checkMaySetDeletePolicy(v: Viewer, realm: Realm, systemGroups: Map<string, number>): void {
  if (!holdsRealmSetting(v, realm, 'can_set_delete_message_policy_group', systemGroups)) throw new ApiError('Insufficient permission');
}

export async function insertChannel(tx: Tx, channel: Awaited<ReturnType<typeof checkNewChannel>>): Promise<Stream> {
  return insertStream(tx, channel);
}
