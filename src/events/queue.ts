// One client's event queue. Event ids are the event log's id times SLOT; events made for this queue alone
// (heartbeats, restart notices) take the ids in between, so ids increase and a queue can be rebuilt from the
// log after a restart or a crash.
import { ApiError } from '../lib/errors.js';
import { answerSoon, cancelAnswer } from './answers.js';
import { JsonText } from '../lib/json-text.js';

export const SLOT = 4096;

export interface QueueOptions {
  eventTypes: string[] | null;
  narrow: [string, string][];
  allPublicStreams: boolean;
  applyMarkdown: boolean;
  clientGravatar: boolean;
  slimPresence: boolean;
  capabilities: Record<string, boolean>;
  // Whether the user may read public channels without subscribing (not a guest): only then do messages of
  // public channels reach the queue through all_public_streams or a narrow.
  readsPublicChannels?: boolean;
}

export interface QueuedEvent {
  id: number;
  event: Record<string, unknown>;
}

type Waiter = (events: QueuedEvent[]) => void;

// An event object is shared by every queue (of one client flavour) it is delivered to, so its JSON is written once.
const serialized = new WeakMap<Record<string, unknown>, string>();

// The `events` array of a GET /events answer; each event gets its id, as the last key.
export function serializeEvents(events: QueuedEvent[]): JsonText {
  const parts = events.map(({ id, event }) => {
    let json = serialized.get(event);
    if (json === undefined) serialized.set(event, (json = JSON.stringify(event)));
    return json === '{}' ? `{"id":${id}}` : `${json.slice(0, -1)},"id":${id}}`;
  });
  return new JsonText(`[${parts.join(',')}]`);
}

export class BadEventQueueIdError extends ApiError {
  constructor(queueId: string) {
    super(`Bad event queue ID: ${queueId}`, 'BAD_EVENT_QUEUE_ID', 400, { queue_id: queueId });
  }
}

// Flag changes other than marking unread carry only message ids, so successive ones merge into one event.
function collapseKey(event: Record<string, unknown>): string | null {
  if (event.type !== 'update_message_flags') return null;
  if (event.op === 'remove' && event.flag === 'read') return null;
  return event.all ? `all_flags/${event.flag}/${event.op}` : `flags/${event.op}/${event.flag}`;
}

export class EventQueue {
  events: QueuedEvent[] = [];
  newestPrunedId = -1;
  lastId: number;
  lastActivity = Date.now();
  dirty = false;
  savedAt = 0; // when the queue's row was last written
  private waiter: Waiter | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private waking: NodeJS.Timeout | (() => void) | null = null;
  private lastAnswer = 0; // when the queue was last answered …
  private lastAnswered = 0; // … and the newest event id that answer carried
  private coalesceMs = 0;
  // Set on a queue restored after a restart: the log position up to which its events must be replayed on the
  // client's next poll, which tells how far it had got.
  replayUpTo: number | null = null;
  replayFrom = 0; // the log position the queue's row had acknowledged: the log may have been pruned below it
  restartNotice = false; // whether the replay begins with a restart event
  resyncing: Promise<void> | null = null;
  failure: Error | null = null; // why the queue was closed under a parked poll, for that poll's answer

  constructor(
    readonly id: string,
    readonly realmId: number,
    readonly userId: number,
    readonly options: QueueOptions,
    readonly idleTimeoutSecs: number,
    readonly baseEventId: number,
    readonly created: number,
    lastId?: number,
  ) {
    this.lastId = lastId ?? baseEventId * SLOT;
  }

  get acknowledgedLogId(): number {
    return Math.max(this.baseEventId, Math.floor(this.newestPrunedId / SLOT));
  }

  get parked(): boolean {
    return this.waiter !== null;
  }

  // Returns false when the event would make the queue longer than `max`.
  push(logId: number, event: Record<string, unknown>, max: number): boolean {
    const id = logId * SLOT;
    if (id <= this.lastId) return true; // already delivered (replay overlap)
    const key = collapseKey(event);
    if (key) {
      const i = this.events.findIndex((e) => collapseKey(e.event) === key);
      if (i >= 0) {
        const old = this.events.splice(i, 1)[0].event;
        const messages = [...new Set([...(old.messages as number[]), ...(event.messages as number[])])];
        event = { ...event, messages };
      }
    }
    if (this.events.length >= max) return false;
    this.lastId = id;
    this.events.push({ id, event });
    this.dirty = true;
    this.wake();
    return true;
  }

