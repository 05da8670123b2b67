// Editing and archiving a channel (PATCH and DELETE /streams/{stream_id}): who may, which values are valid,
// and who hears of each change — including the users who start or stop knowing of the channel because of it.
import type { App } from '../app.js';
import { formatStream } from '../format/channels.js';
import { ApiError } from '../lib/errors.js';
import { renderMarkdown } from '../markdown/render.js';
import { canAdminister, hasContentAccess, hasMetadataAccess, isGuest, isRealmAdmin, SETTINGS_NEEDING_CONTENT_ACCESS, type Viewer } from '../permissions/channels.js';
import { checkExpected, checkGroupSetting, sameValue } from '../permissions/group-settings.js';
import type { GroupSettingValue } from '../permissions/groups.js';
import { realmSettings } from '../state/realm.js';
import { EMPTY_TOPIC_DISPLAY_NAME, STREAM_PERMISSION_SETTINGS } from '../state/realm-data.js';
import type { Tx } from '../store/db.js';
import { systemGroupIds } from '../store/groups.js';
import { findRealm, updateRealm, type Realm } from '../store/realms.js';
import {
  CHANNEL_GROUP_SETTINGS, findStream, findStreamByName, lockStream, hasMessagesOutsideEmptyTopic, listDefaultStreamIds, listStreams,
  setDefaultStream, updateStream, type ChannelGroupSetting, type Stream,
} from '../store/streams.js';
import { findSubscription, subscriberIds, type Subscription } from '../store/subscriptions.js';
import { isUniqueViolation } from '../store/tx.js';
import { listUsers, ROLE, type User } from '../store/users.js';
import {
  channelAudience, checkChannelDescription, checkChannelName, checkFolder, checkHistoryRules, checkMaySetDeletePolicy, checkRetentionDays,
  DELETE_POLICY_SETTINGS, holdsRealmSetting, TOPICS_POLICIES, viewerOf,
} from './channels.js';
import { inTransaction, type Emit } from './transaction.js';
import {
  accessChangedText, descriptionChangedText, postingPermissionsChangedText, renamedText, retentionChangedText, topicsPolicyChangedText,
} from './channel-notices.js';
import { postChannelEventsNotice, type NoticeContext } from './notifications.js';

// The channel settings that are group settings: routes declare one parameter for each.
export { CHANNEL_GROUP_SETTINGS, type ChannelGroupSetting } from '../store/streams.js';

export type GroupSettingUpdate = { new: unknown; old?: unknown };

// The fields of PATCH /streams/{stream_id} (§4.3); absent ones are left alone.
export interface ChannelEditInput {
  description?: string;
  newName?: string;
  isPrivate?: boolean;
  isWebPublic?: boolean;
  historyPublicToSubscribers?: boolean;
  isDefaultStream?: boolean;
  messageRetentionDays?: string | number;
  isArchived?: boolean;
  folderId?: number | null;
  topicsPolicy?: string;
  groupSettings: Partial<Record<ChannelGroupSetting, GroupSettingUpdate>>;
}

// What a request changes, every value checked; only real changes are kept.
type Plan = Partial<{
  privacy: Pick<Stream, 'inviteOnly' | 'isWebPublic' | 'historyPublicToSubscribers'>;
  isDefault: boolean;
  retention: number | null;
  unarchive: boolean;
  topicsPolicy: string;
  description: string;
  name: string;
  folderId: number | null;
}> & { groups: [ChannelGroupSetting, GroupSettingValue][] };

const REALM_CHANNEL_SETTINGS = ['moderation_request_channel_id', 'new_stream_announcements_stream_id', 'signup_announcements_stream_id', 'zulip_update_announcements_stream_id'];

// Those who may know of the channel may learn that they cannot administer it; anyone else gets the answer
// for a missing channel.
export async function accessChannelToAdminister(tx: Tx, realm: Realm, v: Viewer, id: number): Promise<{ stream: Stream; sub?: Subscription }> {
  const stream = await findStream(tx, realm.id, id);
  const sub = stream && (await findSubscription(tx, v.user.id, stream.id));
  if (!stream || !hasMetadataAccess(v, stream, sub)) throw new ApiError('Invalid channel ID');
  if (!canAdminister(v, stream)) throw new ApiError('You do not have permission to administer this channel.', 'CANNOT_ADMINISTER_CHANNEL');
  return { stream, sub };
}

