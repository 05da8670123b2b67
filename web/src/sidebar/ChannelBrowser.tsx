// Every channel one may join: filter by name, subscribe or unsubscribe, open it.
import { useEffect, useRef, useState } from 'react';
import { createChannel, subscribe, unsubscribe } from '../data/actions';
import { useServer } from '../data/hooks';
import { hashOf } from '../app/router';
import { server } from '../data/session';
import { Icon } from '../app/icons';

export default function ChannelBrowser({ onClose }: { onClose(): void }) {
  const channels = useServer((s) => s.channels);
  const subs = useServer((s) => s.subs);
  const [filter, setFilter] = useState('');
  const [error, setError] = useState('');
  const [creating, setCreating] = useState(false);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [inviteOnly, setInviteOnly] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);
  const list = [...channels.values()].filter((c) => !c.is_archived && c.name.toLowerCase().includes(filter.toLowerCase())).sort((a, b) => a.name.localeCompare(b.name));
  const act = (p: Promise<unknown>) => p.catch((e: Error) => setError(e.message));
  return (
    <div className="modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div className="modal channel-browser" role="dialog" aria-modal="true" aria-labelledby="channels-title" onKeyDown={(e) => e.key === 'Escape' && onClose()}>
        <h2 id="channels-title">Channels</h2>
        {creating ? (
          <form className="create-channel" onSubmit={(e) => {
            e.preventDefault();
            const wanted = name.trim();
            void createChannel(wanted, description.trim(), inviteOnly).then(async () => {
              // Its subscription event follows the answer: open the channel once the app knows it.
              for (let i = 0; i < 40; i++) {
                const made = [...(server.get()?.subs.values() ?? [])].find((c) => c.name.toLowerCase() === wanted.toLowerCase());
                if (made) {
                  location.hash = hashOf({ view: 'messages', terms: [{ operator: 'channel', operand: made.stream_id }] });
                  break;
                }
                await new Promise((r) => setTimeout(r, 50));
              }
              onClose();
            }, (err: Error) => setError(err.message));
          }}>
            <label htmlFor="new-channel-name">Name</label>
            <input id="new-channel-name" type="text" required maxLength={60} value={name} onChange={(e) => setName(e.target.value)} autoFocus />
            <label htmlFor="new-channel-description">Description</label>
            <input id="new-channel-description" type="text" maxLength={1024} value={description} onChange={(e) => setDescription(e.target.value)} />
            <label className="checkbox"><input type="checkbox" checked={inviteOnly} onChange={(e) => setInviteOnly(e.target.checked)} /> Private: only people invited can see it</label>
            <div className="actions">
              <button type="button" className="button" onClick={() => setCreating(false)}>Cancel</button>
              <button type="submit" className="button primary" disabled={!name.trim()}>Create channel</button>
            </div>
          </form>
        ) : (
          <p><button type="button" className="button primary" onClick={() => setCreating(true)}>Create a channel</button></p>
        )}
        <input ref={input} type="search" placeholder="Filter channels" aria-label="Filter channels" value={filter} onChange={(e) => setFilter(e.target.value)} className="wide-input" />
        {error && <p className="error-text" role="alert">{error}</p>}
        <ul className="channel-list">
          {list.map((c) => {
            const subscribed = subs.has(c.stream_id);
            return (
              <li key={c.stream_id}>
                <div className="channel-info">
                  <a href={hashOf({ view: 'messages', terms: [{ operator: 'channel', operand: c.stream_id }] })} onClick={onClose}>{c.invite_only ? <Icon name="lock" size={11} /> : '#'} {c.name}</a>
                  {c.description && <span className="detail">{c.description}</span>}
                </div>
                {c.subscriber_count !== undefined && <span className="detail">{c.subscriber_count} {c.subscriber_count === 1 ? 'subscriber' : 'subscribers'}</span>}
                <button type="button" className={`button${subscribed ? '' : ' primary'}`} onClick={() => void act(subscribed ? unsubscribe([c.name]) : subscribe([c.name]))}>
                  {subscribed ? 'Unsubscribe' : 'Subscribe'}
                </button>
              </li>
            );
          })}
          {!list.length && <li className="detail">No channel matches.</li>}
        </ul>
        <div className="actions"><button type="button" className="button" onClick={onClose}>Close</button></div>
      </div>
    </div>
  );
}
