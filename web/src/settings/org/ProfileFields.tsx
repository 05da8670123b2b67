// Custom profile fields everyone fills in on their profile (administrators define them).
import { useState } from 'react';
import { useServer } from '../../data/hooks';
import { addProfileField, deleteProfileField } from '../actions';
import { Confirm, Section, Status, useRequest } from '../controls';

const TYPES: [number, string][] = [[1, 'Short text'], [2, 'Long text'], [4, 'Date'], [5, 'Link'], [6, 'People'], [8, 'Pronouns']];

export default function ProfileFields() {
  const fields = useServer((s) => s.profileFields);
  const [outcome, run] = useRequest();
  const [name, setName] = useState('');
  const [hint, setHint] = useState('');
  const [type, setType] = useState(1);
  return (
    <>
      <Status outcome={outcome} />
      <Section title="Add a field">
        <form className="settings-form" onSubmit={(e) => {
          e.preventDefault();
          void run(addProfileField(name.trim(), hint.trim(), type), 'Field added').then((ok) => ok !== undefined && (setName(''), setHint('')));
        }}>
          <label htmlFor="field-type">Type</label>
          <select id="field-type" value={type} onChange={(e) => setType(Number(e.target.value))}>{TYPES.map(([k, v]) => <option key={k} value={k}>{v}</option>)}</select>
          <label htmlFor="field-name">Label</label>
          <input id="field-name" value={name} maxLength={40} onChange={(e) => setName(e.target.value)} required />
          <label htmlFor="field-hint">Hint</label>
          <input id="field-hint" value={hint} maxLength={80} onChange={(e) => setHint(e.target.value)} />
          <div><button type="submit" className="button primary">Add field</button></div>
        </form>
      </Section>
      <ul className="settings-list">
        {fields.map((f) => (
          <li key={f.id}><span>{f.name} <span className="detail">{f.hint}</span></span><Confirm label="Delete this field and everyone’s values?" onConfirm={() => void run(deleteProfileField(f.id), 'Deleted')}>Delete</Confirm></li>
        ))}
        {!fields.length && <li className="detail">No custom profile fields.</li>}
      </ul>
    </>
  );
}
