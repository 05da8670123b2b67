// The compose box: to a channel's topic or to people, with autocomplete, a preview, files by paste, drop or
// picker, Enter (or Ctrl+Enter, per the user's setting) to send, drafts kept as you type, and scheduling.
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { editMessage as saveEdit, loadTopics, renderPreview, scheduleMessage, sendMessage, updateSetting, type Target } from '../data/actions';
import { useServer, useStore, useUi } from '../data/hooks';
import { sortedSubs } from '../data/selectors';
import { setCompose, setUi, ui, type ComposeTarget } from '../app/ui';
import { complete } from './autocomplete';
import { useAutocomplete } from './useAutocomplete';
import { RecipientInput } from './RecipientInput';
import { closeCompose, composeRefs, editLastOwn, insertAtCaret, mountField, newDirectMessage, newTopic, reply } from './open';
import { deleteDraft, scheduleDraftSave } from './drafts';
import { stopTyping, typingActivity } from './typing';
import { dismissUpload, uploadFiles, uploads } from './uploads';
import { useViewTitle } from '../feed/ViewHeader';
import { Icon } from '../app/icons';
import './compose.css';

const SchedulePicker = lazy(() => import('./SchedulePicker'));

function toTarget(t: ComposeTarget): Target | string {
  if (t.kind === 'stream') return t.streamId === null ? 'Choose a channel.' : { kind: 'stream', streamId: t.streamId, topic: t.topic.trim() };
  return t.userIds.length ? { kind: 'dm', userIds: t.userIds } : 'Add at least one person.';
}

