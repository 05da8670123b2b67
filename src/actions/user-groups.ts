// User groups (§2.7, §4.7, §4.14): creation, settings, membership, subgroups, deactivation.
import type { App } from '../app.js';
import { ApiError } from '../http/errors.js';
import { codePointLength } from '../lib/text.js';
import { checkExpected, checkGroupSetting, defaultValue, normalize } from '../permissions/group-settings.js';
import { holdsGroupSetting, type GroupSettingValue } from '../permissions/groups.js';
import { realmSettings } from '../state/realm.js';
import { GROUP_PERMISSION_SETTINGS } from '../state/realm-data.js';
import type { Db, Tx } from '../store/db.js';
import { groupsOfUser, systemGroupIds } from '../store/groups.js';
import type { Realm } from '../store/realms.js';
import { listStreams } from '../store/streams.js';
import {
  addMembers, addSubgroups, descendantGroups, directMembers, directSubgroups, findUserGroup, findUserGroupByName, GROUP_SETTINGS,
  insertUserGroup, listUserGroups, removeMembers, removeSubgroups, updateUserGroup, type GroupSetting, type UserGroup,
} from '../store/user-groups.js';
import { findUsers, type User } from '../store/users.js';
import { holdsRealmSetting } from './channels.js';
import { inTransaction, type Emit } from './transaction.js';

const MAX_GROUP_NAME = 100;
const insufficient = () => new ApiError('Insufficient permission');

export function formatGroup(g: UserGroup, members: number[], subgroups: number[]): Record<string, unknown> {
  return {
    id: g.id, name: g.name, description: g.description, members, direct_subgroup_ids: subgroups, is_system_group: g.isSystemGroup,
    creator_id: g.creatorId, date_created: g.dateCreated, deactivated: g.deactivated, ...g.settings,
  };
}

function checkName(name: string): string {
  const n = name.trim();
  if (!n) throw new ApiError("User group name can't be empty!");
  if (codePointLength(n) > MAX_GROUP_NAME) throw new ApiError(`User group name cannot exceed ${MAX_GROUP_NAME} characters.`);
  if (n.startsWith('role:')) throw new ApiError("User group name cannot start with 'role:'.");
  return n;
}

async function accessGroup(tx: Db, realm: Realm, id: number): Promise<UserGroup> {
  const g = await findUserGroup(tx, realm.id, id);
  if (!g) throw new ApiError('Invalid user group');
  return g;
}

interface Actor { user: User; groups: Set<number>; system: Map<string, number> }

async function actorOf(tx: Db, realm: Realm, user: User): Promise<Actor> {
  return { user, groups: await groupsOfUser(tx, user.id), system: await systemGroupIds(tx, realm.id) };
}

const holds = (a: Actor, g: UserGroup, setting: GroupSetting) => {
  const v = g.settings[setting];
  return v !== undefined && holdsGroupSetting(v, a.user.id, a.groups);
};

function canManage(a: Actor, realm: Realm, g: UserGroup): boolean {
  if (g.isSystemGroup) return false;
  return holdsRealmSetting({ user: a.user, groups: a.groups }, realm, 'can_manage_all_groups', a.system) || holds(a, g, 'can_manage_group');
}

async function checkSetting(tx: Db, realm: Realm, name: GroupSetting, raw: unknown, system: Map<string, number>): Promise<GroupSettingValue> {
  const value = await checkGroupSetting(tx, realm.id, name, GROUP_PERMISSION_SETTINGS[name], raw, system);
  if (name === 'can_mention_group' && value === system.get('role:owners')) throw new ApiError(`'${name}' setting cannot be set to 'role:owners' group.`);
  return value;
}

async function checkUsers(tx: Db, realm: Realm, ids: number[]): Promise<number[]> {
  const active = new Set((await findUsers(tx, realm.id, ids)).filter((u) => u.isActive).map((u) => u.id));
  const bad = ids.find((id) => !active.has(id));
  if (bad !== undefined) throw new ApiError(`Invalid user ID: ${bad}`);
  return [...new Set(ids)];
}

async function checkSubgroups(tx: Db, realm: Realm, ids: number[]): Promise<number[]> {
  for (const id of ids) {
    const g = await findUserGroup(tx, realm.id, id);
    if (!g) throw new ApiError(`Invalid user group ID: ${id}`);
    if (g.deactivated) throw new ApiError('User group is deactivated.');
  }
  return [...new Set(ids)];
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
    const subgroups = await checkSubgroups(tx, realm, input.subgroups);
    const settings: Partial<Record<GroupSetting, GroupSettingValue>> = {};
    for (const s of GROUP_SETTINGS) {
      settings[s] = input.settings[s] === undefined ? defaultValue(GROUP_PERMISSION_SETTINGS[s], a.system, user.id) : await checkSetting(tx, realm, s, input.settings[s], a.system);
    }
    const g = await insertUserGroup(tx, { realmId: realm.id, name, description: input.description, creatorId: user.id, dateCreated: Math.floor(Date.now() / 1000), settings });
    await addMembers(tx, g.id, members);
    await addSubgroups(tx, g.id, subgroups);
    emit(realm.id, { type: 'user_group', op: 'add', group: formatGroup(g, members.sort((x, y) => x - y), subgroups.sort((x, y) => x - y)) }, null);
    return g.id;
  });
}

