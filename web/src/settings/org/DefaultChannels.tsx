// Default channels: those new members are subscribed to.
import { useState } from 'react';
import { useServer } from '../../data/hooks';
import { addDefaultChannel, removeDefaultChannel } from '../actions';
import { Section, Status, useRequest } from '../controls';

export default function DefaultChannels() {
  const ids = useServer((s) => s.defaultChannels);
  const channels = useServer((s) => s.channels);
  const [outcome, run] = useRequest();
  const [pick, setPick] = useState('');
  const others = [...channels.values()].filter((c) => !c.is_archived && !ids.includes(c.stream_id)).sort((a, b) => a.name.localeCompare(b.name));
  return (
    <>
      <Status outcome={outcome} />
      <Section title="Add a default channel">
        <form className="settings-inline" onSubmit={(e) => { e.preventDefault(); if (pick) void run(addDefaultChannel(Number(pick)), 'Added').then(() => setPick('')); }}>
          <select aria-label="Default channel to add" value={pick} onChange={(e) => setPick(e.target.value)}>
            <option value="">Choose a channel…</option>
            {others.map((c) => <option key={c.stream_id} value={c.stream_id}>#{c.name}</option>)}
          </select>
          <button type="submit" className="button primary" disabled={!pick}>Add</button>
        </form>
      </Section>
      <ul className="settings-list">
        {ids.map((id) => (
          <li key={id}><span>#{channels.get(id)?.name ?? id}</span><button type="button" className="button" onClick={() => void run(removeDefaultChannel(id), 'Removed')}>Remove</button></li>
        ))}
        {!ids.length && <li className="detail">No default channels.</li>}
      </ul>
    </>
  );
}
