// The event system of one server process: the queues it holds, delivery from the event log, heartbeats, garbage
// collection, and queues taken up from their rows — after a restart or a crash, or because their client polls
// this process while another one registered or served them (any process may serve any queue).
import crypto from 'node:crypto';
import type { Logger } from 'pino';
import type { Db, Dialect } from '../store/db.js';
import { deleteIdleQueueRows, deleteQueueRows, findQueueRow, lastEventId, pruneEvents, readEvents, type LoggedEvent } from '../store/events.js';
import { ApiError, UserDeactivatedError } from '../lib/errors.js';
import { insertQueueRowCapped } from '../store/queue-rows.js';
import { applyQueueControl, isQueueControl, overBudget } from './control.js';
import { pace } from '../lib/pace.js';
import { FEATURE_LEVEL, ZULIP_MERGE_BASE, ZULIP_VERSION } from '../version.js';
import { CHANGE_LOG_KEEP_SECONDS, pruneCacheChanges } from '../store/cache.js';
import { fanOut, type QueueIndex } from './fanout.js';
import type { LogNotifier } from './notifier.js';
import { idleEverywhere, reconcileQueues, saveQueues, SAVE_LAG_SECONDS, SYNC_MS } from './rows.js';
import { BadEventQueueIdError, EventQueue, SLOT, type QueueOptions, type QueuedEvent } from './queue.js';

const RESTART_EVENT = {
  type: 'restart',
  zulip_version: ZULIP_VERSION,
  zulip_merge_base: ZULIP_MERGE_BASE,
  zulip_feature_level: FEATURE_LEVEL,
  server_generation: 0,
};

export interface EventSettings {
  heartbeatSeconds: number;
  coalesceMs: number;
  gcIntervalSeconds: number;
  maxQueueLength: number;
  logPollMs: number;
  maxQueuesPerUser: number; // live queues one user may have, over all processes
  maxQueuedEvents: number; // events all of this process's queues may hold together
}

// What the event system needs of the process (the App, which holds the event system, has these): declared here
// so that src/app.ts and this file do not import each other.
export interface EventHost {
  db: Db;
  dialect: Dialect;
  log: Logger;
}

export class EventSystem {
  private queues = new Map<string, EventQueue>();
  private index: QueueIndex = { byUser: new Map(), byRealm: new Map() };
  private adopting = new Map<string, Promise<EventQueue | undefined>>();
  private lastSeen = 0; // highest event-log id delivered to this process's queues
  private chain: Promise<void> = Promise.resolve();
  private reading: Promise<void> | null = null; // a read of the log queued and not yet begun
  private announcing: number | null = null;
  private timers: NodeJS.Timeout[] = [];
  private startedMs = Date.now();
  private closed = false;
  notifier: LogNotifier | null = null;

  constructor(private app: EventHost, private settings: EventSettings) {}

  get size(): number {
    return this.queues.size;
  }

  get logPosition(): number {
    return this.lastSeen;
  }

  async start(): Promise<void> {
    this.lastSeen = await lastEventId(this.app.db);
    RESTART_EVENT.server_generation = Math.floor(this.startedMs / 1000);
    const every = (ms: number, job: () => Promise<void> | void) => {
      const t = setInterval(() => void Promise.resolve().then(job).catch((err) => this.app.log.error({ err }, 'event system task failed')), ms);
      t.unref();
      this.timers.push(t);
    };
    every(this.settings.logPollMs, () => this.logGrew());
    every(this.settings.gcIntervalSeconds * 1000, () => this.collect());
    every(SYNC_MS, () => this.sync());
  }

  // Work on the queues runs one job at a time, so events reach every queue in log order.
  private serial<T>(job: () => Promise<T> | T): Promise<T> {
    const next = this.chain.then(job);
    this.chain = next.then(
      () => {},
      (err) => this.app.log.error({ err }, 'event delivery failed'),
    );
    return next;
  }

