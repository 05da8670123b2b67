// User groups: create one; open one to change its name and description, members, subgroups and permissions,
// or deactivate it. Each control shows only to those the group's own settings (or the organization's) allow.
import { useState } from 'react';
import { useServer, useUi } from '../../data/hooks';
import type { GroupSettingValue, UserGroup } from '../../api/types';
import { canDo, inGroupSetting } from '../../data/org';
import type { State } from '../../data/state';
import { createGroup, deactivateGroup, setGroupMembers, setSubgroups, updateGroup } from '../actions';
import { Confirm, GroupPicker, Section, Status, TextSetting, useRequest } from '../controls';
import { PeoplePicker } from './PeoplePicker';

const GROUP_LABELS: Record<string, string> = {
  can_manage_group: 'Who can manage this group', can_add_members_group: 'Who can add members', can_remove_members_group: 'Who can remove members',
  can_join_group: 'Who can join', can_leave_group: 'Who can leave', can_mention_group: 'Who can mention this group',
};

const may = (s: State, g: UserGroup, setting: string) => !g.is_system_group && !g.deactivated && (canDo(s, 'can_manage_all_groups') || inGroupSetting(s.groups, g.can_manage_group as GroupSettingValue, s.me.userId) || (setting !== 'can_manage_group' && inGroupSetting(s.groups, g[setting] as GroupSettingValue, s.me.userId)));

function GroupDetail({ group }: { group: UserGroup }) {
  const s = useServer((st) => st);
  const [outcome, run] = useRequest();
  const [subgroup, setSubgroup] = useState('');
  const manage = may(s, group, 'can_manage_group');
  const userName = (id: number) => s.users.get(id)?.full_name ?? `User ${id}`;
  const others = [...s.groups.values()].filter((g) => g.id !== group.id && !g.deactivated && !g.is_system_group && !group.direct_subgroup_ids.includes(g.id));
  return (
    <>
      <p><a href="#organization/user-groups">← All groups</a></p>
      <Status outcome={outcome} />
      <Section title={group.name}>
        <TextSetting id="group-name" label="Name" value={group.name} disabled={!manage} maxLength={100} onSave={(v) => void run(updateGroup(group.id, { name: v }))} />
        <TextSetting id="group-description" label="Description" value={group.description} disabled={!manage} onSave={(v) => void run(updateGroup(group.id, { description: v }))} />
      </Section>
      <Section title={`Members (${group.members.length})`}>
        <PeoplePicker label="Add a member" exclude={group.members} disabled={!may(s, group, 'can_add_members_group')} onPick={(id) => void run(setGroupMembers(group.id, [id], []), 'Member added')} />
        <ul className="settings-list members">
          {group.members.map((id) => (
            <li key={id}><span>{userName(id)}</span>{may(s, group, 'can_remove_members_group') && <button type="button" className="button" onClick={() => void run(setGroupMembers(group.id, [], [id]), 'Member removed')}>Remove</button>}</li>
          ))}
        </ul>
      </Section>
      <Section title="Subgroups">
        {manage && (
          <form className="settings-inline" onSubmit={(e) => { e.preventDefault(); if (subgroup) void run(setSubgroups(group.id, [Number(subgroup)], []), 'Subgroup added').then(() => setSubgroup('')); }}>
            <select aria-label="Subgroup to add" value={subgroup} onChange={(e) => setSubgroup(e.target.value)}>
              <option value="">Choose a group…</option>
              {others.map((g) => <option key={g.id} value={g.id}>{g.name}</option>)}
            </select>
            <button type="submit" className="button" disabled={!subgroup}>Add subgroup</button>
          </form>
        )}
        <ul className="settings-list">
          {group.direct_subgroup_ids.map((id) => (
            <li key={id}><span>{s.groups.get(id)?.name ?? id}</span>{manage && <button type="button" className="button" onClick={() => void run(setSubgroups(group.id, [], [id]), 'Subgroup removed')}>Remove</button>}</li>
          ))}
          {!group.direct_subgroup_ids.length && <li className="detail">No subgroups.</li>}
        </ul>
      </Section>
      <Section title="Permissions">
        {Object.keys(s.permissionSettings.group).filter((k) => k in group).map((k) => (
          <GroupPicker key={k} id={`group-${k}`} label={GROUP_LABELS[k] ?? k.replace(/_/g, ' ')} value={group[k] as GroupSettingValue} groups={s.groups} info={s.permissionSettings.group[k]}
            disabled={!manage} userName={userName} onChange={(v) => run(updateGroup(group.id, { [k]: { new: v, old: group[k] } }))} />
        ))}
      </Section>
      {manage && <Confirm label="Deactivate this group?" onConfirm={() => void run(deactivateGroup(group.id), 'Group deactivated')}>Deactivate group</Confirm>}
    </>
  );
}

export default function Groups() {
  const groups = useServer((s) => s.groups);
  const mayCreate = useServer((s) => canDo(s, 'can_create_groups'));
  const me = useServer((s) => s.me.userId);
  const detail = useUi((u) => u.settings?.detail);
  const [outcome, run] = useRequest();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const open = detail ? groups.get(Number(detail)) : undefined;
  if (open) return <GroupDetail group={open} />;
  const list = [...groups.values()].filter((g) => !g.is_system_group && !g.deactivated).sort((a, b) => a.name.localeCompare(b.name));
  return (
    <>
      <Status outcome={outcome} />
      {mayCreate && (
        <Section title="Create a group">
          <form className="settings-form" onSubmit={(e) => {
            e.preventDefault();
            void run(createGroup(name.trim(), description.trim(), [me]), 'Group created').then((ok) => ok !== undefined && (setName(''), setDescription('')));
          }}>
            <label htmlFor="new-group-name">Name</label>
            <input id="new-group-name" value={name} maxLength={100} onChange={(e) => setName(e.target.value)} required />
            <label htmlFor="new-group-description">Description</label>
            <input id="new-group-description" value={description} onChange={(e) => setDescription(e.target.value)} />
            <div><button type="submit" className="button primary" disabled={!name.trim()}>Create group</button></div>
          </form>
        </Section>
      )}
      <ul className="settings-list groups">
        {list.map((g) => (
          <li key={g.id}>
            <a href={`#organization/user-groups/${g.id}`}>{g.name}</a>
            <span className="detail">{g.description} · {g.members.length} {g.members.length === 1 ? 'member' : 'members'}</span>
          </li>
        ))}
        {!list.length && <li className="detail">No groups yet.</li>}
      </ul>
    </>
  );
}
