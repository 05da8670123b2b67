// A process's queues and their rows in `event_queues`, which every process reads: positions saved, and what
// other processes did with the same queues (their clients poll any process) learned back.
import type { Db } from '../store/db.js';
import { queueRowStates, updateQueueRows } from '../store/events.js';
import { SLOT, type EventQueue } from './queue.js';

// How often positions are saved and compared; how often a queue whose poll stays parked is saved as polled; and
// so how long a row may look idle while its queue is in use.
export const SYNC_MS = 5_000;
const TOUCH_MS = 30_000;
export const SAVE_LAG_SECONDS = (TOUCH_MS + 3 * SYNC_MS) / 1000;

type Drop = (q: EventQueue, why: string) => void;

// Writes what changed; a parked poll counts as a poll now (again every TOUCH_MS while it stays parked), so that
// no process takes its queue for idle. Rows only move forward (updateQueueRows).
export async function saveQueues(db: Db, queues: EventQueue[]): Promise<void> {
  const now = Date.now();
  const due = queues.filter((q) => q.dirty || (q.parked && now - q.savedAt > TOUCH_MS));
  for (const q of due) {
    q.dirty = false;
    q.savedAt = now;
  }
  await updateQueueRows(
    db,
    due.map((q) => ({ id: q.id, lastPoll: Math.floor((q.parked ? now : q.lastActivity) / 1000), ackedEventId: q.acknowledgedLogId, lastId: q.lastId })),
  );
}

// A queue deleted elsewhere goes here too; one whose client now polls elsewhere forgets what was acknowledged
// there, and this copy goes once it has not been polled here for two heartbeat intervals. `held` tells whether
// a queue is still this process's (it may have gone while the rows were read).
export async function reconcileQueues(db: Db, queues: EventQueue[], heartbeatSeconds: number, held: (q: EventQueue) => boolean, drop: Drop): Promise<void> {
  if (!queues.length) return;
  const states = await queueRowStates(db, queues.map((q) => q.id));
  const now = Date.now();
  for (const q of queues) {
    if (!held(q)) continue;
    const state = states.get(q.id);
    if (!state) drop(q, 'deleted elsewhere');
    else if (!q.parked && state.lastPoll * 1000 > q.lastActivity + 1000) {
      q.forgetUpTo(state.ackedEventId * SLOT);
      if (now - q.lastActivity > heartbeatSeconds * 2000) drop(q, 'served elsewhere');
    }
  }
}

// Of the queues idle here, those no other process polled since (their rows look idle too): `collect` also
// deletes their rows, the others only go from this process.
export async function idleEverywhere(db: Db, idle: EventQueue[]): Promise<Set<EventQueue>> {
  const states = await queueRowStates(db, idle.map((q) => q.id));
  const nowSec = Math.floor(Date.now() / 1000);
  return new Set(idle.filter((q) => !(states.get(q.id) && states.get(q.id)!.lastPoll + q.idleTimeoutSecs > nowSec)));
}
