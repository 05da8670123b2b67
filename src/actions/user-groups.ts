// User groups (§2.7, §4.7, §4.14): creation, settings, deactivation and reactivation, and the records clients
// read. Membership and subgroups are in user-group-members.ts.
import type { App } from '../app.js';
import { ApiError } from '../lib/errors.js';
import { codePointLength, invalidCharacterPosition } from '../lib/text.js';
import { checkExpected, checkGroupSetting, defaultValue, sameValue } from '../permissions/group-settings.js';
import type { GroupSettingValue } from '../permissions/groups.js';
import { realmSettings } from '../state/realm.js';
import { GROUP_PERMISSION_SETTINGS, SERVER_LIMITS } from '../state/realm-data.js';
import type { Db, Tx } from '../store/db.js';
import type { Realm } from '../store/realms.js';
import { listStreams } from '../store/streams.js';
import {
  addMembers, addSubgroups, directMembers, directSubgroups, directSupergroups, findUserGroupByName, GROUP_SETTINGS, insertUserGroup, listUserGroups,
  lockUserGroup, updateUserGroup, type GroupSetting, type UserGroup,
} from '../store/user-groups.js';
import type { User } from '../store/users.js';
import { holdsRealmSetting } from './channels.js';
import { accessGroup, actorOf, canManage, checkSubgroups, checkUsers, insufficient } from './user-group-access.js';
import { inTransaction, type Emit } from './transaction.js';
import { formatGroup } from '../state/user-groups.js';

// The group settings: routes declare one parameter for each.
export { GROUP_SETTINGS, type GroupSetting } from '../store/user-groups.js';

const MAX_GROUP_NAME = 100;
const INVALID_NAME_PREFIXES = ['@', 'role:', 'user:', 'stream:', 'channel:'];

// Sent to every client of the organization; the reference server sets no bound, so the channels' one applies.
function checkDescription(description: string): string {
  const max = SERVER_LIMITS.max_stream_description_length;
  if (codePointLength(description) > max) throw new ApiError(`User group description too long (limit: ${max} characters).`);
  return description;
}

function checkName(name: string): string {
  const n = name.trim();
  if (!n) throw new ApiError("User group name can't be empty!");
  if (codePointLength(n) > MAX_GROUP_NAME) throw new ApiError(`User group name cannot exceed ${MAX_GROUP_NAME} characters.`);
  // The reference server checks nothing here; its channel-name wording is used for the same rule.
  const bad = invalidCharacterPosition(n);
  if (bad) throw new ApiError(`Invalid character in user group name, at position ${bad}.`);
  const prefix = INVALID_NAME_PREFIXES.find((p) => n.startsWith(p));
  if (prefix) throw new ApiError(`User group name cannot start with '${prefix}'.`);
  return n;
}

async function checkSetting(tx: Db, realm: Realm, name: GroupSetting, raw: unknown, system: Map<string, number>): Promise<GroupSettingValue> {
  const value = await checkGroupSetting(tx, realm.id, name, GROUP_PERMISSION_SETTINGS[name], raw, system);
  // The contract keeps the older rule that owners alone may not be the mentioning group (§2.7).
  if (name === 'can_mention_group' && value === system.get('role:owners')) throw new ApiError(`'${name}' setting cannot be set to 'role:owners' group.`);
  return value;
}

// The group as an `add` event carries it, with its current members and subgroups.
async function groupEventRecord(tx: Db, g: UserGroup): Promise<Record<string, unknown>> {
  return formatGroup(g, (await directMembers(tx, [g.id])).get(g.id)!, (await directSubgroups(tx, [g.id])).get(g.id)!);
}

export interface CreateGroupInput {
  name: string;
  description: string;
  members: number[];
  subgroups: number[];
  settings: Partial<Record<GroupSetting, unknown>>;
}

export async function doCreateGroup(app: App, realm: Realm, user: User, input: CreateGroupInput): Promise<number> {
  return inTransaction(app, async (tx, emit) => {
    const a = await actorOf(tx, realm, user);
    if (!holdsRealmSetting({ user, groups: a.groups }, realm, 'can_create_groups', a.system)) throw insufficient();
    const name = checkName(input.name);
    if (await findUserGroupByName(tx, realm.id, name)) throw new ApiError(`User group '${name}' already exists.`);
    const members = await checkUsers(tx, realm, input.members);
    const subgroups = await checkSubgroups(tx, realm, input.subgroups, true);
    const settings: Partial<Record<GroupSetting, GroupSettingValue>> = {};
    for (const s of GROUP_SETTINGS) {
      settings[s] = input.settings[s] === undefined ? defaultValue(GROUP_PERMISSION_SETTINGS[s], a.system, user.id) : await checkSetting(tx, realm, s, input.settings[s], a.system);
    }
    const g = await insertUserGroup(tx, { realmId: realm.id, name, description: checkDescription(input.description), creatorId: user.id, dateCreated: Math.floor(Date.now() / 1000), settings });
    await addMembers(tx, g.id, members);
    await addSubgroups(tx, g.id, subgroups);
    emit(realm.id, { type: 'user_group', op: 'add', group: await groupEventRecord(tx, g) }, null);
    return g.id;
  });
}

export interface UpdateGroupInput {
  name?: string;
  description?: string;
  deactivated?: boolean;
  settings: Partial<Record<GroupSetting, unknown>>;
}

