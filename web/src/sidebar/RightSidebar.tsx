// People of the organization with their presence: active first, then idle, then offline. Selecting one opens
// the direct-message conversation with them.
import { useEffect, useState } from 'react';
import { useServer, useUi } from '../data/hooks';
import { peopleList, presenceOf, type PresenceStatus } from '../data/selectors';
import { hashOf } from '../app/router';
import { setUi } from '../app/ui';
import { Avatar } from '../app/Avatar';

const ORDER: Record<PresenceStatus, number> = { active: 0, idle: 1, offline: 2 };
const LABEL: Record<PresenceStatus, string> = { active: 'Active', idle: 'Idle', offline: 'Offline' };

// Presence ages without events: re-judge it every half minute.
function useClock(ms: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(t);
  }, [ms]);
  return now;
}

// Shown after the first paint: the people list can be long, and the messages come first.
export function RightSidebar() {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const t = setTimeout(() => setReady(true), 0);
    return () => clearTimeout(t);
  }, []);
  return ready ? <People /> : <aside className="right-sidebar people" aria-label="People" />;
}

function People() {
  const people = useServer((s) => peopleList(s.users));
  const presence = useServer((s) => s.presence);
  const realm = useServer((s) => s.realm);
  const clockOffset = useServer((s) => s.clockOffset);
  const status = useServer((s) => s.userStatus);
  const me = useServer((s) => s.me.userId);
  const filter = useUi((u) => u.userFilter);
  const now = useClock(30_000) / 1000;
  const ctx = { presence, realm, clockOffset };
  const shown = people
    .filter((u) => !filter || u.full_name.toLowerCase().includes(filter.toLowerCase()))
    .map((u) => ({ u, p: u.user_id === me ? 'active' as PresenceStatus : presenceOf(ctx, u.user_id, now) }))
    .sort((a, b) => ORDER[a.p] - ORDER[b.p] || a.u.full_name.localeCompare(b.u.full_name));
  return (
    <aside className="right-sidebar people" aria-label="People">
      <h2 id="people-heading">People</h2>
      <div className="filter">
        <input
          id="user-filter" type="search" placeholder="Filter people (w)" aria-label="Filter people" value={filter}
          onChange={(e) => setUi({ userFilter: e.target.value })}
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              setUi({ userFilter: '' });
              (e.target as HTMLInputElement).blur();
            } else if (e.key === 'Enter' && shown[0]) location.hash = hashOf({ view: 'messages', terms: [{ operator: 'dm', operand: [shown[0].u.user_id] }] });
          }}
        />
      </div>
      <ul className="sidebar-list" aria-labelledby="people-heading">
        {shown.slice(0, 300).map(({ u, p }) => {
          const text = status.get(u.user_id)?.status_text;
          return (
            <li key={u.user_id}>
              <a className="row person" href={hashOf({ view: 'messages', terms: [{ operator: 'dm', operand: [u.user_id] }] })} title={`${u.full_name} (${LABEL[p]})`} data-user-id={u.user_id}>
                <span className={`presence ${p}`} role="img" aria-label={LABEL[p]} data-presence={p} />
                <Avatar userId={u.user_id} size={24} />
                <span className="name">
                  {u.full_name}
                  {u.user_id === me && <span className="status-text"> (you)</span>}
                  {text && <span className="status-text"> · {text}</span>}
                </span>
              </a>
            </li>
          );
        })}
      </ul>
    </aside>
  );
}
