// Choosing one active person by name (group members, channel subscribers).
import { useState } from 'react';
import { useServer } from '../../data/hooks';

export function PeoplePicker({ label, exclude, onPick, disabled }: { label: string; exclude: number[]; onPick(id: number): void; disabled?: boolean }) {
  const users = useServer((s) => s.users);
  const [pick, setPick] = useState('');
  if (disabled) return null;
  const candidates = [...users.values()].filter((u) => u.is_active && !exclude.includes(u.user_id)).sort((a, b) => a.full_name.localeCompare(b.full_name));
  return (
    <form className="settings-inline" onSubmit={(e) => { e.preventDefault(); if (pick) { onPick(Number(pick)); setPick(''); } }}>
      <select aria-label={label} value={pick} onChange={(e) => setPick(e.target.value)}>
        <option value="">{label}…</option>
        {candidates.map((u) => <option key={u.user_id} value={u.user_id}>{u.full_name}{u.is_bot ? ' (bot)' : ''}</option>)}
      </select>
      <button type="submit" className="button" disabled={!pick}>Add</button>
    </form>
  );
}
