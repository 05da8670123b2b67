// Linkifiers: patterns in messages and topics that become links (administrators add and remove them).
import { useState } from 'react';
import { useServer } from '../../data/hooks';
import { addLinkifier, deleteLinkifier } from '../actions';
import { Confirm, Section, Status, useRequest } from '../controls';

export default function Linkifiers() {
  const list = useServer((s) => s.linkifiers);
  const admin = useServer((s) => s.me.isAdmin);
  const [outcome, run] = useRequest();
  const [pattern, setPattern] = useState('');
  const [url, setUrl] = useState('');
  return (
    <>
      <Status outcome={outcome} />
      {admin && (
        <Section title="Add a linkifier" note={<>For example the pattern <code>#(?P&lt;id&gt;[0-9]+)</code> with the URL template <code>https://github.com/org/repo/issues/{'{id}'}</code>.</>}>
          <form className="settings-form" onSubmit={(e) => {
            e.preventDefault();
            void run(addLinkifier(pattern, url), 'Linkifier added').then((ok) => ok !== undefined && (setPattern(''), setUrl('')));
          }}>
            <label htmlFor="linkifier-pattern">Pattern</label>
            <input id="linkifier-pattern" value={pattern} onChange={(e) => setPattern(e.target.value)} required />
            <label htmlFor="linkifier-url">URL template</label>
            <input id="linkifier-url" value={url} onChange={(e) => setUrl(e.target.value)} required />
            <div><button type="submit" className="button primary">Add linkifier</button></div>
          </form>
        </Section>
      )}
      <table className="settings-table">
        <thead><tr><th scope="col">Pattern</th><th scope="col">URL template</th><th /></tr></thead>
        <tbody>
          {list.map((l) => (
            <tr key={l.id}><td><code>{l.pattern}</code></td><td><code>{l.url_template}</code></td>
              <td>{admin && <Confirm label="Remove?" onConfirm={() => void run(deleteLinkifier(l.id), 'Removed')}>Remove</Confirm>}</td></tr>
          ))}
          {!list.length && <tr><td colSpan={3} className="detail">No linkifiers.</td></tr>}
        </tbody>
      </table>
    </>
  );
}
