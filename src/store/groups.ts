import type { Db } from './db.js';
import { cached, cachedMany, cacheMap } from './cache.js';
import { ROLE, type Role } from './users.js';

// The system groups and their nesting: each role group contains the more privileged one as a subgroup, so
// membership of `role:members` covers moderators, administrators and owners.
export const SYSTEM_GROUPS = [
  { name: 'role:internet', description: 'Everyone on the Internet', sub: 'role:everyone' },
  { name: 'role:everyone', description: 'Everyone including guests', sub: 'role:members' },
  { name: 'role:members', description: 'Everyone except guests', sub: 'role:fullmembers' },
  { name: 'role:fullmembers', description: 'Members of this organization, not including new accounts and guests', sub: 'role:moderators' },
  { name: 'role:moderators', description: 'Moderators of this organization, including administrators', sub: 'role:administrators' },
  { name: 'role:administrators', description: 'Administrators of this organization, including owners', sub: 'role:owners' },
  { name: 'role:owners', description: 'Owners of this organization', sub: null },
  { name: 'role:nobody', description: 'Nobody', sub: null },
] as const;

export type SystemGroupName = (typeof SYSTEM_GROUPS)[number]['name'];

// Direct membership by role. A member is a full member once past the organization's waiting period.
function roleGroups(role: Role, fullMember: boolean): SystemGroupName[] {
  switch (role) {
    case ROLE.owner:
      return ['role:owners'];
    case ROLE.administrator:
      return ['role:administrators'];
    case ROLE.moderator:
      return ['role:moderators'];
    case ROLE.member:
      return fullMember ? ['role:fullmembers', 'role:members'] : ['role:members'];
    default:
      return ['role:everyone'];
  }
}

export async function createSystemGroups(db: Db, realmId: number, now: number): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (const g of SYSTEM_GROUPS) {
    const row = await db
      .insertInto('user_groups')
      .values({ realm_id: realmId, name: g.name, description: g.description, is_system_group: 1, date_created: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    ids.set(g.name, row.id);
  }
  const links = SYSTEM_GROUPS.filter((g) => g.sub).map((g) => ({
    supergroup_id: ids.get(g.name)!,
    subgroup_id: ids.get(g.sub!)!,
  }));
  await db.insertInto('user_group_subgroups').values(links).execute();
  return ids;
}

// Permission checks on every request need these two: cached (src/store/cache.ts).
const systemGroupsByRealm = cacheMap<number, [string, number][]>('user_groups');
const groupsByUser = cacheMap<number, number[]>('user_group_members', 'user_group_subgroups');

export async function systemGroupIds(db: Db, realmId: number): Promise<Map<string, number>> {
  const pairs = await cached(db, systemGroupsByRealm, realmId, async () => {
    const rows = await db.selectFrom('user_groups').select(['id', 'name']).where('realm_id', '=', realmId).where('is_system_group', '=', 1).execute();
    return rows.map((r): [string, number] => [r.name, r.id]);
  });
  return new Map(pairs);
}

// Keeps a user's direct system-group membership equal to what their role implies; `fullMember` says whether
// a member has passed the waiting period.
export async function syncRoleGroups(db: Db, realmId: number, userId: number, role: Role, fullMember: boolean): Promise<void> {
  const ids = await systemGroupIds(db, realmId);
  const all = [...ids.values()];
  await db.deleteFrom('user_group_members').where('user_id', '=', userId).where('group_id', 'in', all).execute();
  const wanted = roleGroups(role, fullMember).map((name) => ({ group_id: ids.get(name)!, user_id: userId }));
  await db.insertInto('user_group_members').values(wanted).execute();
}

// Every group a user belongs to, directly or through subgroups.
export async function groupsOfUser(db: Db, userId: number): Promise<Set<number>> {
  return new Set(await cached(db, groupsByUser, userId, async () => [...(await loadGroupsOfUser(db, userId))]));
}

async function loadGroupsOfUser(db: Db, userId: number): Promise<Set<number>> {
  const direct = await db.selectFrom('user_group_members').select('group_id').where('user_id', '=', userId).execute();
  const result = new Set(direct.map((r) => r.group_id));
  let frontier = [...result];
  while (frontier.length) {
    const parents = await db
      .selectFrom('user_group_subgroups')
      .select('supergroup_id')
      .where('subgroup_id', 'in', frontier)
      .execute();
    frontier = parents.map((p) => p.supergroup_id).filter((id) => !result.has(id));
    frontier.forEach((id) => result.add(id));
  }
  return result;
}

export async function findGroupByName(db: Db, realmId: number, name: string) {
  return db
    .selectFrom('user_groups')
    .selectAll()
    .where('realm_id', '=', realmId)
    .where('name', '=', name)
    .executeTakeFirst();
}

export interface GroupRow {
  id: number;
  name: string;
  isSystemGroup: boolean;
  deactivated: boolean;
}

export async function findGroups(db: Db, realmId: number, ids: number[]): Promise<Map<number, GroupRow>> {
  if (!ids.length) return new Map();
  const rows = await db
    .selectFrom('user_groups')
    .select(['id', 'name', 'is_system_group', 'deactivated'])
    .where('realm_id', '=', realmId)
    .where('id', 'in', ids)
    .execute();
  return new Map(rows.map((r) => [r.id, { id: r.id, name: r.name, isSystemGroup: r.is_system_group === 1, deactivated: r.deactivated === 1 }]));
}

// Every user in the groups, directly or through subgroups.
export async function groupMemberIds(db: Db, groupIds: number[]): Promise<number[]> {
  const seen = new Set<number>(groupIds);
  let frontier = [...groupIds];
  while (frontier.length) {
    const subs = await db.selectFrom('user_group_subgroups').select('subgroup_id').where('supergroup_id', 'in', frontier).execute();
    frontier = subs.map((s) => s.subgroup_id).filter((id) => !seen.has(id));
    frontier.forEach((id) => seen.add(id));
  }
  if (!seen.size) return [];
  const rows = await db.selectFrom('user_group_members').select('user_id').where('group_id', 'in', [...seen]).execute();
  return [...new Set(rows.map((r) => r.user_id))];
}

// Each group's members (directly or through subgroups), cached: deciding who may know of a channel looks at the
// groups its settings name, for every channel a request creates or changes.
const membersByGroup = cacheMap<number, ReadonlySet<number>>('user_group_members', 'user_group_subgroups');

export async function membersOfGroups(db: Db, groupIds: number[]): Promise<Map<number, ReadonlySet<number>>> {
  return cachedMany(db, membersByGroup, groupIds, async (missing) => {
    const out = new Map<number, ReadonlySet<number>>();
    for (const g of missing) out.set(g, new Set(await groupMemberIds(db, [g])));
    return out;
  });
}

export async function directGroupIds(db: Db, userId: number): Promise<number[]> {
  const rows = await db.selectFrom('user_group_members').select('group_id').where('user_id', '=', userId).execute();
  return rows.map((r) => r.group_id);
}
