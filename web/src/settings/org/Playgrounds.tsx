// Code playgrounds: a code block of a language gets a link to run it there (administrators manage them).
import { useState } from 'react';
import { useServer } from '../../data/hooks';
import { addPlayground, deletePlayground } from '../actions';
import { Confirm, Section, Status, useRequest } from '../controls';

export default function Playgrounds() {
  const list = useServer((s) => s.playgrounds);
  const admin = useServer((s) => s.me.isAdmin);
  const [outcome, run] = useRequest();
  const [name, setName] = useState('');
  const [language, setLanguage] = useState('');
  const [url, setUrl] = useState('');
  return (
    <>
      <Status outcome={outcome} />
      {admin && (
        <Section title="Add a playground">
          <form className="settings-form" onSubmit={(e) => {
            e.preventDefault();
            void run(addPlayground(name, language, url), 'Playground added').then((ok) => ok !== undefined && (setName(''), setLanguage(''), setUrl('')));
          }}>
            <label htmlFor="playground-language">Language (as in ```rust)</label>
            <input id="playground-language" value={language} onChange={(e) => setLanguage(e.target.value)} required />
            <label htmlFor="playground-name">Name</label>
            <input id="playground-name" value={name} onChange={(e) => setName(e.target.value)} required />
            <label htmlFor="playground-url">URL template (with {'{code}'})</label>
            <input id="playground-url" value={url} onChange={(e) => setUrl(e.target.value)} required />
            <div><button type="submit" className="button primary">Add playground</button></div>
          </form>
        </Section>
      )}
      <table className="settings-table">
        <thead><tr><th scope="col">Language</th><th scope="col">Name</th><th scope="col">URL template</th><th /></tr></thead>
        <tbody>
          {list.map((p) => (
            <tr key={p.id}><td>{p.pygments_language}</td><td>{p.name}</td><td><code>{p.url_template}</code></td>
              <td>{admin && <Confirm label="Remove?" onConfirm={() => void run(deletePlayground(p.id), 'Removed')}>Remove</Confirm>}</td></tr>
          ))}
          {!list.length && <tr><td colSpan={4} className="detail">No code playgrounds.</td></tr>}
        </tbody>
      </table>
    </>
  );
}
