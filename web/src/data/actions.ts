// What a person does, as API calls. Changes whose outcome is certain (reading, starring) show at once and are
// confirmed by their events; sending shows the message as pending (outbox) until its event arrives.
import { api } from '../api/client';
import type { Endpoints } from '../api/endpoints.gen';
import type { Message } from '../api/types';
import { markRead as markReadIn, setFlag } from './events/flags';
import { apiNarrow, type Term } from './narrow';
import { produce } from './reduce';
import { currentQueueId, onEvents, server, state } from './session';
import { Store } from './store';

export type Target = { kind: 'stream'; streamId: number; topic: string } | { kind: 'dm'; userIds: number[] };

export interface OutboxItem {
  localId: string;
  target: Target;
  content: string;
  timestamp: number;
  status: 'sending' | 'failed';
  error?: string;
  sentId?: number;
}

export const outbox = new Store<OutboxItem[]>([]);
let localSeq = 0;

function targetParams(t: Target) {
  return t.kind === 'stream' ? { type: 'stream' as const, to: t.streamId, topic: t.topic } : { type: 'direct' as const, to: t.userIds };
}

// The message's own event removes it from the outbox (local_message_id), as may the answer when the event came
// first.
onEvents((events) => {
  const echoed = new Set(events.filter((e) => e.type === 'message' && typeof e.local_message_id === 'string').map((e) => e.local_message_id as string));
  if (echoed.size) outbox.update((items) => items.filter((i) => !echoed.has(i.localId)));
});

export async function sendMessage(target: Target, content: string): Promise<void> {
  const localId = `${Date.now()}.${++localSeq}`;
  outbox.update((items) => [...items, { localId, target, content, timestamp: Date.now() / 1000, status: 'sending' }]);
  await deliver(localId);
}

async function deliver(localId: string): Promise<void> {
  const item = outbox.get().find((i) => i.localId === localId);
  if (!item) return;
  try {
    const res: { id: number } = await api.call('POST /messages', { ...targetParams(item.target), content: item.content, queue_id: currentQueueId(), local_id: localId });
    outbox.update((items) => (state().messages.has(res.id) ? items.filter((i) => i.localId !== localId) : items.map((i) => (i.localId === localId ? { ...i, sentId: res.id } : i))));
  } catch (err) {
    outbox.update((items) => items.map((i) => (i.localId === localId ? { ...i, status: 'failed', error: (err as Error).message } : i)));
  }
}

export function retrySend(localId: string): Promise<void> {
  outbox.update((items) => items.map((i) => (i.localId === localId ? { ...i, status: 'sending', error: undefined } : i)));
  return deliver(localId);
}

export function discardUnsent(localId: string): void {
  outbox.update((items) => items.filter((i) => i.localId !== localId));
}

// Sent, but its event not yet here (a moment): such messages stay in the outbox until then, unless the state
// already holds them.
server.subscribe(() => {
  const s = server.get();
  const items = outbox.get();
  if (s && items.some((i) => i.sentId !== undefined && s.messages.has(i.sentId))) outbox.set(items.filter((i) => i.sentId === undefined || !s.messages.has(i.sentId)));
});

// Reading: shown at once, sent in one request per batch.
let pendingRead = new Set<number>();
let readTimer: ReturnType<typeof setTimeout> | undefined;

export function markRead(ids: number[]): void {
  const s = state();
  const fresh = ids.filter((id) => s.unread.convOf.has(id) || (s.messages.get(id) && !s.messages.get(id)!.flags.includes('read')));
  if (!fresh.length) return;
  server.update((st) => st && produce(st, (d) => markReadIn(d, fresh)));
  for (const id of fresh) pendingRead.add(id);
  readTimer ??= setTimeout(flushRead, 150);
}

async function flushRead(): Promise<void> {
  readTimer = undefined;
  const ids = [...pendingRead];
  pendingRead = new Set();
  if (ids.length) await api.call('POST /messages/flags', { messages: ids, op: 'add', flag: 'read' }).catch(() => {});
}

export async function markNarrowRead(terms: Term[]): Promise<void> {
  let anchor: number | string = 'oldest';
  for (let i = 0; i < 50; i++) {
    const res: { found_newest: boolean; last_processed_id: number | null } = await api.call('POST /messages/flags/narrow', {
      anchor: String(anchor), include_anchor: true, num_before: 0, num_after: 5000, narrow: apiNarrow([...terms, { operator: 'is', operand: 'unread' }]), op: 'add', flag: 'read',
    });
    if (res.found_newest || res.last_processed_id === null) return;
    anchor = res.last_processed_id + 1;
  }
}

