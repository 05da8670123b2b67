// role:fullmembers holds the members (role member) whose accounts are at least waiting_period_threshold days old;
// moderators and up belong through its subgroups. Membership is stored like any other: set when a user is
// created or changes role, recomputed when the threshold changes, and extended by a periodic pass as accounts age
// into it (the reference server's promote_new_full_members).
import type { App } from '../app.js';
import { nowSeconds } from '../app.js';
import { realmSettings } from '../state/realm.js';
import type { Tx } from '../store/db.js';
import { systemGroupIds } from '../store/groups.js';
import { listRealms, type Realm } from '../store/realms.js';
import { addMembers, directMembers, removeMembers } from '../store/user-groups.js';
import { listUsers, ROLE, type User } from '../store/users.js';
import { inTransaction, type Emit } from './transaction.js';

const DAY = 86400;

export function isFullMember(realm: Realm, user: Pick<User, 'role' | 'dateJoined'>, now: number): boolean {
  return user.role === ROLE.member && now - user.dateJoined >= Number(realmSettings(realm).waiting_period_threshold) * DAY;
}

// Brings the group's direct members in line with the rule; returns whether anything changed.
export async function syncFullMembers(tx: Tx, emit: Emit, realm: Realm, now: number): Promise<boolean> {
  const groupId = (await systemGroupIds(tx, realm.id)).get('role:fullmembers')!;
  const current = new Set((await directMembers(tx, [groupId])).get(groupId));
  const members = (await listUsers(tx, realm.id)).filter((u) => u.isActive && u.role === ROLE.member);
  const add = members.filter((u) => isFullMember(realm, u, now) && !current.has(u.id)).map((u) => u.id);
  const remove = members.filter((u) => !isFullMember(realm, u, now) && current.has(u.id)).map((u) => u.id);
  await addMembers(tx, groupId, add);
  await removeMembers(tx, groupId, remove);
  if (add.length) emit(realm.id, { type: 'user_group', op: 'add_members', group_id: groupId, user_ids: add }, null);
  if (remove.length) emit(realm.id, { type: 'user_group', op: 'remove_members', group_id: groupId, user_ids: remove }, null);
  return add.length + remove.length > 0;
}

// The periodic pass: organizations with a waiting period whose new members may have aged into it.
export async function promoteFullMembers(app: App): Promise<void> {
  for (const realm of await listRealms(app.db)) {
    if (realm.deactivated || !Number(realmSettings(realm).waiting_period_threshold)) continue;
    await inTransaction(app, (tx, emit) => syncFullMembers(tx, emit, realm, nowSeconds()));
  }
}