const knowersOf = async (tx: Tx, realmId: number, s: Stream) => new Set(await channelAudience(tx, realmId, s));

const isIntegers = (a: unknown) => Array.isArray(a) && a.every(Number.isInteger);
const isGroupValue = (v: unknown) => Number.isInteger(v) || (!!v && typeof v === 'object' && isIntegers((v as Record<string, unknown>).direct_members) && isIntegers((v as Record<string, unknown>).direct_subgroups));

// Every field is checked before anything is written, in the reference server's order of refusals.
async function checkChannelEdit(tx: Tx, realm: Realm, v: Viewer, s: Stream, sub: Subscription | undefined, input: ChannelEditInput, systemGroups: Map<string, number>): Promise<Plan> {
  const settings = realmSettings(realm);
  const plan: Plan = { groups: [] };
  const contentAccess = () => {
    if (!hasContentAccess(v, s, sub)) throw new ApiError('Channel content access is required.');
  };
  const mayCreate = (setting: string) => {
    if (!holdsRealmSetting(v, realm, setting, systemGroups)) throw new ApiError('Insufficient permission');
  };

  // Privacy: history follows is_private unless given (a private channel starts with protected history).
  const privacyGiven = input.isPrivate !== undefined || input.isWebPublic !== undefined || input.historyPublicToSubscribers !== undefined;
  const privacy = {
    inviteOnly: input.isPrivate ?? s.inviteOnly,
    isWebPublic: input.isWebPublic ?? s.isWebPublic,
    historyPublicToSubscribers: input.historyPublicToSubscribers ?? (input.isPrivate !== undefined ? !input.isPrivate : s.historyPublicToSubscribers),
  };
  const wasDefault = (await listDefaultStreamIds(tx, realm.id)).includes(s.id);
  const archived = input.isArchived === false ? false : s.isArchived;
  if (privacyGiven) {
    if (privacy.isWebPublic && privacy.inviteOnly) throw new ApiError('Invalid parameters');
    if (privacy.inviteOnly && (input.isDefaultStream ?? wasDefault)) throw new ApiError('A default channel cannot be private.');
    if (!privacy.inviteOnly && settings.moderation_request_channel_id === s.id) throw new ApiError('Moderation request channel must be private.');
    contentAccess();
    if (input.isPrivate !== undefined) mayCreate(input.isPrivate ? 'can_create_private_channel_group' : 'can_create_public_channel_group');
    if (input.isWebPublic) {
      if (!settings.enable_spectator_access) throw new ApiError('Web-public channels are not enabled.');
      mayCreate('can_create_web_public_channel_group');
    }
    if ((['inviteOnly', 'isWebPublic', 'historyPublicToSubscribers'] as const).some((k) => privacy[k] !== s[k])) plan.privacy = privacy;
  }
  if (input.isDefaultStream !== undefined) {
    if (!isRealmAdmin(v.user)) throw new ApiError('You do not have permission to change default channels.');
    if (input.isDefaultStream && privacy.inviteOnly) throw new ApiError('A default channel cannot be private.');
    if (input.isDefaultStream && archived) throw new ApiError('An archived channel cannot be a default channel.');
    if (input.isDefaultStream !== wasDefault) plan.isDefault = input.isDefaultStream;
  }
  if (input.messageRetentionDays !== undefined) {
    if (v.user.role !== ROLE.owner) throw new ApiError('Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL');
    const days = checkRetentionDays(input.messageRetentionDays)!;
    if (days !== s.messageRetentionDays) plan.retention = days;
  }
  if (input.isArchived !== undefined) {
    if (input.isArchived) throw new ApiError('Channels are archived with DELETE /streams/{stream_id}.');
    if (!s.isArchived) throw new ApiError('Channel is not currently deactivated');
    if (privacy.inviteOnly && !(await subscriberIds(tx, [s.id])).get(s.id)!.length) throw new ApiError('Channel is private and have no subscribers');
    plan.unarchive = true;
  }
  if (input.topicsPolicy !== undefined) {
    if (!(TOPICS_POLICIES as readonly string[]).includes(input.topicsPolicy)) throw new ApiError(`Invalid topics_policy: ${input.topicsPolicy}`);
    mayCreate('can_set_topics_policy_group');
    if (input.topicsPolicy === 'empty_topic_only' && (await hasMessagesOutsideEmptyTopic(tx, s.id))) {
      throw new ApiError(`To enable this configuration, all messages in this channel must be in the "${EMPTY_TOPIC_DISPLAY_NAME}" topic.`);
    }
    if (input.topicsPolicy !== s.topicsPolicy) plan.topicsPolicy = input.topicsPolicy;
  }
  if ([...DELETE_POLICY_SETTINGS].some((name) => input.groupSettings[name as ChannelGroupSetting])) checkMaySetDeletePolicy(v, realm, systemGroups);
  if (input.description !== undefined) {
    const description = checkChannelDescription(input.description);
    if (description !== s.description) plan.description = description;
  }
  if (input.newName !== undefined) {
    const name = input.newName.trim();
    if (name === s.name) throw new ApiError('Channel already has that name.');
    // Changing only the case of the name keeps it; any other name must be valid and free.
    if (name.toLowerCase() !== s.name.toLowerCase()) {
      checkChannelName(name);
      if (await findStreamByName(tx, realm.id, name)) throw channelExists(name);
    }
    plan.name = name;
  }
  if (input.folderId !== undefined) {
    if (input.folderId !== null) await checkFolder(tx, realm, input.folderId);
    if (input.folderId !== s.folderId) plan.folderId = input.folderId;
  }
  const nobody = systemGroups.get('role:nobody')!;
  const groups = { ...s.groups };
  for (const name of CHANNEL_GROUP_SETTINGS) {
    const update = input.groupSettings[name];
    if (!update) continue;
    if (update.old !== undefined && !isGroupValue(update.old)) throw new ApiError(`Invalid ${name}`);
    checkExpected(name, s.groups[name], update.old, nobody);
    const value = await checkGroupSetting(tx, realm.id, name, STREAM_PERMISSION_SETTINGS[name], update.new, systemGroups);
    if (sameValue(value, s.groups[name], nobody)) continue;
    if (SETTINGS_NEEDING_CONTENT_ACCESS.has(name)) contentAccess();
    groups[name] = value;
    plan.groups.push([name, value]);
  }
  if (privacyGiven || plan.groups.some(([name]) => name === 'can_create_topic_group')) {
    checkHistoryRules({ ...privacy, groups }, systemGroups.get('role:everyone')!);
  }
  return plan;
}

