// Group-setting values (§2.1): a group id, or {direct_members, direct_subgroups}. A user holds the
// permission when they belong to the group (directly or through subgroups) or are one of the direct members.
export type GroupSettingValue = number | { direct_members: number[]; direct_subgroups: number[] };

export function resolveGroupSetting(value: unknown, systemGroups: Map<string, number>): GroupSettingValue {
  if (typeof value === 'string') {
    const id = systemGroups.get(value);
    if (id === undefined) throw new Error(`unknown system group ${value}`);
    return id;
  }
  return value as GroupSettingValue;
}

export function holdsGroupSetting(value: GroupSettingValue, userId: number, userGroups: Set<number>): boolean {
  if (typeof value === 'number') return userGroups.has(value);
  return value.direct_members.includes(userId) || value.direct_subgroups.some((g) => userGroups.has(g));
}
