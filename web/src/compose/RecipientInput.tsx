// The people a direct message goes to: chips, and a field that suggests people by name or e-mail.
import { useState } from 'react';
import { useServer } from '../data/hooks';
import { peopleList } from '../data/selectors';
import { Avatar } from '../app/Avatar';
import { rank } from './autocomplete';
import { composeRefs, mountField } from './open';

export function RecipientInput({ userIds, onChange }: { userIds: number[]; onChange(ids: number[]): void }) {
  const people = useServer((s) => peopleList(s.users));
  const users = useServer((s) => s.users);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const candidates = query ? rank(people.filter((u) => !userIds.includes(u.user_id)), query, (u) => `${u.full_name} ${u.email}`, 6) : [];
  const add = (id: number) => {
    onChange([...userIds, id].sort((a, b) => a - b));
    setQuery('');
    setActive(0);
  };
  return (
    <div className="recipient-input" role="group" aria-label="Recipients">
      {userIds.map((id) => (
        <span className="chip" key={id}>
          <Avatar userId={id} size={20} />
          {users.get(id)?.full_name ?? 'Unknown user'}
          <button type="button" aria-label={`Remove ${users.get(id)?.full_name ?? 'recipient'}`} onClick={() => onChange(userIds.filter((x) => x !== id))}>×</button>
        </span>
      ))}
      <div className="chip-input">
        <input
          ref={(el) => mountField('to', el)}
          type="text" value={query} placeholder={userIds.length ? 'Add another person' : 'Send to… (name or e-mail)'} aria-label="Add a recipient"
          role="combobox" aria-expanded={candidates.length > 0} aria-controls="recipient-suggestions" aria-autocomplete="list"
          aria-activedescendant={candidates[active] ? `recipient-${candidates[active].user_id}` : undefined}
          onChange={(e) => { setQuery(e.target.value); setActive(0); }}
          onKeyDown={(e) => {
            if ((e.key === 'Enter' || e.key === 'Tab' || e.key === ',') && candidates[active]) {
              e.preventDefault();
              add(candidates[active].user_id);
            } else if (e.key === 'ArrowDown' && candidates.length) {
              e.preventDefault();
              setActive((a) => (a + 1) % candidates.length);
            } else if (e.key === 'ArrowUp' && candidates.length) {
              e.preventDefault();
              setActive((a) => (a - 1 + candidates.length) % candidates.length);
            } else if (e.key === 'Backspace' && !query && userIds.length) onChange(userIds.slice(0, -1));
            else if (e.key === 'Enter' && !query && userIds.length) {
              e.preventDefault();
              composeRefs.textarea?.focus();
            }
          }}
        />
        {candidates.length > 0 && (
          <ul className="suggestions" id="recipient-suggestions" role="listbox">
            {candidates.map((u, i) => (
              <li key={u.user_id} id={`recipient-${u.user_id}`} role="option" aria-selected={i === active} className={i === active ? 'active' : undefined}
                onMouseDown={(e) => { e.preventDefault(); add(u.user_id); }}>
                <Avatar userId={u.user_id} size={20} /> {u.full_name} <span className="detail">{u.email}</span>
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
