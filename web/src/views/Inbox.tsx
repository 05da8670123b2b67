// Inbox: every conversation with unread messages, grouped by channel (direct messages first), with counts.
import { useServer } from '../data/hooks';
import { countsOf, conversationTitle, topicMuted } from '../data/selectors';
import { hashOf } from '../app/router';
import { markNarrowRead } from '../data/actions';
import type { UnreadConv } from '../data/unread';
import './views.css';

export default function Inbox() {
  const unread = useServer((s) => s.unread);
  const subs = useServer((s) => s.subs);
  const userTopics = useServer((s) => s.userTopics);
  const users = useServer((s) => s.users);
  const me = useServer((s) => s.me);
  const counts = useServer(countsOf);
  const dms = [...unread.convs.values()].filter((c): c is Extract<UnreadConv, { kind: 'dm' }> => c.kind === 'dm').sort((a, b) => b.ids[b.ids.length - 1] - a.ids[a.ids.length - 1]);
  const byChannel = new Map<number, Extract<UnreadConv, { kind: 'stream' }>[]>();
  for (const c of unread.convs.values()) {
    if (c.kind !== 'stream' || !subs.has(c.streamId) || topicMuted(subs, userTopics, c.streamId, c.topic)) continue;
    byChannel.set(c.streamId, [...(byChannel.get(c.streamId) ?? []), c]);
  }
  const channels = [...byChannel.entries()].sort((a, b) => subs.get(a[0])!.name.localeCompare(subs.get(b[0])!.name));
  return (
    <section className="list-view" aria-labelledby="view-title">
      <header className="view-header">
        <h1 className="view-title" id="view-title">Inbox</h1>
        <span className="view-description">{counts.total ? `${counts.total} unread` : 'All caught up'}</span>
        <span className="spacer" />
        {counts.total > 0 && <button type="button" className="button" onClick={() => void markNarrowRead([])}>Mark all as read</button>}
      </header>
      <div className="list-scroll">
        {counts.total === 0 && (
          <div className="empty-state">
            <h2>You have no unread messages</h2>
            <p>New messages in your channels and conversations show up here. <a href="#recent">See recent conversations</a>.</p>
          </div>
        )}
        {dms.length > 0 && (
          <div className="inbox-group">
            <h2 className="inbox-head">Direct messages <span className="badge mention">{counts.dmTotal}</span></h2>
            <ul>
              {dms.map((c) => (
                <li key={c.key}>
                  <a className="inbox-row" href={hashOf({ view: 'messages', terms: [{ operator: 'dm', operand: c.userIds }] })}>
                    <span className="name">{conversationTitle({ users, me }, c.userIds)}</span>
                    <span className="badge mention">{c.ids.length}</span>
                  </a>
                </li>
              ))}
            </ul>
          </div>
        )}
        {channels.map(([streamId, convs]) => {
          const sub = subs.get(streamId)!;
          return (
            <div className="inbox-group" key={streamId}>
              <h2 className="inbox-head">
                <span className="swatch" style={{ background: sub.color }} aria-hidden="true">#</span>
                <a href={hashOf({ view: 'messages', terms: [{ operator: 'channel', operand: streamId }] })}>{sub.name}</a>
                <span className="badge">{counts.streams.get(streamId) ?? 0}</span>
              </h2>
              <ul>
                {convs.sort((a, b) => b.ids[b.ids.length - 1] - a.ids[a.ids.length - 1]).map((c) => (
                  <li key={c.key}>
                    <a className="inbox-row" href={hashOf({ view: 'messages', terms: [{ operator: 'channel', operand: streamId }, { operator: 'topic', operand: c.topic }] })}>
                      <span className="name">{c.topic || <i>general chat</i>}</span>
                      {c.ids.some((id) => unread.mentions.has(id)) && <span className="badge mention">@</span>}
                      <span className="badge">{c.ids.length}</span>
                    </a>
                  </li>
                ))}
              </ul>
            </div>
          );
        })}
      </div>
    </section>
  );
}
