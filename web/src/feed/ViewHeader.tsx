// The bar above a message view: what is being read, and what can be done to all of it (mark read, mute or
// follow the topic, subscribe to the channel).
import { markNarrowRead, setTopicVisibility, subscribe } from '../data/actions';
import { useServer } from '../data/hooks';
import { channelOf, dmOf, topicKey, topicOf, type Term } from '../data/narrow';
import { conversationTitle, countsOf, type UnreadCounts } from '../data/selectors';
import { hashOf } from '../app/router';
import { Icon } from '../app/icons';

export function useViewTitle(terms: Term[]): string {
  const channels = useServer((s) => s.channels);
  const users = useServer((s) => s.users);
  const me = useServer((s) => s.me);
  return viewTitle(terms, (id) => channels.get(id)?.name, (ids) => conversationTitle({ users, me }, ids), (id) => users.get(id)?.full_name);
}

export function viewTitle(terms: Term[], channelName: (id: number) => string | undefined, dmTitle: (ids: number[]) => string, userName: (id: number) => string | undefined): string {
  if (!terms.length) return 'Combined feed';
  const channel = channelOf(terms);
  const topic = topicOf(terms);
  const dm = dmOf(terms);
  const only = terms.length === 1 ? terms[0] : undefined;
  if (only?.operator === 'is') return ({ starred: 'Starred messages', mentioned: 'Mentions', dm: 'Direct messages', unread: 'Unread messages', resolved: 'Resolved topics' } as Record<string, string>)[String(only.operand)] ?? `is:${only.operand}`;
  if (channel !== undefined && terms.length <= 2) return `#${channelName(channel) ?? 'unknown channel'}${topic !== undefined ? ` › ${topic}` : ''}`;
  if (dm && terms.length === 1) return dmTitle(dm);
  if (only?.operator === 'sender') return `Messages from ${userName(Number(only.operand)) ?? 'unknown user'}`;
  const search = terms.find((t) => t.operator === 'search');
  if (search && terms.length === 1) return `Search: ${search.operand}`;
  return terms.map((t) => `${t.negated ? '-' : ''}${t.operator}:${t.operator === 'channel' ? channelName(Number(t.operand)) ?? t.operand : t.operand}`).join(' ');
}

// Unread messages in the view, when the counts tell (undefined for searches and the like).
export function unreadInView(terms: Term[], c: UnreadCounts): number | undefined {
  const channel = channelOf(terms);
  const topic = topicOf(terms);
  const dm = dmOf(terms);
  if (!terms.length) return c.total;
  if (channel !== undefined && topic !== undefined && terms.length === 2) return c.topics.get(topicKey(channel, topic)) ?? 0;
  if (channel !== undefined && terms.length === 1) return c.streams.get(channel) ?? 0;
  if (dm && terms.length === 1) return c.dms.get(dm.join(',')) ?? 0;
  if (terms.length === 1 && terms[0].operator === 'is' && terms[0].operand === 'dm') return c.dmTotal;
  if (terms.length === 1 && terms[0].operator === 'is' && terms[0].operand === 'mentioned') return c.mentions;
  return undefined;
}

const POLICIES: [number, string][] = [[0, 'Topic: default'], [1, 'Topic: muted'], [2, 'Topic: unmuted'], [3, 'Topic: followed']];

export function ViewHeader({ terms }: { terms: Term[] }) {
  const title = useViewTitle(terms);
  const channel = channelOf(terms);
  const topic = topicOf(terms);
  const sub = useServer((s) => (channel !== undefined ? s.subs.get(channel) : undefined));
  const info = useServer((s) => (channel !== undefined ? s.channels.get(channel) : undefined));
  const policy = useServer((s) => (channel !== undefined && topic !== undefined ? s.userTopics.get(topicKey(channel, topic)) ?? 0 : 0));
  const dm = dmOf(terms);
  const unread = useServer((s) => unreadInView(terms, countsOf(s)));
  return (
    <header className="view-header">
      {sub && <span className="swatch" style={{ background: sub.color }} aria-hidden="true">{sub.invite_only ? <Icon name="lock" size={11} /> : '#'}</span>}
      <h1 className="view-title" id="view-title">
        {channel !== undefined && topic !== undefined ? (
          <><a href={hashOf({ view: 'messages', terms: [{ operator: 'channel', operand: channel }] })}>#{info?.name ?? 'unknown channel'}</a> <span aria-hidden="true">›</span> {topic || <i>general chat</i>}</>
        ) : title}
      </h1>
      {info?.description && topic === undefined && <span className="view-description" title={info.description}>{info.description}</span>}
      {dm && <span className="view-description">Direct messages</span>}
      <span className="spacer" />
      {channel !== undefined && info && !sub && (
        <button type="button" className="button primary" onClick={() => void subscribe([info.name])}>Subscribe</button>
      )}
      {channel !== undefined && topic !== undefined && sub && (
        <label className="topic-policy">
          <span className="sr-only">Topic notifications</span>
          <select value={policy} aria-label="Mute or follow this topic" onChange={(e) => void setTopicVisibility(channel, topic, Number(e.target.value))}>
            {POLICIES.map(([v, label]) => <option key={v} value={v}>{label}</option>)}
          </select>
        </label>
      )}
      {unread !== 0 && <button type="button" className="button" onClick={() => void markNarrowRead(terms)} title="Mark every message here as read">Mark all as read</button>}
    </header>
  );
}
