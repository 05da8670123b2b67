// A message's actions: reply, quote, react, star, edit, move, delete, copy a link, mark unread from here,
// mute the topic, report.
import { useEffect, useRef } from 'react';
import type { Message } from '../api/types';
import { setStarred, setTopicVisibility } from '../data/actions';
import { markUnreadHere } from './reading';
import { useServer } from '../data/hooks';
import { topicKey } from '../data/narrow';
import { editMessage, openCompose, quoteAndReply, targetOfMessage, nearRoute } from '../compose/open';
import { hashOf } from '../app/router';
import { setUi } from '../app/ui';

export function messageLink(m: Message): string {
  return `${location.origin}/${hashOf(nearRoute(m))}`;
}

export function canEdit(m: Message, me: number, allowEditing: boolean, limit: number | null): boolean {
  if (m.sender_id !== me || !allowEditing) return false;
  return limit === null || limit === 0 || Date.now() / 1000 - m.timestamp < limit;
}

export function MessageMenu({ message: m, anchor, onClose }: { message: Message; anchor: DOMRect; onClose(): void }) {
  const me = useServer((s) => s.me);
  const realm = useServer((s) => s.realm);
  const policy = useServer((s) => (m.type === 'stream' ? s.userTopics.get(topicKey(m.stream_id!, m.subject)) ?? 0 : 0));
  const ref = useRef<HTMLDivElement>(null);
  const starred = m.flags.includes('starred');
  const mine = m.sender_id === me.userId;
  useEffect(() => {
    ref.current?.querySelector('button')?.focus();
    const away = (e: MouseEvent) => !ref.current?.contains(e.target as Node) && onClose();
    document.addEventListener('mousedown', away);
    return () => document.removeEventListener('mousedown', away);
  }, [onClose]);
  const act = (fn: () => void) => () => {
    onClose();
    fn();
  };
  const top = Math.min(anchor.bottom + 4, window.innerHeight - 420);
  return (
    <div ref={ref} className="popover menu message-menu" role="menu" aria-label="Message actions" style={{ top: Math.max(8, top), left: Math.max(8, anchor.right - 240) }}
      onKeyDown={(e) => {
        const items = [...(ref.current?.querySelectorAll('button') ?? [])];
        const i = items.indexOf(document.activeElement as HTMLButtonElement);
        if (e.key === 'ArrowDown') { e.preventDefault(); items[(i + 1) % items.length]?.focus(); }
        else if (e.key === 'ArrowUp') { e.preventDefault(); items[(i - 1 + items.length) % items.length]?.focus(); }
        else if (e.key === 'Escape') { e.preventDefault(); onClose(); }
      }}>
      <button role="menuitem" type="button" onClick={act(() => openCompose(targetOfMessage(m, me.userId)))}>Reply <span className="key">r</span></button>
      <button role="menuitem" type="button" onClick={act(() => void quoteAndReply(m))}>Quote and reply <span className="key">&gt;</span></button>
      <button role="menuitem" type="button" onClick={act(() => setUi({ overlay: { kind: 'emoji', messageId: m.id, anchor } }))}>Add emoji reaction <span className="key">:</span></button>
      <button role="menuitem" type="button" onClick={act(() => void setStarred(m.id, !starred))}>{starred ? 'Unstar message' : 'Star message'} <span className="key">*</span></button>
      {canEdit(m, me.userId, realm.allowEditing, realm.editLimitSeconds) && <button role="menuitem" type="button" onClick={act(() => void editMessage(m))}>Edit message <span className="key">e</span></button>}
      {m.type === 'stream' && <button role="menuitem" type="button" onClick={act(() => setUi({ overlay: { kind: 'dialog', dialog: 'move', messageId: m.id } }))}>Move messages…</button>}
      {(mine || me.isAdmin) && <button role="menuitem" type="button" onClick={act(() => setUi({ overlay: { kind: 'dialog', dialog: 'delete', messageId: m.id } }))}>Delete message…</button>}
      <hr />
      <button role="menuitem" type="button" onClick={act(() => void navigator.clipboard?.writeText(messageLink(m)))}>Copy link to message</button>
      <button role="menuitem" type="button" onClick={act(() => markUnreadHere(m.id))}>Mark as unread from here <span className="key">Shift+U</span></button>
      {m.type === 'stream' && (
        <button role="menuitem" type="button" onClick={act(() => void setTopicVisibility(m.stream_id!, m.subject, policy === 1 ? 0 : 1))}>
          {policy === 1 ? 'Unmute topic' : 'Mute topic'} <span className="key">Shift+M</span>
        </button>
      )}
      {m.type === 'stream' && (
        <button role="menuitem" type="button" onClick={act(() => void setTopicVisibility(m.stream_id!, m.subject, policy === 3 ? 0 : 3))}>
          {policy === 3 ? 'Unfollow topic' : 'Follow topic'}
        </button>
      )}
      {!mine && realm.moderationChannelId > 0 && <button role="menuitem" type="button" onClick={act(() => setUi({ overlay: { kind: 'dialog', dialog: 'report', messageId: m.id } }))}>Report message…</button>}
    </div>
  );
}
