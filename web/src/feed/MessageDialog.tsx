// Dialogs about a message: moving it (and its topic), deleting it, reporting it.
import { useEffect, useRef, useState } from 'react';
import type { Message } from '../api/types';
import { deleteMessage, moveMessages, reportMessage } from '../data/actions';
import { useServer } from '../data/hooks';
import { sortedSubs } from '../data/selectors';
import type { Endpoints } from '../api/endpoints.gen';

type ReportType = Endpoints['POST /messages/{message_id}/report']['report_type'];

function Modal({ title, onClose, children }: { title: string; onClose(): void; children: React.ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.querySelector<HTMLElement>('input, select, textarea, button.primary')?.focus();
  }, []);
  return (
    <div className="modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div ref={ref} className="modal" role="dialog" aria-modal="true" aria-labelledby="dialog-title" onKeyDown={(e) => e.key === 'Escape' && onClose()}>
        <h2 id="dialog-title">{title}</h2>
        {children}
      </div>
    </div>
  );
}

function Move({ message: m, onClose }: { message: Message; onClose(): void }) {
  const subs = useServer((s) => sortedSubs(s.subs));
  const [topic, setTopic] = useState(m.subject);
  const [streamId, setStreamId] = useState(m.stream_id!);
  const [mode, setMode] = useState<'change_one' | 'change_later' | 'change_all'>('change_all');
  const [error, setError] = useState('');
  const submit = async () => {
    try {
      await moveMessages(m.id, { topic: topic !== m.subject ? topic : undefined, streamId: streamId !== m.stream_id ? streamId : undefined }, mode);
      onClose();
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return (
    <Modal title="Move messages" onClose={onClose}>
      <form onSubmit={(e) => { e.preventDefault(); void submit(); }}>
        <label htmlFor="move-channel">Channel</label>
        <select id="move-channel" value={streamId} onChange={(e) => setStreamId(Number(e.target.value))}>
          {subs.map((s) => <option key={s.stream_id} value={s.stream_id}>#{s.name}</option>)}
        </select>
        <label htmlFor="move-topic">Topic</label>
        <input id="move-topic" type="text" value={topic} onChange={(e) => setTopic(e.target.value)} />
        <label htmlFor="move-mode">Which messages</label>
        <select id="move-mode" value={mode} onChange={(e) => setMode(e.target.value as typeof mode)}>
          <option value="change_all">All messages in the topic</option>
          <option value="change_later">This message and the ones after it</option>
          <option value="change_one">Only this message</option>
        </select>
        {error && <p className="error-text" role="alert">{error}</p>}
        <div className="actions">
          <button type="button" className="button" onClick={onClose}>Cancel</button>
          <button type="submit" className="button primary" disabled={topic === m.subject && streamId === m.stream_id}>Move</button>
        </div>
      </form>
    </Modal>
  );
}

function Delete({ message: m, onClose }: { message: Message; onClose(): void }) {
  const [error, setError] = useState('');
  return (
    <Modal title="Delete message?" onClose={onClose}>
      <p>Deleting a message removes it for everyone. This cannot be undone.</p>
      {error && <p className="error-text" role="alert">{error}</p>}
      <div className="actions">
        <button type="button" className="button" onClick={onClose}>Cancel</button>
        <button type="button" className="button primary danger-primary" onClick={() => void deleteMessage(m.id).then(onClose, (e: Error) => setError(e.message))}>Delete</button>
      </div>
    </Modal>
  );
}

function Report({ message: m, onClose }: { message: Message; onClose(): void }) {
  const types = useServer((s) => s.realm.reportTypes);
  const [type, setType] = useState<ReportType>((types[0]?.key as ReportType) ?? 'spam');
  const [description, setDescription] = useState('');
  const [error, setError] = useState('');
  return (
    <Modal title="Report message" onClose={onClose}>
      <form onSubmit={(e) => { e.preventDefault(); void reportMessage(m.id, type, description).then(onClose, (err: Error) => setError(err.message)); }}>
        <p>Your report goes to the organization's moderators.</p>
        <label htmlFor="report-type">Reason</label>
        <select id="report-type" value={type} onChange={(e) => setType(e.target.value as ReportType)}>
          {types.map((t) => <option key={t.key} value={t.key}>{t.name}</option>)}
        </select>
        <label htmlFor="report-description">What is wrong{type === 'other' ? '' : ' (optional)'}</label>
        <textarea id="report-description" rows={3} value={description} onChange={(e) => setDescription(e.target.value)} />
        {error && <p className="error-text" role="alert">{error}</p>}
        <div className="actions">
          <button type="button" className="button" onClick={onClose}>Cancel</button>
          <button type="submit" className="button primary">Report</button>
        </div>
      </form>
    </Modal>
  );
}

export default function MessageDialog({ kind, message, onClose }: { kind: 'move' | 'report' | 'delete'; message: Message; onClose(): void }) {
  if (kind === 'move') return <Move message={message} onClose={onClose} />;
  if (kind === 'delete') return <Delete message={message} onClose={onClose} />;
  return <Report message={message} onClose={onClose} />;
}
