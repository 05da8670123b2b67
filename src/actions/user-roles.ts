// Administrators changing other users: role, name and profile data, deactivation and reactivation (§6 person
// forms; since feature level 222 (de)activation is an `update` with is_active). Bots follow their owner out.
import type { App } from '../app.js';
import { nowSeconds } from '../app.js';
import { ApiError } from '../lib/errors.js';
import type { Tx } from '../store/db.js';
import { directGroupIds, syncRoleGroups, systemGroupIds } from '../store/groups.js';
import { touchPresence } from '../store/presence.js';
import type { Realm } from '../store/realms.js';
import { findUser, listUsers, ROLE, ROLES, updateUser, type Role, type User } from '../store/users.js';
import { botAudience, ids, replaceSecretsIfHoldersLost } from './bot-events.js';
import { expireLinksOfInTx } from './invites.js';
import { checkFullName } from './checks.js';
import { applyViewerRoleChange } from './email-visibility.js';
import { updateProfileDataOf, type ProfileInputValue } from './profile-data.js';
import { inTransaction, type Emit } from './transaction.js';
import { discardStagedUploadsOf } from './staged-uploads.js';
import { emitPersonUpdate } from './user-events.js';
import { checkAdministrator, OrganizationOwnerRequired } from './users.js';
import { isFullMember } from './full-members.js';
import { closeQueuesOf, roleChangedForQueues } from './queue-rights.js';
import { deleteSessionsOf } from '../store/sessions.js';

async function accessTarget(tx: Tx, realm: Realm, id: number): Promise<User> {
  const target = await findUser(tx, realm.id, id);
  if (!target) throw new ApiError('No such user');
  return target;
}

async function isLastOwner(tx: Tx, realm: Realm, user: User): Promise<boolean> {
  if (user.role !== ROLE.owner) return false;
  const owners = (await listUsers(tx, realm.id)).filter((u) => u.isActive && u.role === ROLE.owner && !u.isBot);
  return owners.length === 1 && owners[0].id === user.id;
}

// Role groups follow the role; clients learn of the membership change as user_group events.
async function moveRoleGroups(tx: Tx, emit: Emit, realm: Realm, user: User, role: Role): Promise<void> {
  const system = new Set((await systemGroupIds(tx, realm.id)).values());
  const before = new Set(await directSystemGroups(tx, user.id, system));
  await syncRoleGroups(tx, realm.id, user.id, role, isFullMember(realm, { role, dateJoined: user.dateJoined }, nowSeconds()));
  const after = new Set(await directSystemGroups(tx, user.id, system));
  for (const g of before) if (!after.has(g)) emit(realm.id, { type: 'user_group', op: 'remove_members', group_id: g, user_ids: [user.id] }, null);
  for (const g of after) if (!before.has(g)) emit(realm.id, { type: 'user_group', op: 'add_members', group_id: g, user_ids: [user.id] }, null);
}

async function directSystemGroups(tx: Tx, userId: number, system: Set<number>): Promise<number[]> {
  return (await directGroupIds(tx, userId)).filter((g) => system.has(g));
}

export function checkRole(role: number): void {
  if (!ROLES.includes(role)) throw new ApiError('Invalid role');
}

export async function changeRoleInTx(tx: Tx, emit: Emit, realm: Realm, actor: User, target: User, role: number): Promise<void> {
  if (role === target.role) return;
  if ((role === ROLE.owner || target.role === ROLE.owner) && actor.role !== ROLE.owner) throw new OrganizationOwnerRequired();
  checkAdministrator(actor);
  if (await isLastOwner(tx, realm, target)) throw new ApiError('The owner permission cannot be removed from the only organization owner.');
  await updateUser(tx, target.id, { role });
  await roleChangedForQueues(tx, emit, realm, target, role);
  await moveRoleGroups(tx, emit, realm, target, role as Role);
  await emitPersonUpdate(tx, emit, realm, target, { role });
  await applyViewerRoleChange(tx, emit, realm, target, target.role, role);
  await replaceSecretsIfHoldersLost(tx, emit, realm, target, { ...target, role: role as Role });
  await expireLinksOfInTx(tx, emit, realm, { ...target, role: role as Role });
}

export interface UserChanges {
  role?: number;
  fullName?: string;
  profileData?: { id: number; value: ProfileInputValue }[];
}

export async function doChangeUser(app: App, realm: Realm, actor: User, id: number, changes: UserChanges): Promise<void> {
  checkAdministrator(actor);
  if (changes.role === undefined && changes.fullName === undefined && changes.profileData === undefined) throw new ApiError('Nothing to change');
  if (changes.role !== undefined) checkRole(changes.role);
  await inTransaction(app, async (tx, emit) => {
    const target = await accessTarget(tx, realm, id);
    if (changes.role !== undefined) await changeRoleInTx(tx, emit, realm, actor, target, changes.role);
    if (changes.fullName !== undefined && changes.fullName.trim() !== target.fullName) {
      const fullName = checkFullName(changes.fullName);
      await updateUser(tx, target.id, { fullName });
      await emitPersonUpdate(tx, emit, realm, target, { full_name: fullName });
    }
    if (changes.profileData !== undefined) await updateProfileDataOf(tx, emit, realm, actor, target, changes.profileData);
  });
}

// Deactivating a user deactivates the bots they own, as the reference server does (whatever the bots' roles:
// `cascade` skips the checks of the actor, made for the owner), and ends their invitation links. Returns the
// users it deactivated, whose unfinished uploads the caller discards (discardStagedUploadsOf) once this has
// committed.
export async function setActiveInTx(tx: Tx, emit: Emit, realm: Realm, actor: User, target: User, active: boolean, cascade = false): Promise<number[]> {
  if (target.isActive === active) throw new ApiError(active ? 'User is already active' : 'User is already deactivated');
  if (!active && !cascade) {
    if (target.role === ROLE.owner && actor.role !== ROLE.owner) throw new OrganizationOwnerRequired();
    if (await isLastOwner(tx, realm, target)) throw new ApiError('Cannot deactivate the only organization owner', 'CANNOT_DEACTIVATE_LAST_USER');
  }
  await updateUser(tx, target.id, { isActive: active });
  if (!active) await closeQueuesOf(tx, emit, realm, target);
  // Their browser sessions end with them; reactivation does not bring them back.
  if (!active) await deleteSessionsOf(tx, [target.id]);
  await touchPresence(tx, realm.id, target.id);
  await emitPersonUpdate(tx, emit, realm, target, { is_active: active });
  if (!active) await expireLinksOfInTx(tx, emit, realm, { ...target, isActive: false });
  if (target.isBot) emit(realm.id, { type: 'realm_bot', op: 'update', bot: { user_id: target.id, is_active: active } }, ids(await botAudience(tx, realm, target)));
  if (active) return [];
  const deactivated = [target.id];
  if (!target.isBot) {
    for (const bot of (await listUsers(tx, realm.id)).filter((u) => u.isBot && u.isActive && u.botOwnerId === target.id)) {
      for (const id of await setActiveInTx(tx, emit, realm, actor, bot, false, true)) deactivated.push(id);
    }
  }
  return deactivated;
}

export async function doSetActive(app: App, realm: Realm, actor: User, id: number, active: boolean): Promise<void> {
  if (actor.id !== id) checkAdministrator(actor);
  const deactivated = await inTransaction(app, async (tx, emit) => setActiveInTx(tx, emit, realm, actor, await accessTarget(tx, realm, id), active));
  await discardStagedUploadsOf(app, deactivated);
}