  // Called after a commit in this process. Contiguous events are delivered from memory; a gap means another
  // process wrote to the log, so read it in order. Resolves once they are in the queues (never rejects: a
  // failure is logged, and the periodic read of the log delivers them later). Other processes are told.
  committed(events: LoggedEvent[]): Promise<void> {
    const delivered = this.serial(async () => {
      if (events[0].id === this.lastSeen + 1) {
        // A large change (a bulk subscription) makes many events for many queues: hand the event loop back
        // between slices of them. Later deliveries wait their turn (serial), so the order holds.
        for (const e of events) {
          this.deliver(e);
          await pace();
        }
      } else await this.drain();
    }).catch(() => {});
    this.announce(events[events.length - 1].id);
    return delivered;
  }

  // One notice per turn of the event loop carries every commit of that turn (a group commit makes several).
  private announce(position: number): void {
    if (!this.notifier) return;
    const pending = this.announcing !== null;
    this.announcing = Math.max(this.announcing ?? 0, position);
    if (pending) return;
    setImmediate(() => {
      const upTo = this.announcing!;
      this.announcing = null;
      this.notifier?.published(upTo);
    });
  }

  // The log may hold events this process has not read (another process's notice, or the periodic check).
  logGrew(position = Infinity): void {
    if (position > this.lastSeen && !this.closed) void this.readLog();
  }

  // Reads the log after the queued work; callers arriving before that read begins share it.
  private readLog(): Promise<void> {
    return (this.reading ??= this.serial(() => {
      this.reading = null;
      return this.drain();
    }));
  }

  private async drain(): Promise<void> {
    for (;;) {
      const rows = await readEvents(this.app.db, this.lastSeen, { limit: 1000 });
      rows.forEach((e) => this.deliver(e));
      if (rows.length < 1000) return;
    }
  }

  private deliver(e: LoggedEvent, only?: EventQueue): void {
    if (e.id > this.lastSeen) this.lastSeen = e.id;
    if (isQueueControl(e)) {
      const ids = new Set((e.users ?? []).map((r) => (typeof r === 'number' ? r : r.id)));
      const queues = only ? [only].filter((q) => ids.has(q.userId)) : [...ids].flatMap((id) => [...(this.index.byUser.get(id) ?? [])]);
      return applyQueueControl(e, queues, (q) => {
        q.failure = new UserDeactivatedError();
        this.remove(q, 'deactivated', true); // the deactivating transaction deleted the rows
      });
    }
    fanOut(e, this.index, this.settings.maxQueueLength, (q) => this.remove(q, 'overflow'), only);
  }

  // A new queue receives every event logged after `baseEventId`, the log position its state was read at. The
  // user's least recently polled queues beyond maxQueuesPerUser go (their rows at once; other processes' copies
  // when they next compare with the rows, see reconcileQueues).
  async register(realmId: number, userId: number, options: QueueOptions, idleTimeoutSecs: number, baseEventId: number): Promise<EventQueue> {
    const now = Math.floor(Date.now() / 1000);
    const q = new EventQueue(crypto.randomUUID(), realmId, userId, options, idleTimeoutSecs, baseEventId, now);
    await saveQueues(this.app.db, [...(this.index.byUser.get(userId) ?? [])]); // so that their rows tell who polled last
    const evicted = await insertQueueRowCapped(this.app.db, this.app.dialect, {
      id: q.id, realmId, userId, options: options as unknown as Record<string, unknown>, created: now, lastPoll: now,
      idleTimeout: idleTimeoutSecs, baseEventId, ackedEventId: baseEventId, lastId: q.lastId,
    }, this.settings.maxQueuesPerUser);
    for (const id of evicted) {
      const old = this.queues.get(id);
      if (old) this.remove(old, 'too many queues', true);
    }
    await this.serial(async () => {
      await this.deliverRange(q, baseEventId, this.lastSeen);
      this.indexQueue(q);
    });
    return q;
  }