// The update form (§2.1): {new, old?}.
function updateForm(setting: string, raw: unknown): { new: unknown; old?: unknown } {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw) || !('new' in raw)) throw new ApiError(`${setting} does not have the expected format`);
  return raw as { new: unknown; old?: unknown };
}

// Clients without include_deactivated_groups do not know deactivated groups, so changes to those skip them.
function emitGroupUpdate(emit: Emit, realm: Realm, g: UserGroup, data: Record<string, unknown>): void {
  emit(realm.id, { type: 'user_group', op: 'update', group_id: g.id, data, ...(g.deactivated ? { _deactivated: true } : {}) }, null);
}

export async function doUpdateGroup(app: App, realm: Realm, user: User, id: number, input: UpdateGroupInput): Promise<void> {
  const settingNames = Object.keys(input.settings) as GroupSetting[];
  if (input.name === undefined && input.description === undefined && input.deactivated === undefined && !settingNames.length) {
    throw new ApiError('No new data supplied');
  }
  await inTransaction(app, async (tx, emit) => {
    await lockUserGroup(tx, id);
    const a = await actorOf(tx, realm, user);
    const g = await accessGroup(tx, realm, id);
    if (!canManage(a, realm, g)) throw insufficient();
    const nobody = a.system.get('role:nobody')!;
    const changes: Record<string, unknown> = {};
    if (input.name !== undefined && input.name.trim() !== g.name) {
      const name = checkName(input.name);
      if (await findUserGroupByName(tx, realm.id, name)) throw new ApiError(`User group '${name}' already exists.`);
      changes.name = name;
    }
    if (input.description !== undefined && input.description !== g.description) changes.description = checkDescription(input.description);
    const settings = { ...g.settings };
    for (const s of settingNames) {
      const update = updateForm(s, input.settings[s]);
      checkExpected(s, g.settings[s] ?? nobody, update.old, nobody);
      const value = await checkSetting(tx, realm, s, update.new, a.system);
      if (!sameValue(value, g.settings[s] ?? nobody, nobody)) changes[s] = settings[s] = value;
    }
    // Reactivation only: deactivating goes through its own endpoint, and `true` here changes nothing.
    const reactivate = input.deactivated === false && g.deactivated;
    if (!reactivate && !Object.keys(changes).length) return;
    const updated: UserGroup = { ...g, name: (changes.name as string) ?? g.name, description: (changes.description as string) ?? g.description, settings, deactivated: reactivate ? false : g.deactivated };
    await updateUserGroup(tx, g.id, { name: updated.name, description: updated.description, settings, deactivated: updated.deactivated });
    if (reactivate) {
      emitGroupUpdate(emit, realm, updated, { deactivated: false });
      emit(realm.id, { type: 'user_group', op: 'add', group: await groupEventRecord(tx, { ...g, deactivated: false }), _for_reactivation: true }, null);
    }
    // One event per changed field, as the reference server sends them.
    for (const [field, value] of Object.entries(changes)) emitGroupUpdate(emit, realm, updated, { [field]: value });
  });
}

// Every place a group is used: as a subgroup of an active group, in organization settings, channel settings
// and other groups' settings. Archived channels and deactivated groups do not count.
async function objections(tx: Tx, realm: Realm, groupId: number): Promise<Record<string, unknown>[]> {
  const uses = (v: unknown) => v === groupId || (typeof v === 'object' && v !== null && ((v as { direct_subgroups?: number[] }).direct_subgroups ?? []).includes(groupId));
  const out: Record<string, unknown>[] = [];
  const groups = await listUserGroups(tx, realm.id);
  const active = new Set(groups.filter((g) => !g.deactivated).map((g) => g.id));
  const supergroups = (await directSupergroups(tx, groupId)).filter((id) => active.has(id));
  if (supergroups.length) out.push({ type: 'subgroup', supergroup_ids: supergroups });
  const realmUses = Object.entries(realmSettings(realm)).filter(([, v]) => uses(v)).map(([k]) => k);
  if (realmUses.length) out.push({ type: 'realm', settings: realmUses });
  for (const s of await listStreams(tx, realm.id)) {
    const used = Object.entries(s.groups).filter(([, v]) => uses(v)).map(([k]) => k);
    if (used.length && !s.isArchived) out.push({ type: 'channel', channel_id: s.id, settings: used });
  }
  for (const g of groups) {
    const used = Object.entries(g.settings).filter(([, v]) => uses(v)).map(([k]) => k);
    if (used.length && g.id !== groupId && active.has(g.id)) out.push({ type: 'user_group', group_id: g.id, settings: used });
  }
  return out;
}

export async function doDeactivateGroup(app: App, realm: Realm, user: User, id: number): Promise<void> {
  await inTransaction(app, async (tx, emit) => {
    const a = await actorOf(tx, realm, user);
    const g = await accessGroup(tx, realm, id);
    if (!canManage(a, realm, g)) throw insufficient();
    if (g.deactivated) return;
    const used = await objections(tx, realm, g.id);
    if (used.length) throw new ApiError('Cannot deactivate user group in use.', 'CANNOT_DEACTIVATE_GROUP_IN_USE', 400, { objections: used });
    await updateUserGroup(tx, g.id, { deactivated: true });
    // Clients that know deactivated groups see the change; the others see the group go.
    emit(realm.id, { type: 'user_group', op: 'update', group_id: g.id, data: { deactivated: true } }, null);
    emit(realm.id, { type: 'user_group', op: 'remove', group_id: g.id }, null);
  });
}
