// One message in the feed: its recipient bar where the conversation changes, the sender's name and picture where
// the sender changes, the server's HTML, reactions, and the controls shown on hover or selection.
import { memo } from 'react';
import type { Message } from '../api/types';
import { useServer } from '../data/hooks';
import { conversationIds, messageDmIds } from '../data/narrow';
import { conversationTitle, topicMuted } from '../data/selectors';
import { setStarred } from '../data/actions';
import { hashOf } from '../app/router';
import { fullDate, timeOfDay, dayLabel } from '../app/time';
import { Avatar } from '../app/Avatar';
import { Icon } from '../app/icons';
import { setUi } from '../app/ui';
import { MessageContent } from './MessageContent';
import { Reactions } from './Reactions';
import type { Row } from './rows';

export function RecipientHeader({ message: m }: { message: Message }) {
  const channel = useServer((s) => (m.type === 'stream' ? s.channels.get(m.stream_id!) : undefined));
  const sub = useServer((s) => (m.type === 'stream' ? s.subs.get(m.stream_id!) : undefined));
  const users = useServer((s) => s.users);
  const me = useServer((s) => s.me);
  const muted = useServer((s) => (m.type === 'stream' ? topicMuted(s.subs, s.userTopics, m.stream_id!, m.subject) : false));
  const emptyTopic = useServer((s) => s.realm.emptyTopicName);
  const day = dayLabel(m.timestamp);
  if (m.type === 'stream') {
    const name = channel?.name ?? (typeof m.display_recipient === 'string' ? m.display_recipient : 'unknown');
    const channelRoute = { view: 'messages' as const, terms: [{ operator: 'channel', operand: m.stream_id! }] };
    const topicRoute = { view: 'messages' as const, terms: [...channelRoute.terms, { operator: 'topic', operand: m.subject }] };
    return (
      <div className={`recipient-bar stream${muted ? ' muted' : ''}`}>
        <a className="recipient-channel" href={hashOf(channelRoute)} style={{ borderColor: sub?.color ?? 'var(--border-strong)' }}>
          <span className="swatch" style={{ background: sub?.color ?? '#9aa3ad' }} aria-hidden="true">{channel?.invite_only ? <Icon name="lock" size={10} /> : '#'}</span>
          {name}
        </a>
        <span className="recipient-sep" aria-hidden="true">›</span>
        <a className="recipient-topic" href={hashOf(topicRoute)}>{m.subject || <i>{emptyTopic}</i>}</a>
        {muted && <span className="muted-label">muted</span>}
        <span className="recipient-date">{day}</span>
      </div>
    );
  }
  const ids = messageDmIds(m, me.userId);
  return (
    <div className="recipient-bar dm">
      <a className="recipient-dm" href={hashOf({ view: 'messages', terms: [{ operator: 'dm', operand: ids }] })}>
        {ids.length === 1 && ids[0] === me.userId ? 'Notes to self' : `You and ${conversationTitle({ users, me }, conversationIds(ids, me.userId))}`}
      </a>
      <span className="recipient-date">{day}</span>
    </div>
  );
}

interface RowProps {
  row: Row;
  selected: boolean;
  me: number;
  twentyFour: boolean;
  timeZone?: string;
  search: boolean; // a search view: the server's highlights of the matched words
  onSelect(id: number): void;
}

export const MessageRow = memo(function MessageRow({ row, selected, me, twentyFour, timeZone, search, onSelect }: RowProps) {
  const m = row.message;
  const unread = !m.flags.includes('read');
  const starred = m.flags.includes('starred');
  const mentioned = m.flags.some((f) => f.endsWith('mentioned'));
  const time = timeOfDay(m.timestamp, twentyFour, timeZone);
  const edited = m.last_edit_timestamp ? 'EDITED' : m.last_moved_timestamp ? 'MOVED' : '';
  return (
    <div
      className={`message-row${selected ? ' selected' : ''}${unread ? ' unread' : ''}${mentioned ? ' mentioned' : ''}${m.sender_id === me ? ' mine' : ''}`}
      id={`message-${m.id}`}
      data-message-id={m.id}
      onClick={(e) => {
        if (!(e.target as HTMLElement).closest('a, button, .spoiler-header, input, textarea')) onSelect(m.id);
      }}
    >
      {row.header && <RecipientHeader message={m} />}
      {row.dateDivider && <div className="date-divider"><span>{dayLabel(m.timestamp, timeZone)}</span></div>}
      <article className={`message-box${row.grouped ? ' grouped' : ''}`} aria-label={`${m.sender_full_name}, ${time}`} aria-current={selected ? 'true' : undefined}>
        <div className="avatar-col">{row.grouped ? <time className="side-time" dateTime={new Date(m.timestamp * 1000).toISOString()} title={fullDate(m.timestamp, twentyFour, timeZone)}>{time}</time> : <Avatar userId={m.sender_id} name={m.sender_full_name} />}</div>
        <div className="message-main">
          {!row.grouped && (
            <div className="sender-line">
              <span className="sender-name">{m.sender_full_name}</span>
              <time dateTime={new Date(m.timestamp * 1000).toISOString()} title={fullDate(m.timestamp, twentyFour, timeZone)}>{time}</time>
            </div>
          )}
          <div className={m.is_me_message ? 'me-message' : undefined}>
            {m.is_me_message && <span className="sender-name">{m.sender_full_name} </span>}
            <MessageContent html={search && m.match_content ? m.match_content : m.content} me={me} />
          </div>
          {edited && <span className="edited-marker" title={edited === 'EDITED' ? `Edited ${fullDate(m.last_edit_timestamp!, twentyFour)}` : `Moved ${fullDate(m.last_moved_timestamp!, twentyFour)}`}>{edited === 'EDITED' ? 'edited' : 'moved'}</span>}
          {m.reactions.length > 0 && <Reactions message={m} />}
        </div>
        <div className="message-controls">
          <button type="button" className="icon-button" title="Add emoji reaction (:)" aria-label="Add emoji reaction"
            onClick={(e) => setUi({ overlay: { kind: 'emoji', messageId: m.id, anchor: (e.currentTarget as HTMLElement).getBoundingClientRect() } })}><Icon name="smile" /></button>
          <button type="button" className={`icon-button star${starred ? ' starred' : ''}`} title={starred ? 'Unstar (*)' : 'Star (*)'} aria-label={starred ? 'Unstar' : 'Star'} aria-pressed={starred}
            onClick={() => void setStarred(m.id, !starred)}><Icon name="star" /></button>
          <button type="button" className="icon-button" title="Message actions" aria-label="Message actions" aria-haspopup="menu"
            onClick={(e) => { onSelect(m.id); setUi({ overlay: { kind: 'message-menu', messageId: m.id, anchor: (e.currentTarget as HTMLElement).getBoundingClientRect() } }); }}><Icon name="dots" /></button>
        </div>
        {starred && <span className="star-marker" role="img" aria-label="Starred"><Icon name="star" size={14} /></span>}
      </article>
    </div>
  );
});
