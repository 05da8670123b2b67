// Events about messages: new ones, edits and moves, deletions, reactions.
import type { Message, Reaction, ServerEvent } from '../../api/types';
import type { Draft } from '../draft';
import { addMoved, addNew, removeIds } from '../lists';
import { conversationKey, matches, messageDmIds, dmKey, topicKey, type MatchContext } from '../narrow';
import type { State, TopicInfo } from '../state';
import { addUnread, removeUnread, type Where } from '../unread';

export const MENTION_FLAGS = ['mentioned', 'wildcard_mentioned', 'stream_wildcard_mentioned', 'topic_wildcard_mentioned'];
export const isMentioned = (flags: string[]) => MENTION_FLAGS.some((f) => flags.includes(f));

export function matchContext(s: Pick<State, 'me' | 'userTopics'>): MatchContext {
  return { me: s.me.userId, followed: (streamId, topic) => s.userTopics.get(topicKey(streamId, topic)) === 3 };
}

export function whereOf(m: Message, me: number): Where {
  return m.type === 'stream' ? { kind: 'stream', streamId: m.stream_id!, topic: m.subject } : { kind: 'dm', userIds: messageDmIds(m, me) };
}

export function noteTopic(d: Draft, streamId: number, topic: string, id: number): void {
  const known = d.get('topics').get(streamId);
  if (!known) return; // fetched when first shown
  const lower = topic.toLowerCase();
  const rest = known.filter((t) => t.name.toLowerCase() !== lower);
  const current = known.find((t) => t.name.toLowerCase() === lower);
  const entry: TopicInfo = { name: topic, maxId: Math.max(id, current?.maxId ?? 0) };
  d.mut('topics').set(streamId, [entry, ...rest].sort((a, b) => b.maxId - a.maxId));
}

export function addMessage(d: Draft, m: Message): void {
  const me = d.get('me').userId;
  d.mut('messages').set(m.id, m);
  const ctx = matchContext({ me: d.get('me'), userTopics: d.get('userTopics') });
  const lists = d.get('lists');
  for (const [key, list] of lists) {
    const next = addNew(list, m.id, matches(list.terms, m, ctx));
    if (next !== list) d.mut('lists').set(key, next);
  }
  if (!m.flags.includes('read')) addUnread(d.mut('unread'), m.id, whereOf(m, me), isMentioned(m.flags));
  if (m.flags.includes('starred')) d.mut('starred').add(m.id);
  if (m.type === 'stream') noteTopic(d, m.stream_id!, m.subject, m.id);
  else {
    const key = dmKey(messageDmIds(m, me));
    if ((d.get('recentDms').get(key) ?? 0) < m.id) d.mut('recentDms').set(key, m.id);
  }
  // Whoever sends has stopped typing there.
  const conv = conversationKey(m, me);
  const typists = d.get('typing').get(conv);
  if (typists?.has(m.sender_id)) {
    const left = new Map(typists);
    left.delete(m.sender_id);
    if (left.size) d.mut('typing').set(conv, left);
    else d.mut('typing').delete(conv);
  }
}

function onMessage(d: Draft, e: ServerEvent): void {
  const m = e.message as Message;
  addMessage(d, { ...m, reactions: m.reactions ?? [], flags: (e.flags as string[]) ?? [] });
}

function onUpdateMessage(d: Draft, e: ServerEvent): void {
  const id = e.message_id as number | undefined;
  const messages = d.get('messages');
  if (id !== undefined && typeof e.rendered_content === 'string' && messages.has(id)) {
    const m = messages.get(id)!;
    const edited = e.rendering_only ? {} : { last_edit_timestamp: e.edit_timestamp as number };
    const flags = Array.isArray(e.flags) ? (e.flags as string[]) : m.flags;
    // Highlights of an earlier search no longer fit the new content.
    d.mut('messages').set(id, { ...m, content: e.rendered_content, flags, match_content: undefined, match_subject: undefined, ...edited });
    const unread = d.get('unread');
    if (unread.convOf.has(id) && isMentioned(flags) !== unread.mentions.has(id)) {
      const u = d.mut('unread');
      if (isMentioned(flags)) u.mentions.add(id);
      else u.mentions.delete(id);
    }
  }
  const newStream = e.new_stream_id as number | undefined;
  const newTopic = (e.subject ?? e.topic) as string | undefined;
  const ids = (e.message_ids as number[] | undefined) ?? [];
  if ((newStream === undefined && newTopic === undefined) || !ids.length) return;
  moveMessages(d, ids, newStream ?? (e.stream_id as number), newTopic, e.edit_timestamp as number);
}

