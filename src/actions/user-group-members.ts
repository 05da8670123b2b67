// Members and subgroups of user groups (§2.7): joining and leaving under the group's settings, changes by those
// allowed to add or remove members, subgroups without cycles, and the reads of both.
import type { App } from '../app.js';
import { ApiError } from '../lib/errors.js';
import type { Tx } from '../store/db.js';
import type { Realm } from '../store/realms.js';
import { addMembers, addSubgroups, descendantGroups, directMembers, directSubgroups, removeMembers, removeSubgroups } from '../store/user-groups.js';
import type { UserGroup } from '../store/user-groups.js';
import { findUser, type User } from '../store/users.js';
import { accessGroup, actorOf, canManage, checkSubgroups, checkUsers, holds, insufficient, type Actor } from './user-group-access.js';
import { inTransaction, type Emit } from './transaction.js';
import { checkUserAccessible } from './users.js';

const nothingToDo = () => new ApiError('Nothing to do. Specify at least one of "add" or "delete".');

// Changes to a deactivated group are kept from clients that do not know deactivated groups.
const hidden = (g: UserGroup) => (g.deactivated ? { _deactivated: true } : {});

// The group whose members or subgroups change, its changer, and whether they manage it. System groups follow
// roles only.
async function accessForChange(tx: Tx, realm: Realm, user: User, id: number) {
  const a = await actorOf(tx, realm, user);
  const g = await accessGroup(tx, realm, id);
  if (g.isSystemGroup) throw insufficient();
  return { a, g, manage: canManage(a, realm, g) };
}

// Whoever manages a group, or holds its can_add_members_group, may add anyone to it.
const addsAnyone = (a: Actor, realm: Realm, g: UserGroup) => canManage(a, realm, g) || holds(a, g, 'can_add_members_group');

// Groups the user may add anyone to (invitation links add the users who join through them).
export async function accessGroupsForAdding(tx: Tx, realm: Realm, user: User, ids: number[]): Promise<UserGroup[]> {
  const out: UserGroup[] = [];
  for (const id of ids) {
    const { a, g } = await accessForChange(tx, realm, user, id);
    if (g.deactivated) throw new ApiError('User group is deactivated.');
    if (!addsAnyone(a, realm, g)) throw insufficient();
    out.push(g);
  }
  return out;
}

// The same, as a test of a group already found: whether an invitation link's creator may still add to it.
export async function mayAddAnyoneTo(tx: Tx, realm: Realm, user: User, g: UserGroup): Promise<boolean> {
  return !g.isSystemGroup && !g.deactivated && addsAnyone(await actorOf(tx, realm, user), realm, g);
}

export async function addGroupMembersInTx(tx: Tx, emit: Emit, realm: Realm, g: UserGroup, userIds: number[]): Promise<void> {
  await addMembers(tx, g.id, userIds);
  emit(realm.id, { type: 'user_group', op: 'add_members', group_id: g.id, user_ids: userIds, ...hidden(g) }, null);
}

export async function doChangeMembers(app: App, realm: Realm, user: User, id: number, add: number[], remove: number[]): Promise<void> {
  if (!add.length && !remove.length) throw nothingToDo();
  await inTransaction(app, async (tx, emit) => {
    const { a, g, manage } = await accessForChange(tx, realm, user, id);
    const self = (ids: number[]) => ids.length === 1 && ids[0] === user.id;
    if (add.length && !(manage || holds(a, g, 'can_add_members_group') || (self(add) && holds(a, g, 'can_join_group')))) throw insufficient();
    if (remove.length && !(manage || holds(a, g, 'can_remove_members_group') || (self(remove) && holds(a, g, 'can_leave_group')))) throw insufficient();
    const current = new Set((await directMembers(tx, [g.id])).get(g.id));
    const adding = await checkUsers(tx, realm, add);
    for (const uid of adding) if (current.has(uid)) throw new ApiError(`User ${uid} is already a member of this group`);
    const removing = await checkUsers(tx, realm, remove);
    for (const uid of removing) if (!current.has(uid)) throw new ApiError(`There is no member '${uid}' in this user group`);
    if (adding.length) await addGroupMembersInTx(tx, emit, realm, g, adding);
    await removeMembers(tx, g.id, removing);
    if (removing.length) emit(realm.id, { type: 'user_group', op: 'remove_members', group_id: g.id, user_ids: removing, ...hidden(g) }, null);
  });
}

// Adding subgroups is adding members, so can_add_members_group allows it; removing them takes a manager.
export async function doChangeSubgroups(app: App, realm: Realm, user: User, id: number, add: number[], remove: number[]): Promise<void> {
  if (!add.length && !remove.length) throw nothingToDo();
  await inTransaction(app, async (tx, emit) => {
    const { a, g, manage } = await accessForChange(tx, realm, user, id);
    if (add.length && !(manage || holds(a, g, 'can_add_members_group'))) throw insufficient();
    if (remove.length && !manage) throw insufficient();
    const current = new Set((await directSubgroups(tx, [g.id])).get(g.id));
    const adding = await checkSubgroups(tx, realm, add, true);
    for (const sub of adding) if (current.has(sub)) throw new ApiError(`User group ${sub} is already a subgroup of this group.`);
    for (const sub of adding) {
      if (sub === g.id || (await descendantGroups(tx, sub)).has(g.id)) throw new ApiError(`User group ${g.id} is already a subgroup of one of the passed subgroups.`);
    }
    const removing = await checkSubgroups(tx, realm, remove, false);
    for (const sub of removing) if (!current.has(sub)) throw new ApiError(`User group ${sub} is not a subgroup of this group.`);
    await addSubgroups(tx, g.id, adding);
    await removeSubgroups(tx, g.id, removing);
    if (adding.length) emit(realm.id, { type: 'user_group', op: 'add_subgroups', group_id: g.id, direct_subgroup_ids: adding, ...hidden(g) }, null);
    if (removing.length) emit(realm.id, { type: 'user_group', op: 'remove_subgroups', group_id: g.id, direct_subgroup_ids: removing, ...hidden(g) }, null);
  });
}

export async function accessGroupMembers(app: App, realm: Realm, id: number, directOnly: boolean): Promise<number[]> {
  const g = await accessGroup(app.db, realm, id);
  if (directOnly) return (await directMembers(app.db, [g.id])).get(g.id)!;
  const ids = [g.id, ...(await descendantGroups(app.db, g.id))];
  const all = await directMembers(app.db, ids);
  return [...new Set([...all.values()].flat())].sort((x, y) => x - y);
}

export async function accessIsGroupMember(app: App, realm: Realm, viewer: User, id: number, userId: number, directOnly: boolean): Promise<boolean> {
  const members = await accessGroupMembers(app, realm, id, directOnly);
  const target = await findUser(app.db, realm.id, userId);
  if (!target) throw new ApiError('No such user');
  if (!target.isActive) throw new ApiError('User is deactivated');
  await checkUserAccessible(app.db, realm, viewer, target);
  return members.includes(userId);
}

export async function accessGroupSubgroups(app: App, realm: Realm, id: number, directOnly: boolean): Promise<number[]> {
  const g = await accessGroup(app.db, realm, id);
  if (directOnly) return (await directSubgroups(app.db, [g.id])).get(g.id)!;
  return [...(await descendantGroups(app.db, g.id))].sort((x, y) => x - y);
}
