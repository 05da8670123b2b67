// Which of a process's queues a logged event reaches, and in what form.
import type { LoggedEvent } from '../store/events.js';
import { accepts, flavourKey, reformat } from './filter.js';
import type { EventQueue } from './queue.js';

export interface QueueIndex {
  byUser: Map<number, Set<EventQueue>>;
  byRealm: Map<number, Set<EventQueue>>;
}

// Offers `e` to the queues of `index` (or to `only`). One event object is made per client flavour (and, for
// messages, per set of flags) and shared by the queues that get it, so that it is also serialized once
// (serializeEvents). `overflow` is called for a queue the event would make too long.
export function fanOut(e: LoggedEvent, index: QueueIndex, maxQueueLength: number, overflow: (q: EventQueue) => void, only?: EventQueue): void {
  const formatted = new Map<string, Record<string, unknown>>();
  // Guests who may not access a user the event shows get it with that user as a placeholder (`_blind_patch`).
  const blind = Array.isArray(e.event._blind) ? new Set(e.event._blind as number[]) : null;
  const offer = (q: EventQueue, flags: string[]) => {
    if (q.realmId !== e.realmId || e.id <= q.baseEventId) return;
    if (!accepts(q.options, e.event, flags)) return;
    const unknown = !!blind?.has(q.userId);
    const key = flavourKey(q.options) + (unknown ? '?' : '');
    let event = formatted.get(key);
    if (!event) formatted.set(key, (event = reformat(q.options, e.event, unknown)));
    if (e.event.type === 'message') {
      if (e.event._sender_queue_id === q.id) event = { ...event, flags, local_message_id: e.event._local_id };
      else {
        const flagged = `${key} ${flags.join(',')}`;
        const shared = formatted.get(flagged);
        if (shared) event = shared;
        else formatted.set(flagged, (event = { ...event, flags }));
      }
    }
    if (!q.push(e.id, event, maxQueueLength)) overflow(q);
  };
  const inRealm = () => (only ? [only] : index.byRealm.get(e.realmId) ?? []);
  // Public-channel messages also reach queues that asked for every public channel, or that have a narrow.
  if (e.event._public_channel) {
    const recipients = new Set((e.users ?? []).map((r) => (typeof r === 'number' ? r : r.id)));
    for (const q of inRealm()) {
      if (!recipients.has(q.userId) && q.options.readsPublicChannels && (q.options.allPublicStreams || q.options.narrow.length)) offer(q, []);
    }
  }
  if (e.users === null) {
    for (const q of inRealm()) offer(q, []);
    return;
  }
  for (const r of e.users) {
    const userId = typeof r === 'number' ? r : r.id;
    const flags = typeof r === 'number' ? [] : (r.flags ?? []);
    if (only) {
      if (only.userId === userId) offer(only, flags);
    } else for (const q of index.byUser.get(userId) ?? []) offer(q, flags);
  }
}