  // Delivers to `q` alone its organization's logged events after `after` up to `upTo` (stopping once it is full).
  private async deliverRange(q: EventQueue, after: number, upTo: number): Promise<void> {
    while (after < upTo) {
      const rows = await readEvents(this.app.db, after, { upTo, realmId: q.realmId, limit: 1000 });
      rows.forEach((e) => this.deliver(e, q));
      if (rows.length < 1000 || q.events.length >= this.settings.maxQueueLength) return;
      after = rows[rows.length - 1].id;
    }
  }

  private indexQueue(q: EventQueue): void {
    this.queues.set(q.id, q);
    const add = <K>(map: Map<K, Set<EventQueue>>, key: K) => {
      let set = map.get(key);
      if (!set) map.set(key, (set = new Set()));
      set.add(q);
    };
    add(this.index.byUser, q.userId);
    add(this.index.byRealm, q.realmId);
  }

  async access(queueId: string, userId: number): Promise<EventQueue> {
    const q = this.queues.get(queueId) ?? (await this.adopt(queueId));
    if (!q || q.userId !== userId) throw new BadEventQueueIdError(queueId);
    return q;
  }

  // A queue this process does not hold. Its row tells where its client stood; the log holds its events, which
  // are replayed on this first poll (resync), after a restart notice if this process started since the queue
  // was last polled anywhere.
  private adopt(queueId: string): Promise<EventQueue | undefined> {
    let pending = this.adopting.get(queueId);
    if (!pending) {
      pending = this.load(queueId).finally(() => this.adopting.delete(queueId));
      this.adopting.set(queueId, pending);
    }
    return pending;
  }

  private async load(queueId: string): Promise<EventQueue | undefined> {
    if (this.closed) return undefined;
    const row = await findQueueRow(this.app.db, queueId);
    if (!row) return undefined;
    return this.serial(async () => {
      const held = this.queues.get(queueId);
      if (held) return held;
      // Read the log first: every event the queue's last process delivered to it is then at or below replayUpTo.
      await this.drain();
      const options = row.options as unknown as QueueOptions;
      const q = new EventQueue(row.id, row.realmId, row.userId, options, row.idleTimeout, row.baseEventId, row.created, row.lastId);
      q.lastActivity = row.lastPoll * 1000;
      q.replayUpTo = this.lastSeen;
      q.replayFrom = row.ackedEventId;
      // Whole seconds: a poll in the second this process started counts as before it (a notice too many at worst).
      q.restartNotice = row.lastPoll * 1000 < this.startedMs;
      this.indexQueue(q);
      return q;
    });
  }

  // On a queue's first poll in this process the client's acknowledged id tells where it stood: replay its events
  // from the log up to the moment it was taken up, then what arrived since (which kept arriving meanwhile).
  resync(q: EventQueue, lastEventId: number): Promise<void> {
    if (q.replayUpTo === null) return Promise.resolve();
    q.resyncing ??= this.replay(q, q.replayUpTo, lastEventId).finally(() => (q.resyncing = null));
    return q.resyncing;
  }

  private async replay(q: EventQueue, upTo: number, lastEventId: number): Promise<void> {
    // The log keeps what some queue has not acknowledged; older events may be gone.
    if (Math.max(Math.floor(lastEventId / SLOT), q.baseEventId) < q.replayFrom) throw new ApiError(`An event newer than ${lastEventId} has already been pruned!`);
    const acked = Math.max(lastEventId, q.baseEventId * SLOT);
    const past = new EventQueue(q.id, q.realmId, q.userId, q.options, q.idleTimeoutSecs, q.baseEventId, q.created, acked);
    await this.deliverRange(past, Math.floor(acked / SLOT), upTo);
    if (past.events.length >= this.settings.maxQueueLength) {
      this.remove(q, 'overflow');
      throw new BadEventQueueIdError(q.id);
    }
    if (q.restartNotice && (!q.options.eventTypes || q.options.eventTypes.includes('restart'))) past.pushLocal(RESTART_EVENT, upTo);
    q.events = [...past.events, ...q.events.filter((e) => e.id > past.lastId)];
    q.lastId = Math.max(q.lastId, past.lastId);
    q.newestPrunedId = lastEventId;
    q.replayUpTo = null;
    q.dirty = true;
  }

