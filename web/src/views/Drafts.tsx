// Drafts kept by the server (drafts API): open one to go on writing it, or delete it.
import { useServer } from '../data/hooks';
import { conversationTitle } from '../data/selectors';
import { openCompose } from '../compose/open';
import { setCompose } from '../app/ui';
import { deleteDraft } from '../compose/drafts';
import { relative } from '../app/time';
import './views.css';

export default function Drafts() {
  const drafts = useServer((s) => s.drafts);
  const channels = useServer((s) => s.channels);
  const users = useServer((s) => s.users);
  const me = useServer((s) => s.me);
  const list = [...drafts.values()].sort((a, b) => b.timestamp - a.timestamp);
  return (
    <section className="list-view" aria-labelledby="view-title">
      <header className="view-header"><h1 className="view-title" id="view-title">Drafts</h1><span className="view-description">{list.length} saved</span></header>
      <div className="list-scroll">
        {!list.length && <div className="empty-state"><h2>No drafts</h2><p>What you type in the compose box is kept here until you send it.</p></div>}
        {list.map((d) => (
          <article className="card draft" key={d.id}>
            <div className="card-head">
              <strong>{d.type === 'stream' ? `#${channels.get(d.to[0])?.name ?? 'unknown'} › ${d.topic || 'general chat'}` : conversationTitle({ users, me }, d.to)}</strong>
              <span>{relative(d.timestamp)}</span>
              <span className="spacer" />
              <button type="button" className="button" onClick={() => {
                openCompose(d.type === 'stream' ? { kind: 'stream', streamId: d.to[0], topic: d.topic } : { kind: 'dm', userIds: d.to });
                setCompose({ text: d.content, draftId: d.id });
              }}>Edit</button>
              <button type="button" className="button danger" onClick={() => void deleteDraft(d.id)}>Delete</button>
            </div>
            <div className="card-body">{d.content}</div>
          </article>
        ))}
      </div>
    </section>
  );
}
