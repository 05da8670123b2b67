// Recent conversations: topics and direct-message conversations by their newest message, with who took part and
// how many messages are unread.
import { useEffect, useMemo, useState } from 'react';
import type { Message } from '../api/types';
import { useServer } from '../data/hooks';
import { loadRecent } from '../data/fetch';
import { conversationKey, messageDmIds, topicKey } from '../data/narrow';
import { countsOf, conversationTitle, topicMuted } from '../data/selectors';
import { dmKey } from '../data/narrow';
import { memo } from '../data/store';
import { hashOf } from '../app/router';
import { relative, fullDate } from '../app/time';
import { Avatar } from '../app/Avatar';
import './views.css';

interface Conv {
  key: string;
  last: Message;
  senders: number[];
}

const conversations = memo((messages: Map<number, Message>, me: number): Conv[] => {
  const byKey = new Map<string, Conv>();
  for (const m of messages.values()) {
    const key = conversationKey(m, me);
    const c = byKey.get(key);
    if (!c) byKey.set(key, { key, last: m, senders: [m.sender_id] });
    else {
      if (m.id > c.last.id) c.last = m;
      if (!c.senders.includes(m.sender_id)) c.senders.push(m.sender_id);
    }
  }
  return [...byKey.values()].sort((a, b) => b.last.id - a.last.id);
});

export default function Recent() {
  const messages = useServer((s) => s.messages);
  const me = useServer((s) => s.me);
  const users = useServer((s) => s.users);
  const subs = useServer((s) => s.subs);
  const channels = useServer((s) => s.channels);
  const userTopics = useServer((s) => s.userTopics);
  const counts = useServer(countsOf);
  const twentyFour = useServer((s) => s.settings.twenty_four_hour_time);
  const [state, setState] = useState<'loading' | 'ready' | string>('loading');
  const [filter, setFilter] = useState<'all' | 'unread' | 'dm'>('all');
  useEffect(() => {
    loadRecent().then(() => setState('ready'), (e: Error) => setState(e.message));
  }, []);
  const all = conversations(messages, me.userId);
  const shown = useMemo(() => all.filter((c) => {
    const m = c.last;
    if (m.type === 'stream' && topicMuted(subs, userTopics, m.stream_id!, m.subject)) return false;
    if (filter === 'dm') return m.type === 'private';
    if (filter === 'unread') return m.type === 'stream' ? (counts.topics.get(topicKey(m.stream_id!, m.subject)) ?? 0) > 0 : (counts.dms.get(dmKey(messageDmIds(m, me.userId))) ?? 0) > 0;
    return true;
  }).slice(0, 200), [all, filter, subs, userTopics, counts, me.userId]);
  return (
    <section className="list-view" aria-labelledby="view-title">
      <header className="view-header">
        <h1 className="view-title" id="view-title">Recent conversations</h1>
        <span className="spacer" />
        <div className="segmented" role="radiogroup" aria-label="Show">
          {(['all', 'unread', 'dm'] as const).map((f) => (
            <button key={f} type="button" role="radio" aria-checked={filter === f} onClick={() => setFilter(f)}>{f === 'all' ? 'All' : f === 'unread' ? 'Unread' : 'Direct messages'}</button>
          ))}
        </div>
      </header>
      <div className="list-scroll">
        {state === 'loading' && !shown.length && <div className="empty-state">Loading…</div>}
        {state !== 'loading' && state !== 'ready' && <div className="empty-state" role="alert">Could not load: {state}</div>}
        {state === 'ready' && !shown.length && <div className="empty-state"><h2>No conversations yet</h2><p>Start one: press <kbd>c</kbd> for a new topic.</p></div>}
        {shown.length > 0 && (
          <table className="recent-table">
            <thead><tr><th>Channel</th><th>Topic</th><th>Unread</th><th>Participants</th><th>Last message</th></tr></thead>
            <tbody>
              {shown.map((c) => {
                const m = c.last;
                const isDm = m.type === 'private';
                const ids = isDm ? messageDmIds(m, me.userId) : [];
                const unread = isDm ? counts.dms.get(dmKey(ids)) ?? 0 : counts.topics.get(topicKey(m.stream_id!, m.subject)) ?? 0;
                const route = isDm
                  ? { view: 'messages' as const, terms: [{ operator: 'dm', operand: ids }] }
                  : { view: 'messages' as const, terms: [{ operator: 'channel', operand: m.stream_id! }, { operator: 'topic', operand: m.subject }] };
                const sub = !isDm ? subs.get(m.stream_id!) : undefined;
                return (
                  <tr key={c.key}>
                    <td>{isDm ? 'Direct message' : <a href={hashOf({ view: 'messages', terms: [{ operator: 'channel', operand: m.stream_id! }] })}><span className="swatch" style={{ background: sub?.color ?? '#9aa3ad' }} aria-hidden="true">#</span> {channels.get(m.stream_id!)?.name ?? String(m.display_recipient)}</a>}</td>
                    <td><a href={hashOf(route)}>{isDm ? conversationTitle({ users, me }, ids) : m.subject || 'general chat'}</a></td>
                    <td>{unread > 0 && <span className={`badge${isDm ? ' mention' : ''}`}>{unread}</span>}</td>
                    <td><span className="who">{c.senders.slice(0, 5).map((id) => <Avatar key={id} userId={id} size={20} />)}</span></td>
                    <td className="when" title={fullDate(m.timestamp, twentyFour)}>{relative(m.timestamp)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </div>
    </section>
  );
}