export interface UpdateGroupInput {
  name?: string;
  description?: string;
  deactivated?: boolean;
  settings: Partial<Record<GroupSetting, { new: unknown; old?: unknown }>>;
}

export async function doUpdateGroup(app: App, realm: Realm, user: User, id: number, input: UpdateGroupInput): Promise<void> {
  const settingNames = Object.keys(input.settings) as GroupSetting[];
  if (input.name === undefined && input.description === undefined && input.deactivated === undefined && !settingNames.length) {
    throw new ApiError('No new data supplied');
  }
  await inTransaction(app, async (tx, emit) => {
    const a = await actorOf(tx, realm, user);
    const g = await accessGroup(tx, realm, id);
    if (!canManage(a, realm, g)) throw insufficient();
    const data: Record<string, unknown> = {};
    if (input.name !== undefined && input.name.trim() !== g.name) {
      const name = checkName(input.name);
      if (await findUserGroupByName(tx, realm.id, name)) throw new ApiError(`User group '${name}' already exists.`);
      data.name = name;
    }
    if (input.description !== undefined && input.description !== g.description) data.description = input.description;
    const settings = { ...g.settings };
    const nobody = a.system.get('role:nobody')!;
    for (const s of settingNames) {
      const update = input.settings[s]!;
      checkExpected(s, g.settings[s] ?? nobody, update.old, nobody);
      const value = await checkSetting(tx, realm, s, update.new, a.system);
      if (JSON.stringify(normalize(value, nobody)) !== JSON.stringify(normalize(g.settings[s] ?? nobody, nobody))) data[s] = settings[s] = value;
    }
    // Reactivation only: deactivating goes through its own endpoint, and `true` here changes nothing.
    if (input.deactivated === false && g.deactivated) data.deactivated = false;
    if (!Object.keys(data).length) return;
    await updateUserGroup(tx, g.id, { name: data.name as string | undefined, description: data.description as string | undefined, settings, deactivated: data.deactivated as boolean | undefined });
    emit(realm.id, { type: 'user_group', op: 'update', group_id: g.id, data }, null);
  });
}

