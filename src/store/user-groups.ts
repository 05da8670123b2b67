// User groups as clients see them (§2.7): named groups with members, subgroups and six permission settings.
import { type Selectable, sql } from 'kysely';
import type { Db } from './db.js';
import { dialectOf } from './search.js';
import type { UserGroupTable } from './schema.js';
import type { GroupSettingValue } from './streams.js';

export const GROUP_SETTINGS = ['can_add_members_group', 'can_join_group', 'can_leave_group', 'can_manage_group', 'can_mention_group', 'can_remove_members_group'] as const;
export type GroupSetting = (typeof GROUP_SETTINGS)[number];

export interface UserGroup {
  id: number;
  realmId: number;
  name: string;
  description: string;
  isSystemGroup: boolean;
  deactivated: boolean;
  creatorId: number | null;
  dateCreated: number | null;
  settings: Partial<Record<GroupSetting, GroupSettingValue>>;
}

function toGroup(r: Selectable<UserGroupTable>): UserGroup {
  return {
    id: r.id, realmId: r.realm_id, name: r.name, description: r.description, isSystemGroup: r.is_system_group === 1,
    deactivated: r.deactivated === 1, creatorId: r.creator_id, dateCreated: r.date_created, settings: JSON.parse(r.group_settings),
  };
}

export async function findUserGroup(db: Db, realmId: number, id: number): Promise<UserGroup | undefined> {
  const row = await db.selectFrom('user_groups').selectAll().where('realm_id', '=', realmId).where('id', '=', id).executeTakeFirst();
  return row && toGroup(row);
}

export async function findUserGroupByName(db: Db, realmId: number, name: string): Promise<UserGroup | undefined> {
  const row = await db.selectFrom('user_groups').selectAll().where('realm_id', '=', realmId).where('name', '=', name).executeTakeFirst();
  return row && toGroup(row);
}

export async function listUserGroups(db: Db, realmId: number): Promise<UserGroup[]> {
  const rows = await db.selectFrom('user_groups').selectAll().where('realm_id', '=', realmId).orderBy('id').execute();
  return rows.map(toGroup);
}

export async function insertUserGroup(db: Db, g: Omit<UserGroup, 'id' | 'isSystemGroup' | 'deactivated'>): Promise<UserGroup> {
  const row = await db
    .insertInto('user_groups')
    .values({ realm_id: g.realmId, name: g.name, description: g.description, creator_id: g.creatorId, date_created: g.dateCreated, group_settings: JSON.stringify(g.settings) })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toGroup(row);
}

// Locks a group's row until the transaction ends on PostgreSQL (SQLite's writers are serialised already), so that
// two concurrent changes of its settings JSON cannot overwrite each other. Call it before reading the group.
export async function lockUserGroup(db: Db, id: number): Promise<void> {
  if (dialectOf(db) === 'postgres') await db.selectFrom('user_groups').select('id').where('id', '=', id).forUpdate().execute();
}

export async function updateUserGroup(db: Db, id: number, c: Partial<{ name: string; description: string; deactivated: boolean; settings: UserGroup['settings'] }>): Promise<void> {
  const v: Record<string, string | number> = {};
  if (c.name !== undefined) v.name = c.name;
  if (c.description !== undefined) v.description = c.description;
  if (c.deactivated !== undefined) v.deactivated = c.deactivated ? 1 : 0;
  if (c.settings !== undefined) v.group_settings = JSON.stringify(c.settings);
  if (Object.keys(v).length) await db.updateTable('user_groups').set(v).where('id', '=', id).execute();
}

// Callers may ask for every group of the organization: a few hundred ids per statement.
const CHUNK = 500;

// A row per group with its active members' ids joined as text: a 50,000-user organization's role groups hold
// 100,000 member rows, which as rows cost far more to pass from the read pool and parse than to split.
export async function directMembers(db: Db, groupIds: number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>(groupIds.map((id) => [id, []]));
  const concat = dialectOf(db) === 'postgres' ? 'string_agg' : 'group_concat';
  for (let i = 0; i < groupIds.length; i += CHUNK) {
    const rows = await db
      .selectFrom('user_group_members as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select(['m.group_id', sql<string>`${sql.raw(concat)}(cast(m.user_id as text), ',' order by m.user_id)`.as('ids')])
      .where('m.group_id', 'in', groupIds.slice(i, i + CHUNK))
      .where('u.is_active', '=', 1)
      .groupBy('m.group_id')
      .execute();
    for (const r of rows) out.set(r.group_id, r.ids.split(',').map(Number));
  }
  return out;
}

export async function directSubgroups(db: Db, groupIds: number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>(groupIds.map((id) => [id, []]));
  for (let i = 0; i < groupIds.length; i += CHUNK) {
    const rows = await db.selectFrom('user_group_subgroups').select(['supergroup_id', 'subgroup_id'])
      .where('supergroup_id', 'in', groupIds.slice(i, i + CHUNK)).orderBy('subgroup_id').execute();
    for (const r of rows) out.get(r.supergroup_id)!.push(r.subgroup_id);
  }
  return out;
}

export async function addMembers(db: Db, groupId: number, userIds: number[]): Promise<void> {
  if (userIds.length) await db.insertInto('user_group_members').values(userIds.map((user_id) => ({ group_id: groupId, user_id }))).execute();
}

export async function removeMembers(db: Db, groupId: number, userIds: number[]): Promise<void> {
  if (userIds.length) await db.deleteFrom('user_group_members').where('group_id', '=', groupId).where('user_id', 'in', userIds).execute();
}

export async function addSubgroups(db: Db, groupId: number, ids: number[]): Promise<void> {
  if (ids.length) await db.insertInto('user_group_subgroups').values(ids.map((subgroup_id) => ({ supergroup_id: groupId, subgroup_id }))).execute();
}

export async function removeSubgroups(db: Db, groupId: number, ids: number[]): Promise<void> {
  if (ids.length) await db.deleteFrom('user_group_subgroups').where('supergroup_id', '=', groupId).where('subgroup_id', 'in', ids).execute();
}

// Every group reachable downwards from `groupId` (its subgroups, their subgroups, ...), to refuse cycles.
export async function descendantGroups(db: Db, groupId: number): Promise<Set<number>> {
  const seen = new Set<number>();
  let frontier = [groupId];
  while (frontier.length) {
    const rows = await db.selectFrom('user_group_subgroups').select('subgroup_id').where('supergroup_id', 'in', frontier).execute();
    frontier = rows.map((r) => r.subgroup_id).filter((id) => !seen.has(id));
    frontier.forEach((id) => seen.add(id));
  }
  return seen;
}

// The groups that have `groupId` as a direct subgroup.
export async function directSupergroups(db: Db, groupId: number): Promise<number[]> {
  const rows = await db.selectFrom('user_group_subgroups').select('supergroup_id').where('subgroup_id', '=', groupId).orderBy('supergroup_id').execute();
  return rows.map((r) => r.supergroup_id);
}
