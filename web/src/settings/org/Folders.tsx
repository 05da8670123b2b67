// Channel folders: group channels in the sidebar (administrators create, rename and archive them).
import { useState } from 'react';
import { useServer } from '../../data/hooks';
import { createFolder, updateFolder } from '../actions';
import { Section, Status, useRequest } from '../controls';

export default function Folders() {
  const folders = useServer((s) => s.channelFolders);
  const [outcome, run] = useRequest();
  const [name, setName] = useState('');
  const list = [...folders.values()].sort((a, b) => (a.order ?? a.id) - (b.order ?? b.id));
  return (
    <>
      <Status outcome={outcome} />
      <Section title="Create a folder">
        <form className="settings-inline" onSubmit={(e) => { e.preventDefault(); void run(createFolder(name.trim(), ''), 'Folder created').then((ok) => ok !== undefined && setName('')); }}>
          <input aria-label="Folder name" value={name} maxLength={60} onChange={(e) => setName(e.target.value)} required />
          <button type="submit" className="button primary" disabled={!name.trim()}>Create</button>
        </form>
      </Section>
      <ul className="settings-list">
        {list.map((f) => (
          <li key={f.id} className={f.is_archived ? 'inactive' : ''}>
            <span>{f.name}{f.is_archived ? <span className="detail"> · archived</span> : null}</span>
            <button type="button" className="button" onClick={() => void run(updateFolder(f.id, { is_archived: !f.is_archived }))}>{f.is_archived ? 'Unarchive' : 'Archive'}</button>
          </li>
        ))}
        {!list.length && <li className="detail">No folders.</li>}
      </ul>
    </>
  );
}
