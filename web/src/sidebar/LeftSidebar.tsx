// Views, channels (with the topics of the one being read) and direct-message conversations, with their unread
// counts. Muted channels and topics are shown dimmed and not counted.
import { useEffect } from 'react';
import { loadTopics } from '../data/actions';
import { useServer, useUi } from '../data/hooks';
import { channelOf, dmOf, topicKey, topicOf } from '../data/narrow';
import { countsOf, conversationTitle, dmConversations, sortedSubs, topicMuted } from '../data/selectors';
import type { Route } from '../router/hash';
import { hashOf } from '../app/router';
import { setUi } from '../app/ui';
import { Avatar } from '../app/Avatar';
import { Icon } from '../app/icons';
import './sidebar.css';

const VIEWS: { route: Route; label: string; icon: string; count?: 'total' | 'mentions' | 'starred' | 'drafts' | 'scheduled' }[] = [
  { route: { view: 'inbox' }, label: 'Inbox', icon: 'inbox', count: 'total' },
  { route: { view: 'recent' }, label: 'Recent conversations', icon: 'clock' },
  { route: { view: 'messages', terms: [] }, label: 'Combined feed', icon: 'feed', count: 'total' },
  { route: { view: 'messages', terms: [{ operator: 'is', operand: 'mentioned' }] }, label: 'Mentions', icon: 'at', count: 'mentions' },
  { route: { view: 'messages', terms: [{ operator: 'is', operand: 'starred' }] }, label: 'Starred messages', icon: 'star', count: 'starred' },
  { route: { view: 'drafts' }, label: 'Drafts', icon: 'pencil', count: 'drafts' },
  { route: { view: 'scheduled' }, label: 'Scheduled messages', icon: 'calendar', count: 'scheduled' },
];

const sameView = (a: Route, b: Route) => hashOf(a) === hashOf(b);

function Count({ n, mention, muted }: { n: number; mention?: boolean; muted?: boolean }) {
  if (!n) return null;
  return <span className={`badge${mention ? ' mention' : ''}${muted ? ' muted' : ''}`} aria-label={`${n} unread`}>{n}</span>;
}

function Views({ route }: { route: Route }) {
  const counts = useServer(countsOf);
  const starred = useServer((s) => (s.settings.starred_message_counts ? s.starred.size : 0));
  const drafts = useServer((s) => s.drafts.size);
  const scheduled = useServer((s) => s.scheduled.size);
  const value = { total: counts.total, mentions: counts.mentions, starred, drafts, scheduled };
  return (
    <ul className="sidebar-list views">
      {VIEWS.map((v) => (
        <li key={v.label}>
          <a href={hashOf(v.route)} className={`row${sameView(v.route, route) ? ' current' : ''}`} aria-current={sameView(v.route, route) ? 'page' : undefined}>
            <span className="icon"><Icon name={v.icon} /></span>
            <span className="name">{v.label}</span>
            {v.count && <Count n={value[v.count]} mention={v.count === 'mentions'} muted={v.count === 'drafts' || v.count === 'starred' || v.count === 'scheduled'} />}
          </a>
        </li>
      ))}
    </ul>
  );
}

function Topics({ streamId, currentTopic }: { streamId: number; currentTopic?: string }) {
  const topics = useServer((s) => s.topics.get(streamId));
  const counts = useServer(countsOf);
  const subs = useServer((s) => s.subs);
  const userTopics = useServer((s) => s.userTopics);
  useEffect(() => {
    if (!topics) void loadTopics(streamId).catch(() => {});
  }, [streamId, topics]);
  if (!topics) return <div className="topics loading">Loading topics…</div>;
  // Recent topics, and any with unread messages or being read.
  const shown = topics.filter((t, i) => i < 8 || counts.topics.get(topicKey(streamId, t.name)) || t.name.toLowerCase() === currentTopic?.toLowerCase());
  return (
    <ul className="topics">
      {shown.map((t) => {
        const muted = topicMuted(subs, userTopics, streamId, t.name);
        const current = t.name.toLowerCase() === currentTopic?.toLowerCase();
        const route: Route = { view: 'messages', terms: [{ operator: 'channel', operand: streamId }, { operator: 'topic', operand: t.name }] };
        return (
          <li key={t.name}>
            <a href={hashOf(route)} className={`row topic${current ? ' current' : ''}${muted ? ' muted' : ''}`} aria-current={current ? 'page' : undefined}>
              <span className="name">{t.name || <i>general chat</i>}</span>
              <Count n={counts.topics.get(topicKey(streamId, t.name)) ?? 0} muted={muted} />
            </a>
          </li>
        );
      })}
      {topics.length === 0 && <li className="topics-empty">No topics yet</li>}
    </ul>
  );
}

