// The organization's people: search; administrators change roles and deactivate or reactivate accounts (only
// owners touch owners). Bots are listed with their owners.
import { useState } from 'react';
import { useServer } from '../../data/hooks';
import type { User } from '../../api/types';
import { ROLE } from '../../data/org';
import { ROLE_NAMES } from '../labels';
import { deactivateBot, deactivateUser, reactivateUser, setRole } from '../actions';
import { Confirm, Select, Status, useRequest } from '../controls';

type Tab = 'active' | 'deactivated' | 'bots';

const roleOf = (u: User) => u.role ?? (u.is_owner ? ROLE.owner : u.is_admin ? ROLE.admin : u.is_guest ? ROLE.guest : ROLE.member);

export default function Users() {
  const users = useServer((s) => s.users);
  const me = useServer((s) => s.me);
  const [outcome, run] = useRequest();
  const [tab, setTab] = useState<Tab>('active');
  const [query, setQuery] = useState('');
  const q = query.trim().toLowerCase();
  const list = [...users.values()]
    // The server's own bots (cross-realm) are nobody's to manage.
    .filter((u) => !(u as { is_system_bot?: boolean }).is_system_bot)
    .filter((u) => (tab === 'bots' ? u.is_bot : !u.is_bot && (tab === 'active' ? u.is_active : !u.is_active)))
    .filter((u) => !q || u.full_name.toLowerCase().includes(q) || (u.delivery_email ?? u.email).toLowerCase().includes(q))
    .sort((a, b) => a.full_name.localeCompare(b.full_name));
  const roles = Object.entries(ROLE_NAMES).map(([k, v]): [number, string] => [Number(k), v]).filter(([k]) => me.isOwner || k !== ROLE.owner);
  const mayManage = (u: User) => me.isAdmin && u.user_id !== me.userId && (me.isOwner || roleOf(u) !== ROLE.owner);
  return (
    <>
      <Status outcome={outcome} />
      <div className="settings-toolbar">
        <div className="segmented" role="tablist" aria-label="Which users">
          {(['active', 'deactivated', 'bots'] as Tab[]).map((t) => (
            <button key={t} type="button" role="tab" aria-selected={tab === t} className={tab === t ? 'selected' : ''} onClick={() => setTab(t)}>
              {{ active: 'Active', deactivated: 'Deactivated', bots: 'Bots' }[t]}
            </button>
          ))}
        </div>
        <input type="search" aria-label="Search people" placeholder="Search by name or e-mail" value={query} onChange={(e) => setQuery(e.target.value)} />
      </div>
      <table className="settings-table users-table">
        <thead><tr><th scope="col">Name</th><th scope="col">E-mail</th><th scope="col">Role</th><th /></tr></thead>
        <tbody>
          {list.map((u) => (
            <tr key={u.user_id} data-user-id={u.user_id}>
              <td>{u.full_name}</td>
              <td className="detail">{u.delivery_email ?? u.email}</td>
              <td>
                {mayManage(u) && u.is_active && !u.is_bot ? (
                  <Select label={`Role of ${u.full_name}`} value={roleOf(u)} options={roles} onChange={(role) => run(setRole(u.user_id, role), 'Role changed')} />
                ) : ROLE_NAMES[roleOf(u)] ?? ''}
              </td>
              <td>
                {mayManage(u) && (u.is_active
                  ? <Confirm label={`Deactivate ${u.full_name}?`} onConfirm={() => void run(u.is_bot ? deactivateBot(u.user_id) : deactivateUser(u.user_id), 'Deactivated')}>Deactivate</Confirm>
                  : <button type="button" className="button" onClick={() => void run(reactivateUser(u.user_id), 'Reactivated')}>Reactivate</button>)}
              </td>
            </tr>
          ))}
          {!list.length && <tr><td colSpan={4} className="detail">Nobody matches.</td></tr>}
        </tbody>
      </table>
    </>
  );
}