function moveMessages(d: Draft, ids: number[], streamId: number, topic: string | undefined, at: number): void {
  const channelName = d.get('channels').get(streamId)?.name;
  const moved: Message[] = [];
  for (const id of ids) {
    const m = d.get('messages').get(id);
    if (m) {
      const next: Message = { ...m, stream_id: streamId, subject: topic ?? m.subject, display_recipient: channelName ?? m.display_recipient, last_moved_timestamp: at };
      d.mut('messages').set(id, next);
      moved.push(next);
    }
    // Unread messages move with their conversation even when the app holds no copy of them.
    const key = d.get('unread').convOf.get(id);
    if (key !== undefined) {
      const conv = d.get('unread').convs.get(key)!;
      if (conv.kind === 'stream') {
        const mentioned = d.get('unread').mentions.has(id);
        const u = d.mut('unread');
        removeUnread(u, id);
        addUnread(u, id, { kind: 'stream', streamId, topic: topic ?? conv.topic }, mentioned);
      }
    }
  }
  const ctx = matchContext({ me: d.get('me'), userTopics: d.get('userTopics') });
  for (const [key, list] of d.get('lists')) {
    let next = list;
    const out = new Set(moved.filter((m) => matches(list.terms, m, ctx) === false).map((m) => m.id));
    next = removeIds(next, out);
    for (const m of moved) if (matches(list.terms, m, ctx) === true) next = addMoved(next, m.id);
    if (next !== list) d.mut('lists').set(key, next);
  }
  if (topic !== undefined && moved.length) noteTopic(d, streamId, topic, Math.max(...moved.map((m) => m.id)));
}

function onDeleteMessage(d: Draft, e: ServerEvent): void {
  const ids = (e.message_ids as number[] | undefined) ?? (e.message_id !== undefined ? [e.message_id as number] : []);
  const gone = new Set(ids);
  for (const id of ids) {
    if (d.get('messages').has(id)) d.mut('messages').delete(id);
    if (d.get('unread').convOf.has(id) || d.get('unread').mentions.has(id)) removeUnread(d.mut('unread'), id);
    if (d.get('starred').has(id)) d.mut('starred').delete(id);
  }
  for (const [key, list] of d.get('lists')) {
    const next = removeIds(list, gone);
    if (next !== list) d.mut('lists').set(key, next);
  }
}

function onReaction(d: Draft, e: ServerEvent): void {
  const id = e.message_id as number;
  const m = d.get('messages').get(id);
  if (!m) return;
  const r: Reaction = { emoji_name: e.emoji_name as string, emoji_code: e.emoji_code as string, reaction_type: e.reaction_type as Reaction['reaction_type'], user_id: e.user_id as number };
  const same = (x: Reaction) => x.user_id === r.user_id && x.emoji_code === r.emoji_code && x.reaction_type === r.reaction_type;
  let reactions = m.reactions;
  if (e.op === 'add' && !reactions.some(same)) reactions = [...reactions, r];
  else if (e.op === 'remove') reactions = reactions.filter((x) => !same(x));
  if (reactions !== m.reactions) d.mut('messages').set(id, { ...m, reactions });
}

export const messageEvents: Record<string, (d: Draft, e: ServerEvent) => void> = {
  message: onMessage,
  update_message: onUpdateMessage,
  delete_message: onDeleteMessage,
  reaction: onReaction,
};