export async function markUnreadFrom(terms: Term[], id: number): Promise<void> {
  // Reads still waiting to be sent would otherwise land after this, and win.
  clearTimeout(readTimer);
  await flushRead();
  await api.call('POST /messages/flags/narrow', { anchor: String(id), include_anchor: true, num_before: 0, num_after: 5000, narrow: apiNarrow(terms), op: 'remove', flag: 'read' });
}

export async function setStarred(id: number, on: boolean): Promise<void> {
  server.update((s) => s && produce(s, (d) => {
    setFlag(d, [id], 'starred', on);
    if (on) d.mut('starred').add(id);
    else d.mut('starred').delete(id);
  }));
  await api.call('POST /messages/flags', { messages: [id], op: on ? 'add' : 'remove', flag: 'starred' });
}

export interface EmojiChoice {
  name: string;
  code: string;
  type: 'unicode_emoji' | 'realm_emoji' | 'zulip_extra_emoji';
}

export async function toggleReaction(m: Message, emoji: EmojiChoice): Promise<void> {
  const me = state().me.userId;
  const mine = m.reactions.some((r) => r.user_id === me && r.emoji_code === emoji.code && r.reaction_type === emoji.type);
  const params = { emoji_name: emoji.name, emoji_code: emoji.code, reaction_type: emoji.type };
  if (mine) await api.call('DELETE /messages/{message_id}/reactions', params, { message_id: m.id });
  else await api.call('POST /messages/{message_id}/reactions', params, { message_id: m.id });
}

export async function rawContent(id: number): Promise<string> {
  const res: { message: { content: string } } = await api.call('GET /messages/{message_id}', { apply_markdown: false }, { message_id: id });
  return res.message.content;
}

export const editMessage = (id: number, content: string) => api.call('PATCH /messages/{message_id}', { content }, { message_id: id });
export const deleteMessage = (id: number) => api.call('DELETE /messages/{message_id}', {}, { message_id: id });

export function moveMessages(id: number, to: { topic?: string; streamId?: number }, propagate: 'change_one' | 'change_later' | 'change_all') {
  return api.call('PATCH /messages/{message_id}', { topic: to.topic, stream_id: to.streamId, propagate_mode: propagate }, { message_id: id });
}

export const reportMessage = (id: number, reportType: Endpoints['POST /messages/{message_id}/report']['report_type'], description: string) => api.call('POST /messages/{message_id}/report', { report_type: reportType, description }, { message_id: id });

export const setTopicVisibility = (streamId: number, topic: string, policy: number) => api.call('POST /user_topics', { stream_id: streamId, topic, visibility_policy: policy });

export const subscribe = (names: string[]) => api.call('POST /users/me/subscriptions', { subscriptions: names.map((name) => ({ name })) });
export const createChannel = (name: string, description: string, inviteOnly: boolean) =>
  api.call('POST /users/me/subscriptions', { subscriptions: [{ name, description }], invite_only: inviteOnly });
export const unsubscribe = (names: string[]) => api.call('DELETE /users/me/subscriptions', { subscriptions: names });
export const setSubscriptionProperty = (streamId: number, property: string, value: unknown) =>
  api.call('POST /users/me/subscriptions/properties', { subscription_data: [{ stream_id: streamId, property, value }] });

export const scheduleMessage = (target: Target, content: string, at: number) =>
  api.call('POST /scheduled_messages', { ...targetParams(target), content, scheduled_delivery_timestamp: at });
export const deleteScheduled = (id: number) => api.call('DELETE /scheduled_messages/{scheduled_message_id}', {}, { scheduled_message_id: id });

export async function loadTopics(streamId: number): Promise<void> {
  const res: { topics: { name: string; max_id: number }[] } = await api.call('GET /users/me/{stream_id}/topics', {}, { stream_id: streamId });
  server.update((s) => s && produce(s, (d) => d.mut('topics').set(streamId, res.topics.map((t) => ({ name: t.name, maxId: t.max_id })))));
}

export async function renderPreview(content: string): Promise<string> {
  const res: { rendered: string } = await api.call('POST /messages/render', { content });
  return res.rendered;
}

export const updateSetting = (name: string, value: unknown) => api.call('PATCH /settings', { [name]: value });
