// Alert words: words that, in any message one can read, notify like a mention.
import { useState } from 'react';
import { useServer } from '../../data/hooks';
import { addAlertWords, removeAlertWords } from '../actions';
import { Section, Status, useRequest } from '../controls';

export default function AlertWords() {
  const words = useServer((s) => s.alertWords);
  const [outcome, run] = useRequest();
  const [word, setWord] = useState('');
  return (
    <>
      <Status outcome={outcome} />
      <Section title="Add an alert word" note="You are notified of messages containing these words, as of a mention.">
        <form className="settings-inline" onSubmit={(e) => {
          e.preventDefault();
          void run(addAlertWords([word.trim()]), 'Added').then((ok) => ok !== undefined && setWord(''));
        }}>
          <input aria-label="New alert word" value={word} maxLength={100} onChange={(e) => setWord(e.target.value)} />
          <button type="submit" className="button primary" disabled={!word.trim()}>Add</button>
        </form>
      </Section>
      <ul className="settings-list alert-words">
        {words.map((w) => (
          <li key={w}><span>{w}</span><button type="button" className="button" aria-label={`Remove ${w}`} onClick={() => void run(removeAlertWords([w]), 'Removed')}>Remove</button></li>
        ))}
        {!words.length && <li className="detail">No alert words yet.</li>}
      </ul>
    </>
  );
}
