// Who may change a user group, and the validation shared by its operations (§2.7, §4.7, §4.14).
import { ApiError } from '../lib/errors.js';
import { holdsGroupSetting } from '../permissions/groups.js';
import type { Db } from '../store/db.js';
import { groupsOfUser, systemGroupIds } from '../store/groups.js';
import type { Realm } from '../store/realms.js';
import { findUserGroup, type GroupSetting, type UserGroup } from '../store/user-groups.js';
import { findUsers, type User } from '../store/users.js';
import { checkNotGuest } from './checks.js';
import { holdsRealmSetting } from './channels.js';

export const insufficient = () => new ApiError('Insufficient permission');

export async function accessGroup(db: Db, realm: Realm, id: number): Promise<UserGroup> {
  const g = await findUserGroup(db, realm.id, id);
  if (!g) throw new ApiError('Invalid user group');
  return g;
}

export interface Actor { user: User; groups: Set<number>; system: Map<string, number> }

// Guests change no group, whatever the group's settings say, as in the reference server.
export async function actorOf(db: Db, realm: Realm, user: User): Promise<Actor> {
  checkNotGuest(user);
  return { user, groups: await groupsOfUser(db, user.id), system: await systemGroupIds(db, realm.id) };
}

export function holds(a: Actor, g: UserGroup, setting: GroupSetting): boolean {
  const v = g.settings[setting];
  return v !== undefined && holdsGroupSetting(v, a.user.id, a.groups);
}

// System groups follow roles and are changed by nobody; any other group by its managers and by those the
// organization lets manage every group.
export function canManage(a: Actor, realm: Realm, g: UserGroup): boolean {
  if (g.isSystemGroup) return false;
  return holdsRealmSetting({ user: a.user, groups: a.groups }, realm, 'can_manage_all_groups', a.system) || holds(a, g, 'can_manage_group');
}

// Active users of the organization, in the order given and without repeats.
export async function checkUsers(db: Db, realm: Realm, ids: number[]): Promise<number[]> {
  const active = new Set((await findUsers(db, realm.id, ids)).filter((u) => u.isActive).map((u) => u.id));
  const bad = ids.find((id) => !active.has(id));
  if (bad !== undefined) throw new ApiError(`Invalid user ID: ${bad}`);
  return [...new Set(ids)];
}

// Groups of the organization; new subgroups must also be active.
export async function checkSubgroups(db: Db, realm: Realm, ids: number[], forAdding: boolean): Promise<number[]> {
  for (const id of ids) {
    const g = await findUserGroup(db, realm.id, id);
    if (!g) throw new ApiError(`Invalid user group ID: ${id}`);
    if (forAdding && g.deactivated) throw new ApiError('User group is deactivated.');
  }
  return [...new Set(ids)];
}
