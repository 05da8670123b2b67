// Opening the compose box: for the conversation being read or the selected message's (reply), a new topic in the
// channel, a direct message, an edit or a quote; with the conversation's draft restored when the box is empty.
import type { Message } from '../api/types';
import { rawContent } from '../data/actions';
import { channelOf, dmOf, messageDmIds, topicOf } from '../data/narrow';
import { server, state } from '../data/session';
import { feedControl } from '../feed/control';
import { hashOf } from '../app/router';
import { setCompose, ui, type ComposeTarget } from '../app/ui';
import { latestDraft, saveDraftNow } from './drafts';
import { stopTyping } from './typing';

export const composeRefs: { textarea: HTMLTextAreaElement | null; topic: HTMLInputElement | null; to: HTMLInputElement | null } = { textarea: null, topic: null, to: null };

export function targetOfMessage(m: Message, me: number): ComposeTarget {
  return m.type === 'stream' ? { kind: 'stream', streamId: m.stream_id!, topic: m.subject } : { kind: 'dm', userIds: messageDmIds(m, me) };
}

// The conversation the view is about (a topic or direct messages), else the selected message's.
export function viewTarget(): ComposeTarget | null {
  const route = ui.get().route;
  if (route.view !== 'messages') return null;
  const channel = channelOf(route.terms);
  const topic = topicOf(route.terms);
  const dm = dmOf(route.terms);
  if (channel !== undefined && topic !== undefined) return { kind: 'stream', streamId: channel, topic };
  if (dm) return { kind: 'dm', userIds: dm };
  const selected = feedControl.current?.selected();
  if (selected) return targetOfMessage(selected, state().me.userId);
  if (channel !== undefined) return { kind: 'stream', streamId: channel, topic: '' };
  return null;
}

type Field = 'text' | 'topic' | 'to';
let pendingFocus: Field | null = null;

function fieldEl(which: Field): HTMLInputElement | HTMLTextAreaElement | null {
  return which === 'topic' ? composeRefs.topic : which === 'to' ? composeRefs.to : composeRefs.textarea;
}

function focusField(el: HTMLInputElement | HTMLTextAreaElement): void {
  pendingFocus = null;
  el.focus();
  if (el instanceof HTMLTextAreaElement) el.setSelectionRange(el.value.length, el.value.length);
}

// The field may not exist yet (the box renders after this state change): the request waits for it to mount
// (mountField), so keys typed right after the shortcut land in it.
function focusLater(which: Field): void {
  pendingFocus = which;
  requestAnimationFrame(() => {
    const el = fieldEl(which);
    if (el && pendingFocus === which) focusField(el);
  });
}

// The compose box's ref callbacks: they record the field and take a pending focus request.
export function mountField(which: Field, el: HTMLInputElement | HTMLTextAreaElement | null): void {
  if (which === 'topic') composeRefs.topic = el as HTMLInputElement | null;
  else if (which === 'to') composeRefs.to = el as HTMLInputElement | null;
  else composeRefs.textarea = el as HTMLTextAreaElement | null;
  if (el && pendingFocus === which) focusField(el);
}

const sameTarget = (a: ComposeTarget, b: ComposeTarget) =>
  a.kind === b.kind && (a.kind === 'stream' ? b.kind === 'stream' && a.streamId === b.streamId && a.topic.toLowerCase() === b.topic.toLowerCase() : b.kind === 'dm' && a.userIds.join() === b.userIds.join());

export function openCompose(target: ComposeTarget | null, focus?: 'text' | 'topic' | 'to'): void {
  const { compose } = ui.get();
  const t = target ?? compose.target;
  let text = compose.text;
  let draftId = compose.draftId;
  // Another conversation's text is saved as its draft, and this one's draft comes back.
  if (!sameTarget(t, compose.target) || !compose.open) {
    if (text.trim() && !sameTarget(t, compose.target)) {
      void saveDraftNow();
      text = '';
      draftId = undefined;
    }
    if (!text.trim()) {
      const d = latestDraft(t);
      text = d?.content ?? '';
      draftId = d?.id;
    }
  }
  setCompose({ open: true, target: t, text, draftId, editingId: undefined, preview: false });
  const where = focus ?? (t.kind === 'stream' ? (t.streamId === null ? 'topic' : t.topic || !target ? 'text' : 'topic') : t.userIds.length ? 'text' : 'to');
  focusLater(where);
}

export function reply(): void {
  openCompose(viewTarget() ?? { kind: 'stream', streamId: null, topic: '' });
}

export function replyToAuthor(): void {
  const m = feedControl.current?.selected();
  if (m) openCompose({ kind: 'dm', userIds: [m.sender_id] });
}

export function newTopic(): void {
  const view = viewTarget();
  const route = ui.get().route;
  const channel = route.view === 'messages' ? channelOf(route.terms) : undefined;
  const streamId = channel ?? (view?.kind === 'stream' ? view.streamId : null) ?? [...state().subs.keys()][0] ?? null;
  openCompose({ kind: 'stream', streamId, topic: '' }, 'topic');
}

export function newDirectMessage(): void {
  const view = viewTarget();
  openCompose(view?.kind === 'dm' ? view : { kind: 'dm', userIds: [] }, view?.kind === 'dm' ? 'text' : 'to');
}

export function closeCompose(): void {
  stopTyping();
  void saveDraftNow().then(() => setCompose({ open: false, text: '', draftId: undefined, editingId: undefined, preview: false, scheduling: false }));
  composeRefs.textarea?.blur();
}

export async function editMessage(m: Message): Promise<void> {
  const raw = await rawContent(m.id);
  setCompose({ open: true, target: targetOfMessage(m, state().me.userId), text: raw, editingId: m.id, draftId: undefined, preview: false });
  focusLater('text');
}

export async function quoteAndReply(m: Message): Promise<void> {
  const raw = await rawContent(m.id);
  const s = state();
  const link = `${location.origin}/${hashOf(nearRoute(m))}`;
  const quote = `@_**${m.sender_full_name}|${m.sender_id}** [said](${link}):\n\`\`\`quote\n${raw}\n\`\`\`\n`;
  const target = targetOfMessage(m, s.me.userId);
  openCompose(target);
  const current = ui.get().compose.text;
  setCompose({ text: current ? `${current}\n${quote}` : quote });
  focusLater('text');
}

export function nearRoute(m: Message) {
  const me = server.get()!.me.userId;
  const terms = m.type === 'stream'
    ? [{ operator: 'channel', operand: m.stream_id! }, { operator: 'topic', operand: m.subject }]
    : [{ operator: 'dm', operand: messageDmIds(m, me) }];
  return { view: 'messages' as const, terms, near: m.id };
}

// Text at the caret of the compose box (an emoji, an upload's link).
export function insertAtCaret(insert: string): void {
  const el = composeRefs.textarea;
  const text = ui.get().compose.text;
  const start = el ? el.selectionStart : text.length;
  const end = el ? el.selectionEnd : text.length;
  setCompose({ open: true, text: text.slice(0, start) + insert + text.slice(end) });
  requestAnimationFrame(() => {
    if (!el) return;
    el.focus();
    el.setSelectionRange(start + insert.length, start + insert.length);
  });
}

// ↑ in an empty compose box, or `e` with no message selected of one's own: the last message one sent here.
export function editLastOwn(): void {
  const m = feedControl.current?.lastOwn();
  if (m) void editMessage(m);
}
