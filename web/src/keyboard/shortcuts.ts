// The keyboard: the reference's shortcuts, acting on the selected message of the current view (feed/control.ts)
// or on the app. Keys typed into a field are the field's, but for Esc.
import { setStarred, setTopicVisibility, toggleReaction } from '../data/actions';
import { markUnreadHere } from '../feed/reading';
import { channelOf, topicKey, topicOf } from '../data/narrow';
import { countsOf, dmConversations } from '../data/selectors';
import { server } from '../data/session';
import { closeCompose, composeRefs, editLastOwn, editMessage, newDirectMessage, newTopic, quoteAndReply, replyToAuthor, reply } from '../compose/open';
import { feedControl } from '../feed/control';
import { canEdit } from '../feed/MessageMenu';
import { searchRefs } from '../search/SearchBox';
import { closeSettings, navigate } from '../app/router';
import { setUi, ui } from '../app/ui';

const inField = (el: Element | null) => !!el && (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement || (el as HTMLElement).isContentEditable);

// The next topic with unread messages after the current one (channels in sidebar order), and the next
// direct-message conversation with unread messages.
function nextUnreadTopic(): void {
  const s = server.get()!;
  const counts = countsOf(s);
  const convs = [...s.unread.convs.values()].filter((c) => c.kind === 'stream' && counts.topics.get(topicKey(c.streamId, c.topic)) && counts.streams.get(c.streamId));
  if (!convs.length) return;
  const route = ui.get().route;
  const terms = route.view === 'messages' ? route.terms : [];
  const here = `${channelOf(terms)}:${topicOf(terms)?.toLowerCase()}`;
  const ordered = convs.sort((a, b) => {
    const an = s.subs.get((a as { streamId: number }).streamId)?.name ?? '';
    const bn = s.subs.get((b as { streamId: number }).streamId)?.name ?? '';
    return an.localeCompare(bn) || a.ids[0] - b.ids[0];
  }) as { streamId: number; topic: string }[];
  const i = ordered.findIndex((c) => `${c.streamId}:${c.topic.toLowerCase()}` === here);
  const next = ordered[(i + 1) % ordered.length];
  navigate({ view: 'messages', terms: [{ operator: 'channel', operand: next.streamId }, { operator: 'topic', operand: next.topic }] });
}

function nextUnreadDm(): void {
  const s = server.get()!;
  const counts = countsOf(s);
  const convs = dmConversations(s.recentDms, s.unread).filter((c) => counts.dms.get(c.key));
  if (convs.length) navigate({ view: 'messages', terms: [{ operator: 'dm', operand: convs[0].userIds }] });
}

function goToConversation(): void {
  const m = feedControl.current?.selected();
  const route = ui.get().route;
  if (!m || route.view !== 'messages') return;
  if (m.type === 'private') return navigate({ view: 'messages', terms: [{ operator: 'dm', operand: Array.isArray(m.display_recipient) ? m.display_recipient.map((r) => r.id).filter((id) => id !== server.get()!.me.userId) : [] }], near: m.id });
  const inTopic = topicOf(route.terms) !== undefined && channelOf(route.terms) === m.stream_id;
  navigate(inTopic
    ? { view: 'messages', terms: [{ operator: 'channel', operand: m.stream_id! }], near: m.id }
    : { view: 'messages', terms: [{ operator: 'channel', operand: m.stream_id! }, { operator: 'topic', operand: m.subject }], near: m.id });
}

function escape(): void {
  const u = ui.get();
  if (u.overlay) return setUi({ overlay: null });
  if (u.settings) return closeSettings();
  if (u.compose.open) return closeCompose();
  if (u.leftOpen) return setUi({ leftOpen: false });
  if (server.get()?.settings.web_escape_navigates_to_home_view !== false && !(u.route.view === 'inbox')) navigate({ view: 'inbox' });
}

type Handler = (e: KeyboardEvent) => void;

const withSelected = (fn: (m: NonNullable<ReturnType<NonNullable<typeof feedControl.current>['selected']>>) => void) => () => {
  const m = feedControl.current?.selected();
  if (m) fn(m);
};