  // A client that polled another process last may have seen events this process has not read yet: read them
  // first, so that its queue here holds what it acknowledges.
  async acknowledge(q: EventQueue, lastEventId: number): Promise<void> {
    if (Math.floor(lastEventId / SLOT) > this.lastSeen) await this.readLog();
    q.acknowledge(lastEventId, this.lastSeen);
  }

  // Answers now when there is something to say (or dont_block), else parks the poll until an event or a
  // heartbeat. `onClose` registers a callback for the client going away.
  poll(q: EventQueue, dontBlock: boolean, onClose: (fn: () => void) => void): Promise<QueuedEvent[]> {
    q.lastActivity = Date.now();
    q.dirty = true;
    if ((q.events.length && !q.coalescing(this.settings.coalesceMs)) || dontBlock || this.closed) {
      q.finishPoll();
      q.answered();
      return Promise.resolve(q.events.slice());
    }
    return new Promise((resolve, reject) => {
      const jitter = this.settings.heartbeatSeconds >= 20 ? (Math.random() - 0.5) * 0.2 : 0;
      q.park((events) => (q.failure ? reject(q.failure) : resolve(events)), this.settings.heartbeatSeconds * 1000 * (1 + jitter), () => this.lastSeen, this.settings.coalesceMs);
      onClose(() => {
        q.abandonPoll(resolve);
        resolve([]);
      });
    });
  }

  async delete(q: EventQueue): Promise<void> {
    this.remove(q, 'deleted');
    await deleteQueueRows(this.app.db, [q.id]);
  }

  // `keepRow`: only this process's copy goes (the queue lives on in its row, for its client to poll elsewhere).
  private remove(q: EventQueue, why: string, keepRow = false): void {
    if (!this.queues.delete(q.id)) return;
    for (const [map, key] of [[this.index.byUser, q.userId], [this.index.byRealm, q.realmId]] as const) {
      map.get(key)?.delete(q);
      if (map.get(key)?.size === 0) map.delete(key);
    }
    q.finishPoll();
    if (why !== 'deleted' && !keepRow) void deleteQueueRows(this.app.db, [q.id]).catch(() => {});
    this.app.log.debug({ queue: q.id, why }, 'event queue removed');
  }

  // Queues idle here are dropped; their rows too unless another process polled them since. Rows no process has
  // polled for their idle timeout (a process died and its clients never came back) are deleted by any process.
  private async collect(): Promise<void> {
    const now = Date.now();
    const idle = [...this.queues.values()].filter((q) => q.isIdle(now));
    if (idle.length) {
      await this.flush();
      const gone = await idleEverywhere(this.app.db, idle);
      for (const q of idle) this.remove(q, 'idle', !gone.has(q));
    }
    await deleteIdleQueueRows(this.app.db, Math.floor(now / 1000), SAVE_LAG_SECONDS);
    await pruneEvents(this.app.db, Math.floor(now / 1000) - 600);
    await pruneCacheChanges(this.app.db, Math.floor(now / 1000) - CHANGE_LOG_KEEP_SECONDS);
  }

  private async sync(): Promise<void> {
    for (const q of overBudget(this.queues.values(), this.settings.maxQueuedEvents)) this.remove(q, 'memory');
    await this.flush();
    const held = (q: EventQueue) => this.queues.get(q.id) === q;
    await reconcileQueues(this.app.db, [...this.queues.values()], this.settings.heartbeatSeconds, held, (q, why) => this.remove(q, why, true));
  }

  private flush(): Promise<void> {
    return saveQueues(this.app.db, [...this.queues.values()]);
  }

  // Finishes parked polls so the HTTP server can close, and saves every queue's position.
  async close(): Promise<void> {
    this.closed = true;
    this.timers.forEach(clearInterval);
    for (const q of this.queues.values()) q.finishPoll();
    await this.chain;
    for (const q of this.queues.values()) q.dirty = true;
    await this.flush();
    await this.notifier?.close();
  }
}