const channelExists = (name: string) => new ApiError(`Channel '${name}' already exists`, 'CHANNEL_ALREADY_EXISTS', 409, { channel_name: name });

export async function doUpdateChannel(app: App, realm: Realm, user: User, streamId: number, input: ChannelEditInput, realmUrl: string): Promise<void> {
  await inTransaction(app, async (tx, emit) => {
    // Checked and changed as the channel is now: a concurrent change of another of its settings is kept.
    const now = await lockStream(tx, realm.id, streamId);
    const viewer = await viewerOf(tx, user);
    const access = await accessChannelToAdminister(tx, realm, viewer, streamId);
    const { sub } = access;
    const stream = now ?? access.stream;
    const systemGroups = await systemGroupIds(tx, realm.id);
    const plan = await checkChannelEdit(tx, realm, viewer, stream, sub, input, systemGroups);
    await applyChannelEdit({ tx, emit, realm, realmUrl }, user, stream, plan, systemGroups);
  });
}

// Applied in the reference server's order, one event per property, each naming the channel as it is then, with
// the Notification Bot's notice of each change the reference server announces in the channel.
async function applyChannelEdit(ctx: NoticeContext, actor: User, original: Stream, plan: Plan, systemGroups: Map<string, number>): Promise<void> {
  const { tx, emit, realm } = ctx;
  const s: Stream = { ...original, groups: { ...original.groups } };
  const notice = (content: string) => postChannelEventsNotice(ctx, s, content);
  const update = async (property: string, value: unknown, extra: Record<string, unknown> = {}) =>
    emit(realm.id, { type: 'stream', op: 'update', stream_id: s.id, name: s.name, property, value, ...extra }, [...(await knowersOf(tx, realm.id, s))]);
  const set = async (changes: Partial<Stream>, property: string, value: unknown, extra?: Record<string, unknown>) => {
    Object.assign(s, changes);
    await updateStream(tx, s.id, changes);
    await update(property, value, extra);
  };

  if (plan.privacy) {
    const before = await knowersOf(tx, realm.id, s);
    const was = { inviteOnly: s.inviteOnly, isWebPublic: s.isWebPublic, historyPublicToSubscribers: s.historyPublicToSubscribers };
    Object.assign(s, plan.privacy);
    await updateStream(tx, s.id, plan.privacy);
    const event = { property: 'invite_only', value: s.inviteOnly, history_public_to_subscribers: s.historyPublicToSubscribers, is_web_public: s.isWebPublic };
    await announceAudienceChange(tx, realm, emit, s, before, event, systemGroups);
    await notice(accessChangedText(actor, was, s));
  }
  if (plan.isDefault !== undefined) {
    await setDefaultStream(tx, realm.id, s.id, plan.isDefault);
    await emitDefaultStreams(tx, realm, emit, systemGroups);
  }
  if (plan.retention !== undefined) {
    const old = s.messageRetentionDays;
    await set({ messageRetentionDays: plan.retention }, 'message_retention_days', plan.retention);
    await notice(retentionChangedText(actor, Number(realmSettings(realm).message_retention_days), old, plan.retention));
  }
  if (plan.unarchive) {
    s.isArchived = false;
    await updateStream(tx, s.id, { isArchived: false });
    const audience = [...(await knowersOf(tx, realm.id, s))];
    const count = (await subscriberIds(tx, [s.id])).get(s.id)!.length;
    // Clients with the archived_channels capability get the update, others the channel anew (queue filter).
    emit(realm.id, { type: 'stream', op: 'update', stream_id: s.id, name: s.name, property: 'is_archived', value: false }, audience);
    emit(realm.id, { type: 'stream', op: 'create', streams: [formatStream(s, { systemGroups, subscriberCount: count })], _for_unarchiving: true }, audience);
    await notice(`Channel #**${s.name}** has been unarchived.`);
  }
  if (plan.topicsPolicy !== undefined) {
    const old = s.topicsPolicy;
    await set({ topicsPolicy: plan.topicsPolicy }, 'topics_policy', plan.topicsPolicy);
    await notice(topicsPolicyChangedText(actor, old, plan.topicsPolicy));
  }
  if (plan.description !== undefined) {
    const old = s.description;
    const rendered = renderMarkdown(plan.description);
    await set({ description: plan.description, renderedDescription: rendered }, 'description', plan.description, { rendered_description: rendered });
    await notice(descriptionChangedText(actor, old, plan.description));
  }
  if (plan.name !== undefined) {
    try {
      await updateStream(tx, s.id, { name: plan.name });
    } catch (err) {
      if (isUniqueViolation(err)) throw channelExists(plan.name);
      throw err;
    }
    await update('name', plan.name); // `name` is still the old one, as the reference server sends it
    const old = s.name;
    s.name = plan.name;
    await notice(renamedText(actor, old, plan.name));
  }
  if (plan.folderId !== undefined) await set({ folderId: plan.folderId }, 'folder_id', plan.folderId);
  for (const [name, value] of plan.groups) {
    const before = await knowersOf(tx, realm.id, s);
    const oldPolicy = formatStream(s, { systemGroups, subscriberCount: 0 }).stream_post_policy;
    const oldValue = s.groups[name];
    s.groups[name] = value;
    await updateStream(tx, s.id, { groups: s.groups });
    await announceAudienceChange(tx, realm, emit, s, before, { property: name, value }, systemGroups);
    const policy = formatStream(s, { systemGroups, subscriberCount: 0 }).stream_post_policy;
    if (policy !== oldPolicy) await update('stream_post_policy', policy);
    if (name === 'can_send_message_group') await notice(await postingPermissionsChangedText(ctx, actor, oldValue, value));
  }
}

