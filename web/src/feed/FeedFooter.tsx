// Below the messages: your messages on their way (or not sent, with a retry), and who is typing here.
import type { OutboxItem } from '../data/actions';
import { discardUnsent, retrySend } from '../data/actions';
import { useServer } from '../data/hooks';
import { channelOf, dmOf, topicOf, type Term } from '../data/narrow';
import { userName } from '../data/selectors';
import { dmConvKey, streamConvKey } from '../data/unread';
import { Avatar } from '../app/Avatar';

export function Pending({ item }: { item: OutboxItem }) {
  const me = useServer((s) => s.me);
  return (
    <div className={`message-row pending${item.status === 'failed' ? ' failed' : ''}`} aria-live="polite">
      <div className="message-box">
        <div className="avatar-col"><Avatar userId={me.userId} /></div>
        <div className="message-main">
          <div className="sender-line">
            <span className="sender-name">{me.fullName}</span>
            <span className="pending-status">{item.status === 'sending' ? 'Sending…' : `Not sent: ${item.error ?? 'error'}`}</span>
          </div>
          <div className="message_content rendered_markdown"><p className="pending-text">{item.content}</p></div>
          {item.status === 'failed' && (
            <div className="pending-actions">
              <button type="button" className="button" onClick={() => void retrySend(item.localId)}>Try again</button>
              <button type="button" className="button" onClick={() => discardUnsent(item.localId)}>Discard</button>
            </div>
          )}
        </div>
      </div>
    </div>
  );
}

// Typing notices for the conversation being read (a topic, or a direct-message conversation).
export function Typing({ terms }: { terms: Term[] }) {
  const channel = channelOf(terms);
  const topic = topicOf(terms);
  const dm = dmOf(terms);
  const key = channel !== undefined && topic !== undefined ? streamConvKey(channel, topic) : dm ? dmConvKey(dm) : undefined;
  const typists = useServer((s) => (key ? s.typing.get(key) : undefined));
  const users = useServer((s) => s.users);
  const names = typists ? [...typists.keys()].map((id) => userName({ users }, id)) : [];
  return (
    <div className="typing-notice" aria-live="polite">
      {names.length === 0 ? null : names.length === 1 ? `${names[0]} is typing…` : names.length < 4 ? `${names.join(', ')} are typing…` : 'Several people are typing…'}
    </div>
  );
}
