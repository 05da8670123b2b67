// Logged events that change a user's queues instead of reaching them: every process holding one of the user's
// queues applies them in log order, so no event logged after the change reaches the queue under the old rights.
// The acting transaction also changed the queues' rows (store/queue-rows.ts), where processes that take a queue
// up later read its options.
import type { LoggedEvent } from '../store/events.js';
import type { EventQueue } from './queue.js';

export const QUEUE_CONTROL = '_queues';

export type QueueControl =
  // The user's role changed whether they may read public channels unsubscribed (all_public_streams, narrows).
  | { type: typeof QUEUE_CONTROL; op: 'rights'; reads_public_channels: boolean }
  // The user was deactivated: their queues are gone, and a parked poll is answered with `why`.
  | { type: typeof QUEUE_CONTROL; op: 'close' };

export const isQueueControl = (e: LoggedEvent) => e.event.type === QUEUE_CONTROL;

export function applyQueueControl(e: LoggedEvent, queues: Iterable<EventQueue>, close: (q: EventQueue) => void): void {
  const control = e.event as QueueControl;
  for (const q of [...queues]) {
    if (q.realmId !== e.realmId) continue;
    if (control.op === 'rights') q.options.readsPublicChannels = control.reads_public_channels;
    else close(q);
  }
}

// The queues to collect so that all of a process's queues together hold at most `maxEvents` events: those that
// hold the most (their clients are furthest behind) first.
export function overBudget(queues: Iterable<EventQueue>, maxEvents: number): EventQueue[] {
  const all = [...queues];
  let total = all.reduce((n, q) => n + q.events.length, 0);
  if (total <= maxEvents) return [];
  const out: EventQueue[] = [];
  for (const q of all.sort((a, b) => b.events.length - a.events.length)) {
    if (total <= maxEvents) break;
    total -= q.events.length;
    out.push(q);
  }
  return out;
}
