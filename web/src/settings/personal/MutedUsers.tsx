// Muted users: their messages are hidden and they do not notify; mute more from here by name.
import { useState } from 'react';
import { useServer } from '../../data/hooks';
import { muteUser, unmuteUser } from '../actions';
import { Section, Status, useRequest } from '../controls';

export default function MutedUsers() {
  const muted = useServer((s) => s.mutedUsers);
  const users = useServer((s) => s.users);
  const me = useServer((s) => s.me.userId);
  const [outcome, run] = useRequest();
  const [pick, setPick] = useState('');
  const candidates = [...users.values()].filter((u) => u.is_active && u.user_id !== me && !muted.has(u.user_id)).sort((a, b) => a.full_name.localeCompare(b.full_name));
  return (
    <>
      <Status outcome={outcome} />
      <Section title="Mute someone">
        <form className="settings-inline" onSubmit={(e) => { e.preventDefault(); if (pick) void run(muteUser(Number(pick)), 'Muted').then(() => setPick('')); }}>
          <select aria-label="Person to mute" value={pick} onChange={(e) => setPick(e.target.value)}>
            <option value="">Choose a person…</option>
            {candidates.map((u) => <option key={u.user_id} value={u.user_id}>{u.full_name}</option>)}
          </select>
          <button type="submit" className="button" disabled={!pick}>Mute</button>
        </form>
      </Section>
      <ul className="settings-list">
        {[...muted].map(([id, since]) => (
          <li key={id}>
            <span>{users.get(id)?.full_name ?? `User ${id}`} <span className="detail">since {new Date(since * 1000).toLocaleDateString()}</span></span>
            <button type="button" className="button" onClick={() => void run(unmuteUser(id), 'Unmuted')}>Unmute</button>
          </li>
        ))}
        {!muted.size && <li className="detail">You have not muted anyone.</li>}
      </ul>
    </>
  );
}