export function Compose() {
  const compose = useUi((u) => u.compose);
  const route = useUi((u) => u.route);
  const enterSends = useServer((s) => s.settings.enter_sends);
  const subs = useServer((s) => sortedSubs(s.subs));
  const maxMib = useServer((s) => s.realm.maxFileUploadMib);
  const maxTopic = useServer((s) => s.realm.maxTopicLength);
  const topics = useServer((s) => (compose.target.kind === 'stream' && compose.target.streamId !== null ? s.topics.get(compose.target.streamId) : undefined));
  const pendingUploads = useStore(uploads, (u) => u);
  const [caret, setCaret] = useState(0);
  const [active, setActive] = useState(0);
  const [error, setError] = useState('');
  const [previewHtml, setPreviewHtml] = useState('');
  const [dragging, setDragging] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const viewTitle = useViewTitle(route.view === 'messages' ? route.terms : []);
  const { token, candidates } = useAutocomplete(compose.text, caret, compose.open && !compose.preview);
  const t = compose.target;

  useEffect(() => {
    if (t.kind === 'stream' && t.streamId !== null && !topics) void loadTopics(t.streamId).catch(() => {});
  }, [t, topics]);
  useEffect(() => setActive(0), [token?.kind, token?.query]);
  useEffect(() => {
    if (!compose.preview) return;
    let live = true;
    setPreviewHtml('');
    void renderPreview(compose.text || '*Nothing to preview*').then((html) => live && setPreviewHtml(html), (e: Error) => live && setPreviewHtml(`<p>${e.message}</p>`));
    return () => {
      live = false;
    };
  }, [compose.preview, compose.text]);

  const setText = (text: string) => {
    setCompose({ text });
    if (compose.editingId === undefined) {
      typingActivity(ui.get().compose.target);
      scheduleDraftSave();
    }
  };

  const send = async () => {
    const text = compose.text.trim();
    if (!text) return;
    setError('');
    if (compose.editingId !== undefined) {
      try {
        await saveEdit(compose.editingId, text);
        setCompose({ text: '', editingId: undefined, open: false });
      } catch (e) {
        setError((e as Error).message);
      }
      return;
    }
    const target = toTarget(t);
    if (typeof target === 'string') return setError(target);
    if (target.kind === 'stream' && target.topic.length > maxTopic) return setError(`The topic is longer than ${maxTopic} characters.`);
    stopTyping();
    const draftId = compose.draftId;
    setCompose({ text: '', draftId: undefined, preview: false });
    if (draftId !== undefined) void deleteDraft(draftId);
    await sendMessage(target, text);
  };

  const schedule = async (at: number) => {
    const target = toTarget(t);
    if (typeof target === 'string') return setError(target);
    try {
      await scheduleMessage(target, compose.text.trim(), at);
      if (compose.draftId !== undefined) void deleteDraft(compose.draftId);
      setCompose({ text: '', draftId: undefined, scheduling: false });
    } catch (e) {
      setError((e as Error).message);
    }
  };

  const accept = (i: number) => {
    if (!token || !candidates[i]) return;
    const next = complete(compose.text, token, candidates[i].insert);
    setText(next.text);
    requestAnimationFrame(() => {
      composeRefs.textarea?.setSelectionRange(next.caret, next.caret);
      setCaret(next.caret);
    });
  };

  const onKeyDown = (e: React.KeyboardEvent<HTMLTextAreaElement>) => {
    if (candidates.length) {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        setActive((a) => (a + (e.key === 'ArrowDown' ? 1 : -1) + candidates.length) % candidates.length);
        return;
      }
      if ((e.key === 'Enter' && !e.shiftKey && !e.ctrlKey && !e.metaKey) || e.key === 'Tab') {
        e.preventDefault();
        accept(active);
        return;
      }
    }
    if (e.key === 'Enter' && !e.nativeEvent.isComposing) {
      const wantsSend = enterSends ? !e.shiftKey && !e.altKey : e.ctrlKey || e.metaKey;
      const ctrlSend = enterSends && (e.ctrlKey || e.metaKey);
      if (wantsSend || ctrlSend) {
        e.preventDefault();
        void send();
      }
      return;
    }
    if (e.key === 'Escape') {
      e.preventDefault();
      if (candidates.length) setCaret(-1);
      else closeCompose();
      return;
    }
    if (e.key === 'ArrowUp' && !compose.text && compose.editingId === undefined) {
      e.preventDefault();
      editLastOwn();
    }
  };

  const files = (list: FileList | null) => list && list.length && uploadFiles([...list], insertAtCaret, maxMib);

  if (!compose.open) {
    const target = route.view === 'messages' ? viewTitle : '';
    return (
      <section className="compose closed" aria-label="Compose">
        <button type="button" className="compose-placeholder" onClick={reply}>
          {route.view === 'messages' && route.terms.length ? `Message ${target}` : 'Compose message'} <kbd>r</kbd>
        </button>
        <button type="button" className="button" onClick={newTopic}>New topic <kbd>c</kbd></button>
        <button type="button" className="button" onClick={newDirectMessage}>Direct message <kbd>x</kbd></button>
      </section>
    );
  }

  return (
    <section className={`compose${dragging ? ' dragging' : ''}`} aria-label="Compose"
      onDragOver={(e) => { if (e.dataTransfer.types.includes('Files')) { e.preventDefault(); setDragging(true); } }}
      onDragLeave={() => setDragging(false)}
      onDrop={(e) => { e.preventDefault(); setDragging(false); files(e.dataTransfer.files); }}>
      <div className="compose-target">
        {compose.editingId !== undefined ? (
          <span className="editing-label">Editing message</span>
        ) : (
          <>
            <div className="segmented" role="radiogroup" aria-label="Send to">
              <button type="button" role="radio" aria-checked={t.kind === 'stream'} onClick={() => t.kind !== 'stream' && setCompose({ target: { kind: 'stream', streamId: subs[0]?.stream_id ?? null, topic: '' } })}>Channel</button>
              <button type="button" role="radio" aria-checked={t.kind === 'dm'} onClick={() => t.kind !== 'dm' && setCompose({ target: { kind: 'dm', userIds: [] } })}>People</button>
            </div>
            {t.kind === 'stream' ? (
              <>
                <select aria-label="Channel" value={t.streamId ?? ''} onChange={(e) => setCompose({ target: { ...t, streamId: e.target.value ? Number(e.target.value) : null } })}>
                  <option value="">Choose a channel</option>
                  {subs.map((s) => <option key={s.stream_id} value={s.stream_id}>#{s.name}</option>)}
                </select>
                <span aria-hidden="true" className="sep">›</span>
                <input ref={(el) => mountField('topic', el)} className="topic-input" type="text" aria-label="Topic" placeholder="Topic" maxLength={maxTopic}
                  list="compose-topics" value={t.topic} onChange={(e) => setCompose({ target: { ...t, topic: e.target.value } })}
                  onKeyDown={(e) => { if (e.key === 'Enter') { e.preventDefault(); composeRefs.textarea?.focus(); } else if (e.key === 'Escape') closeCompose(); }} />
                <datalist id="compose-topics">{(topics ?? []).slice(0, 50).map((x) => <option key={x.name} value={x.name} />)}</datalist>
              </>
            ) : (
              <RecipientInput userIds={t.userIds} onChange={(ids) => setCompose({ target: { kind: 'dm', userIds: ids } })} />
            )}
          </>
        )}
        <button type="button" className="icon-button close" aria-label="Close the compose box (Esc)" title="Close (Esc)" onClick={closeCompose}><Icon name="close" /></button>
      </div>
      <div className="compose-body">
        {candidates.length > 0 && (
          <ul className="suggestions above" id="compose-suggestions" role="listbox" aria-label="Suggestions">
            {candidates.map((c, i) => (
              <li key={c.key} id={`suggestion-${i}`} role="option" aria-selected={i === active} className={i === active ? 'active' : undefined}
                onMouseDown={(e) => { e.preventDefault(); accept(i); }}>
                {c.image ? <img className="emoji" src={c.image} alt="" /> : c.glyph ? <span className="glyph">{c.glyph}</span> : null}
                <span className="label">{c.label}</span>{c.detail && <span className="detail">{c.detail}</span>}
              </li>
            ))}
          </ul>
        )}
        {compose.preview ? (
          <div className="preview rendered_markdown" aria-label="Preview" dangerouslySetInnerHTML={{ __html: previewHtml }} />
        ) : (
          <textarea
            ref={(el) => mountField('text', el)}
            className="compose-text" aria-label="Message" placeholder={enterSends ? 'Message (Enter to send, Shift+Enter for a new line)' : 'Message (Ctrl+Enter to send)'}
            value={compose.text} rows={3}
            role="combobox" aria-expanded={candidates.length > 0} aria-controls="compose-suggestions" aria-autocomplete="list"
            aria-activedescendant={candidates.length ? `suggestion-${active}` : undefined}
            onChange={(e) => { setText(e.target.value); setCaret(e.target.selectionStart); }}
            onSelect={(e) => setCaret((e.target as HTMLTextAreaElement).selectionStart)}
            onKeyDown={onKeyDown}
            onPaste={(e) => { if (e.clipboardData.files.length) { e.preventDefault(); files(e.clipboardData.files); } }}
          />
        )}
      </div>
      {pendingUploads.length > 0 && (
        <ul className="uploads" aria-label="Uploads">
          {pendingUploads.map((u) => (
            <li key={u.id} className={u.error ? 'failed' : undefined}>
              <span className="name">{u.name}</span>
              {u.error ? <span className="error-text">{u.error}</span> : <progress max={1} value={u.progress} aria-label={`Uploading ${u.name}`} />}
              <button type="button" className="icon-button" aria-label={u.error ? 'Dismiss' : 'Cancel upload'} onClick={() => (u.error ? dismissUpload(u.id) : u.abort())}>✕</button>
            </li>
          ))}
        </ul>
      )}
      {error && <p className="error-text compose-error" role="alert">{error}</p>}
      <div className="compose-footer">
        <button type="button" className="icon-button" title="Attach files" aria-label="Attach files" onClick={() => fileInput.current?.click()}><Icon name="clip" /></button>
        <input ref={fileInput} type="file" multiple hidden onChange={(e) => { files(e.target.files); e.target.value = ''; }} />
        <button type="button" className="icon-button" title="Insert emoji" aria-label="Insert emoji"
          onClick={(e) => setUi({ overlay: { kind: 'emoji', forCompose: true, anchor: (e.currentTarget as HTMLElement).getBoundingClientRect() } })}><Icon name="smile" /></button>
        <button type="button" className={`icon-button${compose.preview ? ' on' : ''}`} aria-pressed={compose.preview} onClick={() => setCompose({ preview: !compose.preview })}>Preview</button>
        <span className="spacer" />
        <label className="enter-setting">
          <input type="checkbox" checked={!!enterSends} onChange={(e) => void updateSetting('enter_sends', e.target.checked)} /> Enter sends
        </label>
        {compose.editingId === undefined && (
          <button type="button" className="button" disabled={!compose.text.trim()} onClick={() => setCompose({ scheduling: !compose.scheduling })} aria-expanded={compose.scheduling}>Schedule…</button>
        )}
        <button type="button" className="button primary" disabled={!compose.text.trim()} onClick={() => void send()}>{compose.editingId !== undefined ? 'Save' : 'Send'}</button>
      </div>
      {compose.scheduling && (
        <Suspense fallback={null}>
          <SchedulePicker onSchedule={(at) => void schedule(at)} onCancel={() => setCompose({ scheduling: false })} />
        </Suspense>
      )}
    </section>
  );
}