const KEYS: Record<string, Handler> = {
  '?': () => setUi({ overlay: { kind: 'help' } }),
  '/': () => searchRefs.input?.focus(),
  j: () => feedControl.current?.move(1),
  k: () => feedControl.current?.move(-1),
  ArrowDown: () => feedControl.current?.move(1),
  ArrowUp: () => feedControl.current?.move(-1),
  Home: () => feedControl.current?.move('first'),
  End: () => feedControl.current?.move('last'),
  PageDown: () => feedControl.current?.move(10),
  PageUp: () => feedControl.current?.move(-10),
  n: nextUnreadTopic,
  p: nextUnreadDm,
  s: goToConversation,
  r: reply,
  Enter: reply,
  R: replyToAuthor,
  '>': withSelected((m) => void quoteAndReply(m)),
  c: newTopic,
  x: newDirectMessage,
  e: () => {
    const m = feedControl.current?.selected();
    const s = server.get()!;
    if (m && canEdit(m, s.me.userId, s.realm.allowEditing, s.realm.editLimitSeconds)) void editMessage(m);
    else editLastOwn();
  },
  ':': withSelected((m) => {
    const at = document.querySelector(`#message-${m.id} .message-controls`) ?? document.getElementById(`message-${m.id}`);
    setUi({ overlay: { kind: 'emoji', messageId: m.id, anchor: at?.getBoundingClientRect() } });
  }),
  '+': withSelected((m) => {
    const first = m.reactions[0];
    void toggleReaction(m, first ? { name: first.emoji_name, code: first.emoji_code, type: first.reaction_type } : { name: '+1', code: '1f44d', type: 'unicode_emoji' });
  }),
  i: withSelected((m) => {
    const row = document.querySelector(`#message-${m.id} .message-controls`) ?? document.getElementById(`message-${m.id}`);
    const rect = row?.getBoundingClientRect() ?? new DOMRect(window.innerWidth / 2, window.innerHeight / 3, 0, 0);
    setUi({ overlay: { kind: 'message-menu', messageId: m.id, anchor: rect } });
  }),
  '*': withSelected((m) => void setStarred(m.id, !m.flags.includes('starred'))),
  U: withSelected((m) => markUnreadHere(m.id)),
  M: withSelected((m) => {
    if (m.type !== 'stream') return;
    const policy = server.get()!.userTopics.get(topicKey(m.stream_id!, m.subject)) ?? 0;
    void setTopicVisibility(m.stream_id!, m.subject, policy === 1 ? 0 : 1);
  }),
  q: () => {
    setUi({ leftOpen: true });
    requestAnimationFrame(() => document.getElementById('channel-filter')?.focus());
  },
  w: () => document.getElementById('user-filter')?.focus(),
  d: () => navigate({ view: 'drafts' }),
  I: () => navigate({ view: 'inbox' }),
  t: () => navigate({ view: 'recent' }),
  a: () => navigate({ view: 'messages', terms: [] }),
};

export function installShortcuts(): void {
  document.addEventListener('keydown', (e) => {
    if (e.defaultPrevented || e.isComposing) return;
    const active = document.activeElement;
    if (e.key === 'Escape') {
      if (inField(active) && active !== composeRefs.textarea) {
        (active as HTMLElement).blur();
        return;
      }
      e.preventDefault();
      return escape();
    }
    if (inField(active) || e.ctrlKey || e.metaKey || e.altKey) return;
    // Inside a menu, a dialog or a button, arrows and Enter are theirs.
    if (active?.closest('[role="menu"], [role="dialog"], [role="listbox"]') || (e.key === 'Enter' && active instanceof HTMLButtonElement) || (e.key === 'Enter' && active instanceof HTMLAnchorElement)) return;
    if ((ui.get().overlay && e.key !== '?') || ui.get().settings) return;
    const handler = KEYS[e.key];
    if (!handler) return;
    e.preventDefault();
    handler(e);
  });
}