// A change that may change who knows of the channel: those who keep knowing of it get the update, those who
// start get the channel (and its subscribers), those who stop get it deleted.
async function announceAudienceChange(tx: Tx, realm: Realm, emit: Emit, s: Stream, before: Set<number>, change: Record<string, unknown>, systemGroups: Map<string, number>) {
  const after = await knowersOf(tx, realm.id, s);
  const subscribers = (await subscriberIds(tx, [s.id])).get(s.id)!;
  const gained = [...after].filter((id) => !before.has(id));
  const kept = [...after].filter((id) => before.has(id));
  const lost = [...before].filter((id) => !after.has(id));
  const stream = formatStream(s, { systemGroups, subscriberCount: subscribers.length });
  if (gained.length) {
    emit(realm.id, { type: 'stream', op: 'create', streams: [stream] }, gained);
    if (subscribers.length) emit(realm.id, { type: 'subscription', op: 'peer_add', stream_ids: [s.id], user_ids: subscribers }, gained);
  }
  if (kept.length) emit(realm.id, { type: 'stream', op: 'update', stream_id: s.id, name: s.name, ...change }, kept);
  if (lost.length) emit(realm.id, { type: 'stream', op: 'delete', streams: [stream], stream_ids: [s.id] }, lost);
}

// The organization's whole list of default channels, to everyone who may see it (not guests).
export async function emitDefaultStreams(tx: Tx, realm: Realm, emit: Emit, systemGroups: Map<string, number>): Promise<void> {
  const ids = new Set(await listDefaultStreamIds(tx, realm.id));
  const streams = (await listStreams(tx, realm.id)).filter((s) => ids.has(s.id));
  const counts = await subscriberIds(tx, [...ids]);
  const list = streams.map((s) => formatStream(s, { systemGroups, subscriberCount: counts.get(s.id)!.length }));
  const users = (await listUsers(tx, realm.id)).filter((u) => u.isActive && !isGuest(u)).map((u) => u.id);
  emit(realm.id, { type: 'default_streams', default_streams: list }, users);
}