function Channels({ route }: { route: Route }) {
  const subs = useServer((s) => sortedSubs(s.subs));
  const counts = useServer(countsOf);
  const filter = useUi((u) => u.channelFilter);
  const terms = route.view === 'messages' ? route.terms : [];
  const current = channelOf(terms);
  const currentTopic = topicOf(terms);
  const shown = filter ? subs.filter((s) => s.name.toLowerCase().includes(filter.toLowerCase())) : subs;
  return (
    <section aria-labelledby="channels-heading">
      <div className="section-head">
        <h2 id="channels-heading">Channels</h2>
        <button type="button" className="icon-button" title="Browse channels" aria-label="Browse channels" onClick={() => setUi({ overlay: { kind: 'channels' } })}><Icon name="plus" /></button>
      </div>
      <div className="filter">
        <input
          id="channel-filter" type="search" placeholder="Filter channels (q)" aria-label="Filter channels" value={filter}
          onChange={(e) => setUi({ channelFilter: e.target.value })}
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              setUi({ channelFilter: '' });
              (e.target as HTMLInputElement).blur();
            } else if (e.key === 'Enter' && shown[0]) location.hash = hashOf({ view: 'messages', terms: [{ operator: 'channel', operand: shown[0].stream_id }] });
          }}
        />
      </div>
      <ul className="sidebar-list">
        {shown.map((s) => {
          const route: Route = { view: 'messages', terms: [{ operator: 'channel', operand: s.stream_id }] };
          const isCurrent = current === s.stream_id;
          return (
            <li key={s.stream_id}>
              <a href={hashOf(route)} className={`row channel${isCurrent && !currentTopic ? ' current' : ''}${s.is_muted ? ' muted' : ''}`} aria-current={isCurrent && !currentTopic ? 'page' : undefined}>
                <span className="swatch" style={{ background: s.color }} aria-hidden="true">{s.invite_only ? <Icon name="lock" size={11} /> : '#'}</span>
                <span className="name">{s.name}</span>
                {counts.streamMentions.get(s.stream_id) ? <span className="badge mention" title="Mentions">@</span> : null}
                <Count n={counts.streams.get(s.stream_id) ?? 0} muted={s.is_muted} />
              </a>
              {isCurrent && <Topics streamId={s.stream_id} currentTopic={currentTopic} />}
            </li>
          );
        })}
        {subs.length === 0 && (
          <li className="hint">
            You are not subscribed to any channel. <button type="button" className="link-button" onClick={() => setUi({ overlay: { kind: 'channels' } })}>Browse channels</button>
          </li>
        )}
      </ul>
    </section>
  );
}

function DirectMessages({ route }: { route: Route }) {
  const convs = useServer((s) => dmConversations(s.recentDms, s.unread));
  const counts = useServer(countsOf);
  const users = useServer((s) => s.users);
  const me = useServer((s) => s.me);
  const current = route.view === 'messages' ? dmOf(route.terms)?.join(',') : undefined;
  return (
    <section aria-labelledby="dm-heading">
      <div className="section-head">
        <h2 id="dm-heading">Direct messages</h2>
      </div>
      <ul className="sidebar-list">
        {convs.slice(0, 20).map((c) => {
          const route: Route = { view: 'messages', terms: [{ operator: 'dm', operand: c.userIds }] };
          return (
            <li key={c.key}>
              <a href={hashOf(route)} className={`row dm${current === c.key ? ' current' : ''}`} aria-current={current === c.key ? 'page' : undefined}>
                {c.userIds.length === 1 ? <Avatar userId={c.userIds[0]} size={20} /> : <span className="group-icon" aria-hidden="true">{c.userIds.length}</span>}
                <span className="name">{conversationTitle({ users, me }, c.userIds)}</span>
                <Count n={counts.dms.get(c.key) ?? 0} mention />
              </a>
            </li>
          );
        })}
        {convs.length === 0 && <li className="hint">No direct messages yet. Press <kbd>x</kbd> to write one.</li>}
      </ul>
    </section>
  );
}

export function LeftSidebar() {
  const route = useUi((u) => u.route);
  const open = useUi((u) => u.leftOpen);
  return (
    <nav className={`left-sidebar${open ? ' open' : ''}`} aria-label="Views, channels and conversations">
      <Views route={route} />
      <Channels route={route} />
      <DirectMessages route={route} />
    </nav>
  );
}