  // An event for this queue alone: its id follows the last one, within the current log position's slot.
  pushLocal(event: Record<string, unknown>, logPosition: number): void {
    const floor = logPosition * SLOT;
    const next = Math.max(this.lastId, floor) + 1;
    const id = next % SLOT === 0 ? this.lastId : next; // a slot's local ids are exhausted: reuse the last
    this.lastId = id;
    this.events.push({ id, event });
    this.dirty = true;
    this.wake();
  }

  // Acknowledges every event up to `lastEventId`, as the reference server does, with its errors. One exception:
  // an id between log slots (a heartbeat or restart notice) that another process made for this queue, whose
  // client polls any process; it cannot be newer than the log position `logPosition`.
  acknowledge(lastEventId: number, logPosition: number): void {
    if (lastEventId < this.newestPrunedId) {
      throw new ApiError(`An event newer than ${lastEventId} has already been pruned!`);
    }
    this.forgetUpTo(lastEventId);
    if (lastEventId === this.newestPrunedId) return;
    if (lastEventId % SLOT !== 0 && Math.floor(lastEventId / SLOT) <= logPosition) {
      this.newestPrunedId = lastEventId;
      this.dirty = true;
      return;
    }
    throw new ApiError(`Event ${lastEventId} was not in this queue`);
  }

  // Drops the events up to `id`.
  forgetUpTo(id: number): void {
    let n = 0;
    while (n < this.events.length && this.events[n].id <= id) n++;
    if (n > 0) {
      this.newestPrunedId = Math.max(this.newestPrunedId, this.events[n - 1].id);
      this.events.splice(0, n);
      this.dirty = true;
    }
  }

  // Parks a poll until an event arrives. Events that arrived since the queue was last answered, less than
  // `coalesceMs` ago, wait out the rest of that time (see wake).
  park(waiter: Waiter, heartbeatMs: number, logPosition: () => number, coalesceMs = 0): void {
    this.finishPoll();
    this.waiter = waiter;
    this.coalesceMs = coalesceMs;
    this.heartbeat = setTimeout(() => this.pushLocal({ type: 'heartbeat' }, logPosition()), heartbeatMs);
    if (this.events.length) this.wake();
  }

  // Whether events waiting now are new since an answer less than `ms` ago (events sent before and not yet
  // acknowledged are sent again at once).
  coalescing(ms: number): boolean {
    return this.events[this.events.length - 1].id > this.lastAnswered && Date.now() - this.lastAnswer < ms;
  }

  answered(): void {
    this.lastAnswer = Date.now();
    this.lastAnswered = this.events.length ? this.events[this.events.length - 1].id : this.lastAnswered;
  }

  // Answers the parked poll, if any, with what the queue holds.
  finishPoll(): void {
    const waiter = this.waiter;
    if (!waiter) return;
    this.waiter = null;
    if (this.heartbeat) clearTimeout(this.heartbeat);
    this.heartbeat = null;
    this.cancelWake();
    this.lastActivity = Date.now();
    this.answered();
    waiter(this.events.slice());
  }

  // The parked poll's client went away: keep the queue, forget the request.
  abandonPoll(waiter: Waiter): void {
    if (this.waiter !== waiter) return;
    this.waiter = null;
    if (this.heartbeat) clearTimeout(this.heartbeat);
    this.heartbeat = null;
    this.cancelWake();
    this.lastActivity = Date.now();
  }

  // The parked poll is answered once this turn of the event loop is over (with the others due, in slices:
  // src/events/answers.ts), with every event that arrived in it (a group commit delivers several messages at
  // once) — or, when the queue was answered less than coalesceMs ago, once that time is up: under a flood of events each poll then carries many, and the server answers
  // fewer polls (at most one per coalesceMs per queue) for the same events.
  private wake(): void {
    if (!this.waiter || this.waking) return;
    const delay = this.lastAnswer + this.coalesceMs - Date.now();
    const answer = () => {
      this.waking = null;
      this.finishPoll();
    };
    if (delay > 0) this.waking = setTimeout(answer, delay);
    else answerSoon((this.waking = answer));
  }

  private cancelWake(): void {
    if (!this.waking) return;
    if (typeof this.waking === 'function') cancelAnswer(this.waking);
    else clearTimeout(this.waking);
    this.waking = null;
  }

  isIdle(now: number): boolean {
    return !this.waiter && now - this.lastActivity >= this.idleTimeoutSecs * 1000;
  }
}