// Archiving keeps subscriptions and settings (both stay editable, feature level 362) but drops the channel
// from the default channels and from the organization settings that name it.
export async function doArchiveChannel(app: App, realm: Realm, user: User, streamId: number, realmUrl: string): Promise<void> {
  await inTransaction(app, async (tx, emit) => {
    const viewer = await viewerOf(tx, user);
    const { stream } = await accessChannelToAdminister(tx, realm, viewer, streamId);
    if (stream.isArchived) throw new ApiError('Channel is already deactivated');
    const systemGroups = await systemGroupIds(tx, realm.id);
    const audience = [...(await knowersOf(tx, realm.id, stream))];
    const s: Stream = { ...stream, isArchived: true };
    await updateStream(tx, s.id, { isArchived: true });
    if (await setDefaultStream(tx, realm.id, s.id, false)) await emitDefaultStreams(tx, realm, emit, systemGroups);

    const fresh = (await findRealm(tx, realm.id))!;
    const cleared = REALM_CHANNEL_SETTINGS.filter((key) => fresh.settings[key] === s.id);
    if (cleared.length) {
      const settings = { ...fresh.settings };
      for (const key of cleared) delete settings[key];
      await updateRealm(tx, realm.id, { settings });
      emit(realm.id, { type: 'realm', op: 'update_dict', property: 'default', data: Object.fromEntries(cleared.map((k) => [k, -1])) }, null);
    }

    const count = (await subscriberIds(tx, [s.id])).get(s.id)!.length;
    // Clients with the archived_channels capability get the update, others lose the channel (queue filter).
    emit(realm.id, { type: 'stream', op: 'update', stream_id: s.id, name: s.name, property: 'is_archived', value: true }, audience);
    emit(realm.id, { type: 'stream', op: 'delete', streams: [formatStream(s, { systemGroups, subscriberCount: count })], stream_ids: [s.id], _for_archiving: true }, audience);
    // Posted into the archived channel, read for everyone.
    await postChannelEventsNotice({ tx, emit, realm, realmUrl }, s, `Channel #**${s.name}** has been archived.`, () => true);
  });
}
