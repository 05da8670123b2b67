// Checking group-setting values given by clients (§2.1): the read form (a group id, or
// {direct_members, direct_subgroups}) and the update form ({new, old}).
import { ApiError } from '../lib/errors.js';
import type { GroupPermissionSetting } from '../state/realm-data.js';
import type { Db } from '../store/db.js';
import { findGroups } from '../store/groups.js';
import { findUsers } from '../store/users.js';
import type { GroupSettingValue } from './groups.js';

const sorted = (a: number[]) => [...new Set(a)].sort((x, y) => x - y);

// One spelling per value: an anonymous group of one subgroup and no members is that subgroup; an empty one
// is role:nobody.
export function normalize(value: GroupSettingValue, nobody: number): GroupSettingValue {
  if (typeof value === 'number') return value;
  const members = sorted(value.direct_members);
  const subgroups = sorted(value.direct_subgroups);
  if (!members.length && subgroups.length === 1) return subgroups[0];
  if (!members.length && !subgroups.length) return nobody;
  return { direct_members: members, direct_subgroups: subgroups };
}

export function sameValue(a: GroupSettingValue, b: GroupSettingValue, nobody: number): boolean {
  return JSON.stringify(normalize(a, nobody)) === JSON.stringify(normalize(b, nobody));
}

export function defaultValue(meta: GroupPermissionSetting, systemGroups: Map<string, number>, creatorId: number | null): GroupSettingValue {
  if (meta.default_group_name === 'channel_creator' || meta.default_group_name === 'group_creator') {
    return { direct_members: creatorId === null ? [] : [creatorId], direct_subgroups: [] };
  }
  return systemGroups.get(meta.default_group_name)!;
}

export async function checkGroupSetting(
  db: Db,
  realmId: number,
  setting: string,
  meta: GroupPermissionSetting,
  raw: unknown,
  systemGroups: Map<string, number>,
): Promise<GroupSettingValue> {
  const nobody = systemGroups.get('role:nobody')!;
  let value: GroupSettingValue;
  if (typeof raw === 'number' && Number.isInteger(raw)) value = raw;
  else if (
    raw && typeof raw === 'object' && !Array.isArray(raw) &&
    Array.isArray((raw as Record<string, unknown>).direct_members) &&
    Array.isArray((raw as Record<string, unknown>).direct_subgroups) &&
    [...(raw as { direct_members: unknown[] }).direct_members, ...(raw as { direct_subgroups: unknown[] }).direct_subgroups].every(Number.isInteger)
  ) {
    const r = raw as { direct_members: number[]; direct_subgroups: number[] };
    value = { direct_members: r.direct_members, direct_subgroups: r.direct_subgroups };
  } else throw new ApiError(`Invalid ${setting}`);

  // A missing group is named by id only inside the object form, as the reference server does.
  const given = typeof value === 'number';
  value = normalize(value, nobody);
  const groupIds = typeof value === 'number' ? [value] : value.direct_subgroups;
  const groups = await findGroups(db, realmId, groupIds);
  for (const id of groupIds) {
    const g = groups.get(id);
    if (!g) throw new ApiError(given ? 'Invalid user group' : `Invalid user group ID: ${id}`);
    if (g.deactivated) throw new ApiError('User group is deactivated.');
  }
  if (typeof value !== 'number') {
    const users = await findUsers(db, realmId, value.direct_members);
    const active = new Set(users.filter((u) => u.isActive).map((u) => u.id));
    const bad = value.direct_members.find((id) => !active.has(id));
    if (bad !== undefined) throw new ApiError(`Invalid user ID: ${bad}`);
  }
  const refuse = (name: string) => new ApiError(`'${setting}' setting cannot be set to '${name}' group.`);
  if (typeof value === 'number') {
    const g = groups.get(value)!;
    if (g.isSystemGroup) {
      if (g.name === 'role:internet' && !meta.allow_internet_group) throw refuse(g.name);
      if (g.name === 'role:nobody' && !meta.allow_nobody_group) throw refuse(g.name);
      if (g.name === 'role:everyone' && !meta.allow_everyone_group) throw refuse(g.name);
      if (meta.allowed_system_groups.length && !meta.allowed_system_groups.includes(g.name)) throw refuse(g.name);
    } else if (meta.require_system_group) throw new ApiError(`'${setting}' must be a system user group.`, 'SYSTEM_GROUP_REQUIRED');
  } else if (meta.require_system_group) throw new ApiError(`'${setting}' must be a system user group.`, 'SYSTEM_GROUP_REQUIRED');
  return value;
}

// The update form: `old`, when given, must equal the current value.
export function isGroupSettingValue(v: unknown): v is GroupSettingValue {
  if (typeof v === 'number') return Number.isInteger(v);
  if (!v || typeof v !== 'object' || Array.isArray(v)) return false;
  const o = v as Record<string, unknown>;
  return [o.direct_members, o.direct_subgroups].every((list) => Array.isArray(list) && list.every(Number.isInteger));
}

export function checkExpected(setting: string, current: GroupSettingValue, old: unknown, nobody: number): void {
  if (old === undefined) return;
  if (!isGroupSettingValue(old)) throw new ApiError(`Invalid ${setting}`);
  const expected = old;
  if (!sameValue(current, expected, nobody)) {
    throw new ApiError(`'old' value does not match the expected value.`, 'EXPECTATION_MISMATCH', 400, { setting_name: setting });
  }
}
