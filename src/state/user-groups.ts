// The realm_user_groups register block (and GET /user_groups).
import { GROUP_PERMISSION_SETTINGS } from './realm-data.js';
import type { Db } from '../store/db.js';
import { systemGroupIds } from '../store/groups.js';
import type { Realm } from '../store/realms.js';
import { directMembers, directSubgroups, GROUP_SETTINGS, listUserGroups, type UserGroup } from '../store/user-groups.js';

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

export function formatGroup(g: UserGroup, members: number[], subgroups: number[]): Record<string, unknown> {
  return {
    id: g.id, name: g.name, description: g.description, members, direct_subgroup_ids: subgroups, is_system_group: g.isSystemGroup,
    creator_id: g.creatorId, date_created: g.dateCreated, deactivated: g.deactivated, ...g.settings,
  };
}
