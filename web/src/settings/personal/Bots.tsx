// Your bots: create one (generic, incoming webhook), see its key and make a new one, deactivate it.
import { useState } from 'react';
import { useServer } from '../../data/hooks';
import { canDo } from '../../data/org';
import { createBot, deactivateBot, reactivateUser, regenerateBotKey } from '../actions';
import { Confirm, Section, Status, useRequest } from '../controls';

const TYPES: Record<number, string> = { 1: 'Generic', 2: 'Incoming webhook', 3: 'Outgoing webhook', 4: 'Embedded' };

export default function Bots() {
  const me = useServer((s) => s.me);
  const bots = useServer((s) => s.bots);
  const mayCreate = useServer((s) => canDo(s, 'can_create_bots_group'));
  const mayCreateWriteOnly = useServer((s) => canDo(s, 'can_create_write_only_bots_group') || canDo(s, 'can_create_bots_group'));
  const [outcome, run] = useRequest();
  const [name, setName] = useState('');
  const [short, setShort] = useState('');
  const [type, setType] = useState(mayCreate ? 1 : 2);
  const [shown, setShown] = useState<Set<number>>(new Set());
  const mine = [...bots.values()].filter((b) => me.isAdmin ? true : b.owner_id === me.userId).sort((a, b) => a.full_name.localeCompare(b.full_name));
  const types = Object.entries(TYPES).map(([k, v]): [number, string] => [Number(k), v]).filter(([k]) => (k === 2 ? mayCreateWriteOnly : k === 1 ? mayCreate : false));
  return (
    <>
      <Status outcome={outcome} />
      {types.length > 0 && (
        <Section title="Add a bot">
          <form className="settings-form" onSubmit={(e) => {
            e.preventDefault();
            void run(createBot(name.trim(), short.trim(), type), 'Bot created').then((ok) => ok !== undefined && (setName(''), setShort('')));
          }}>
            <label htmlFor="bot-type">Type</label>
            <select id="bot-type" value={type} onChange={(e) => setType(Number(e.target.value))}>
              {types.map(([k, v]) => <option key={k} value={k}>{v}</option>)}
            </select>
            <label htmlFor="bot-name">Name</label>
            <input id="bot-name" value={name} maxLength={100} onChange={(e) => setName(e.target.value)} required />
            <label htmlFor="bot-short-name">Bot e-mail (the part before -bot@)</label>
            <input id="bot-short-name" value={short} maxLength={40} onChange={(e) => setShort(e.target.value)} required />
            <div><button type="submit" className="button primary" disabled={!name.trim() || !short.trim()}>Create bot</button></div>
          </form>
        </Section>
      )}
      <ul className="settings-list bots">
        {mine.map((b) => (
          <li key={b.user_id} className={b.is_active ? '' : 'inactive'}>
            <div className="settings-stack">
              <strong>{b.full_name}</strong>
              <span className="detail">{b.email} · {TYPES[b.bot_type ?? 1] ?? 'Bot'}{b.is_active ? '' : ' · deactivated'}</span>
              {b.api_key && shown.has(b.user_id) && <code className="api-key">{b.api_key}</code>}
            </div>
            <div className="settings-actions">
              {b.api_key && <button type="button" className="button" onClick={() => setShown(new Set(shown.has(b.user_id) ? [...shown].filter((x) => x !== b.user_id) : [...shown, b.user_id]))}>{shown.has(b.user_id) ? 'Hide key' : 'Show key'}</button>}
              {b.api_key && b.is_active && <Confirm label="Make a new key (the old one stops working)?" danger={false} onConfirm={() => void run(regenerateBotKey(b.user_id), 'New key made').then(() => setShown(new Set([...shown, b.user_id])))}>New key</Confirm>}
              {b.is_active
                ? <Confirm label="Deactivate this bot?" onConfirm={() => void run(deactivateBot(b.user_id), 'Bot deactivated')}>Deactivate</Confirm>
                : <button type="button" className="button" onClick={() => void run(reactivateUser(b.user_id), 'Bot reactivated')}>Reactivate</button>}
            </div>
          </li>
        ))}
        {!mine.length && <li className="detail">You have no bots.</li>}
      </ul>
    </>
  );
}
