// Messages scheduled to be sent later: when, where, and a way to cancel.
import { useServer } from '../data/hooks';
import { conversationTitle } from '../data/selectors';
import { deleteScheduled } from '../data/actions';
import { fullDate } from '../app/time';
import './views.css';

export default function Scheduled() {
  const scheduled = useServer((s) => s.scheduled);
  const channels = useServer((s) => s.channels);
  const users = useServer((s) => s.users);
  const me = useServer((s) => s.me);
  const twentyFour = useServer((s) => s.settings.twenty_four_hour_time);
  const list = [...scheduled.values()].sort((a, b) => a.scheduled_delivery_timestamp - b.scheduled_delivery_timestamp);
  return (
    <section className="list-view" aria-labelledby="view-title">
      <header className="view-header"><h1 className="view-title" id="view-title">Scheduled messages</h1></header>
      <div className="list-scroll">
        {!list.length && <div className="empty-state"><h2>Nothing scheduled</h2><p>Write a message and choose “Schedule…” to send it later.</p></div>}
        {list.map((m) => (
          <article className="card" key={m.scheduled_message_id}>
            <div className="card-head">
              <strong>{m.type === 'stream' ? `#${channels.get(m.to as number)?.name ?? 'unknown'} › ${m.topic || 'general chat'}` : conversationTitle({ users, me }, m.to as number[])}</strong>
              <span>{m.failed ? 'Failed to send' : `Sends ${fullDate(m.scheduled_delivery_timestamp, twentyFour)}`}</span>
              <span className="spacer" />
              <button type="button" className="button danger" onClick={() => void deleteScheduled(m.scheduled_message_id)}>Cancel</button>
            </div>
            <div className="card-body rendered_markdown" dangerouslySetInnerHTML={{ __html: m.rendered_content }} />
          </article>
        ))}
      </div>
    </section>
  );
}
