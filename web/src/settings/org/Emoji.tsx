// Custom emoji: everyone sees them; those the organization allows add them; administrators and an emoji's
// author remove it.
import { useState } from 'react';
import { useServer } from '../../data/hooks';
import { canDo } from '../../data/org';
import { addEmoji, deleteEmoji } from '../actions';
import { Confirm, Section, Status, useRequest } from '../controls';

export default function Emoji() {
  const emoji = useServer((s) => s.realmEmoji);
  const users = useServer((s) => s.users);
  const me = useServer((s) => s.me);
  const mayAdd = useServer((s) => canDo(s, 'can_add_custom_emoji_group'));
  const [outcome, run] = useRequest();
  const [name, setName] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const list = [...emoji.values()].filter((e) => !e.deactivated).sort((a, b) => a.name.localeCompare(b.name));
  return (
    <>
      <Status outcome={outcome} />
      {mayAdd && (
        <Section title="Add an emoji">
          <form className="settings-inline" onSubmit={(e) => {
            e.preventDefault();
            if (file) void run(addEmoji(name.trim(), file), 'Emoji added').then((ok) => ok !== undefined && (setName(''), setFile(null)));
          }}>
            <input aria-label="Emoji name" placeholder="name" value={name} pattern="[a-z0-9_ -]+" onChange={(e) => setName(e.target.value)} required />
            <label className="button file-button">{file ? file.name : 'Choose an image…'}<input type="file" className="sr-only" aria-label="Emoji image" accept="image/png,image/gif,image/jpeg,image/webp" onChange={(e) => setFile(e.target.files?.[0] ?? null)} /></label>
            <button type="submit" className="button primary" disabled={!file || !name.trim()}>Add emoji</button>
          </form>
        </Section>
      )}
      <table className="settings-table">
        <thead><tr><th scope="col">Emoji</th><th scope="col">Name</th><th scope="col">Added by</th><th /></tr></thead>
        <tbody>
          {list.map((e) => (
            <tr key={e.id}>
              <td><img src={e.source_url} alt="" width={24} height={24} /></td>
              <td>:{e.name}:</td>
              <td>{e.author_id ? users.get(e.author_id)?.full_name : ''}</td>
              <td>{(me.isAdmin || (mayAdd && e.author_id === me.userId)) && <Confirm label="Remove?" onConfirm={() => void run(deleteEmoji(e.name), 'Removed')}>Remove</Confirm>}</td>
            </tr>
          ))}
          {!list.length && <tr><td colSpan={4} className="detail">No custom emoji yet.</td></tr>}
        </tbody>
      </table>
    </>
  );
}
