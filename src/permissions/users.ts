// Who may see what of another user: the real (delivery) e-mail, governed by the user's email_address_visibility
// (feature level 163), and the user at all, for guests when can_access_all_users_group is limited to members.
import { resolveGroupSetting } from './groups.js';
import { realmSettings } from '../state/realm.js';
import { userSetting } from '../state/user-settings.js';
import type { Db } from '../store/db.js';
import type { Realm } from '../store/realms.js';
import { acquaintanceIds } from '../store/user-access.js';
import { systemGroupIds } from '../store/groups.js';
import { findUsers, listUsers, ROLE, type User } from '../store/users.js';

export const EMAIL_VISIBILITY = { everyone: 1, members: 2, admins: 3, nobody: 4, moderators: 5 } as const;

// Bots always show their address, as in the reference server.
export function emailVisibility(user: User): number {
  return user.isBot ? EMAIL_VISIBILITY.everyone : Number(userSetting(user, 'email_address_visibility'));
}

export interface Looker {
  id: number;
  role: number;
}

export function seesDeliveryEmail(viewer: Looker, targetId: number, visibility: number): boolean {
  if (viewer.id === targetId) return true;
  switch (visibility) {
    case EMAIL_VISIBILITY.everyone:
      return true;
    case EMAIL_VISIBILITY.members:
      return viewer.role !== ROLE.guest;
    case EMAIL_VISIBILITY.admins:
      return viewer.role <= ROLE.administrator;
    case EMAIL_VISIBILITY.moderators:
      return viewer.role <= ROLE.moderator;
    default:
      return false;
  }
}

// Guests see only the users they share a channel or a conversation with when the organization limits
// can_access_all_users_group to members (the only other value it may take is role:everyone).
export function userAccessLimited(realm: Realm, systemGroups: Map<string, number>): boolean {
  const value = resolveGroupSetting(realmSettings(realm).can_access_all_users_group, systemGroups);
  return value !== systemGroups.get('role:everyone');
}

// The users `viewer` may access, or null for everyone. Bots and the viewer are always accessible.
export async function accessibleUserIds(db: Db, realm: Realm, systemGroups: Map<string, number>, viewer: User): Promise<Set<number> | null> {
  if (viewer.role !== ROLE.guest || !userAccessLimited(realm, systemGroups)) return null;
  const ids = await acquaintanceIds(db, viewer.id);
  ids.add(viewer.id);
  return ids;
}

export function canAccessUser(accessible: Set<number> | null, target: User): boolean {
  return accessible === null || target.isBot || accessible.has(target.id);
}

// Guests who cannot access `target` (empty when access is not limited); everyone else can.
export async function guestsWithoutAccess(db: Db, realm: Realm, systemGroups: Map<string, number>, target: User, users: User[]): Promise<Set<number>> {
  if (target.isBot || !userAccessLimited(realm, systemGroups)) return new Set();
  const guests = users.filter((u) => u.role === ROLE.guest && u.id !== target.id);
  if (!guests.length) return new Set();
  const known = await acquaintanceIds(db, target.id);
  return new Set(guests.filter((g) => !known.has(g.id)).map((g) => g.id));
}

// The users of `candidates` (ids) who are guests unable to access `target`: empty unless access is limited.
export async function blindAmong(db: Db, realm: Realm, target: User, candidates: Iterable<number>): Promise<Set<number>> {
  if (target.isBot) return new Set();
  const systemGroups = await systemGroupIds(db, realm.id);
  if (!userAccessLimited(realm, systemGroups)) return new Set();
  const ids = [...new Set(candidates)].filter((id) => id !== target.id);
  return guestsWithoutAccess(db, realm, systemGroups, target, await findUsers(db, realm.id, ids));
}

// The active users who may access `target`: null for everyone (the usual case, decided without listing users).
// Events about a user (their profile, presence, status) reach exactly these.
export async function audienceOf(db: Db, realm: Realm, target: User): Promise<number[] | null> {
  const systemGroups = await systemGroupIds(db, realm.id);
  if (target.isBot || !userAccessLimited(realm, systemGroups)) return null;
  const users = (await listUsers(db, realm.id)).filter((u) => u.isActive);
  const blind = await guestsWithoutAccess(db, realm, systemGroups, target, users);
  return users.filter((u) => !blind.has(u.id)).map((u) => u.id);
}

// The users `viewer` may access (null: everyone), the organization's system groups read here.
export async function accessibleBy(db: Db, realm: Realm, viewer: User): Promise<Set<number> | null> {
  if (viewer.role !== ROLE.guest) return null;
  return accessibleUserIds(db, realm, await systemGroupIds(db, realm.id), viewer);
}