// Every place a group is used as a permission: organization settings, channel settings, other groups' settings.
async function objections(tx: Db, realm: Realm, groupId: number): Promise<Record<string, unknown>[]> {
  const uses = (v: unknown) => v === groupId || (typeof v === 'object' && v !== null && ((v as { direct_subgroups?: number[] }).direct_subgroups ?? []).includes(groupId));
  const out: Record<string, unknown>[] = [];
  const realmUses = Object.entries(realmSettings(realm)).filter(([, v]) => uses(v)).map(([k]) => k);
  if (realmUses.length) out.push({ type: 'realm', settings: realmUses });
  for (const s of await listStreams(tx, realm.id)) {
    const used = Object.entries(s.groups).filter(([, v]) => uses(v)).map(([k]) => k);
    if (used.length && !s.isArchived) out.push({ type: 'channel', channel_id: s.id, settings: used });
  }
  for (const g of await listUserGroups(tx, realm.id)) {
    const used = Object.entries(g.settings).filter(([, v]) => uses(v)).map(([k]) => k);
    if (used.length && g.id !== groupId && !g.deactivated) out.push({ type: 'user_group', group_id: g.id, settings: used });
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

// A group whose membership may be changed by hand: system groups follow roles, deactivated groups are frozen.
async function accessGroupForMembership(tx: Db, realm: Realm, id: number): Promise<UserGroup> {
  const g = await accessGroup(tx, realm, id);
  if (g.isSystemGroup) throw insufficient();
  if (g.deactivated) throw new ApiError('User group is deactivated.');
  return g;
}

// Groups the user may add anyone to (invitation links add the users who join through them).
export async function accessGroupsForAdding(tx: Db, realm: Realm, user: User, ids: number[]): Promise<UserGroup[]> {
  const a = await actorOf(tx, realm, user);
  const out: UserGroup[] = [];
  for (const id of ids) {
    const g = await accessGroupForMembership(tx, realm, id);
    if (!(canManage(a, realm, g) || holds(a, g, 'can_add_members_group'))) throw insufficient();
    out.push(g);
  }
  return out;
}

export async function addGroupMembersInTx(tx: Tx, emit: Emit, realm: Realm, groupId: number, userIds: number[]): Promise<void> {
  await addMembers(tx, groupId, userIds);
  emit(realm.id, { type: 'user_group', op: 'add_members', group_id: groupId, user_ids: userIds }, null);
}

export async function doChangeMembers(app: App, realm: Realm, user: User, id: number, add: number[], remove: number[]): Promise<void> {
  if (!add.length && !remove.length) throw new ApiError('Nothing to do. Specify at least one of "add" or "delete".');
  await inTransaction(app, async (tx, emit) => {
    const a = await actorOf(tx, realm, user);
    const g = await accessGroupForMembership(tx, realm, id);
    const manage = canManage(a, realm, g);
    const self = (ids: number[]) => ids.length === 1 && ids[0] === user.id;
    if (add.length && !(manage || holds(a, g, 'can_add_members_group') || (self(add) && holds(a, g, 'can_join_group')))) throw insufficient();
    if (remove.length && !(manage || holds(a, g, 'can_remove_members_group') || (self(remove) && holds(a, g, 'can_leave_group')))) throw insufficient();
    const current = new Set((await directMembers(tx, [g.id])).get(g.id));
    const adding = await checkUsers(tx, realm, add);
    for (const id of adding) if (current.has(id)) throw new ApiError(`User ${id} is already a member of this group`);
    for (const id of remove) if (!current.has(id)) throw new ApiError(`There is no member '${id}' in this user group`);
    if (adding.length) await addGroupMembersInTx(tx, emit, realm, g.id, adding);
    await removeMembers(tx, g.id, remove);
    if (remove.length) emit(realm.id, { type: 'user_group', op: 'remove_members', group_id: g.id, user_ids: [...new Set(remove)] }, null);
  });
}

export async function doChangeSubgroups(app: App, realm: Realm, user: User, id: number, add: number[], remove: number[]): Promise<void> {
  if (!add.length && !remove.length) throw new ApiError('Nothing to do. Specify at least one of "add" or "delete".');
  await inTransaction(app, async (tx, emit) => {
    const a = await actorOf(tx, realm, user);
    const g = await accessGroup(tx, realm, id);
    if (!canManage(a, realm, g)) throw insufficient();
    const current = new Set((await directSubgroups(tx, [g.id])).get(g.id));
    const adding = await checkSubgroups(tx, realm, add);
    for (const sub of adding) {
      if (current.has(sub)) throw new ApiError(`User group ${sub} is already a subgroup of this group.`);
      if (sub === g.id || (await descendantGroups(tx, sub)).has(g.id)) throw new ApiError(`User group ${sub} is already a supergroup of this group.`);
    }
    for (const sub of remove) if (!current.has(sub)) throw new ApiError(`User group ${sub} is not a subgroup of this group.`);
    await addSubgroups(tx, g.id, adding);
    await removeSubgroups(tx, g.id, remove);
    if (adding.length) emit(realm.id, { type: 'user_group', op: 'add_subgroups', group_id: g.id, direct_subgroup_ids: adding }, null);
    if (remove.length) emit(realm.id, { type: 'user_group', op: 'remove_subgroups', group_id: g.id, direct_subgroup_ids: [...new Set(remove)] }, null);
  });
}

export async function groupRecords(db: Db, realm: Realm, includeDeactivated: boolean): Promise<Record<string, unknown>[]> {
  const groups = (await listUserGroups(db, realm.id)).filter((g) => includeDeactivated || !g.deactivated);
  const ids = groups.map((g) => g.id);
  const members = await directMembers(db, ids);
  const subgroups = await directSubgroups(db, ids);
  const system = await systemGroupIds(db, realm.id);
  const nobody = system.get('role:nobody')!;
  return groups.map((g) => {
    const settings = { ...g.settings };
    // System groups carry the settings they are defined with.
    if (g.isSystemGroup) for (const s of GROUP_SETTINGS) settings[s] ??= system.get(GROUP_PERMISSION_SETTINGS[s].default_for_system_groups ?? 'role:nobody') ?? nobody;
    return formatGroup({ ...g, settings }, members.get(g.id)!, subgroups.get(g.id)!);
  });
}

export async function accessGroupMembers(app: App, realm: Realm, id: number, directOnly: boolean): Promise<number[]> {
  const g = await accessGroup(app.db, realm, id);
  if (directOnly) return (await directMembers(app.db, [g.id])).get(g.id)!;
  const ids = [g.id, ...(await descendantGroups(app.db, g.id))];
  const all = await directMembers(app.db, ids);
  return [...new Set([...all.values()].flat())].sort((x, y) => x - y);
}

export async function accessGroupSubgroups(app: App, realm: Realm, id: number, directOnly: boolean): Promise<number[]> {
  const g = await accessGroup(app.db, realm, id);
  if (directOnly) return (await directSubgroups(app.db, [g.id])).get(g.id)!;
  return [...(await descendantGroups(app.db, g.id))].sort((x, y) => x - y);
}

