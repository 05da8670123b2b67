// The event system of one server process: its queues, delivery from the event log, heartbeats, garbage
// collection, and restoring queues after a restart or a crash.
import crypto from 'node:crypto';
import type { App } from '../app.js';
import {
  deleteQueueRows, insertQueueRow, lastEventId, listQueueRows, pruneEvents, readEvents, updateQueueRows,
  type LoggedEvent,
} from '../store/events.js';
import { FEATURE_LEVEL, ZULIP_MERGE_BASE, ZULIP_VERSION } from '../version.js';
import { CHANGE_LOG_KEEP_SECONDS, pruneCacheChanges } from '../store/cache.js';
import { accepts, flavourKey, reformat } from './filter.js';
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
}

export class EventSystem {
  private queues = new Map<string, EventQueue>();
  private byUser = new Map<number, Set<EventQueue>>();
  private byRealm = new Map<number, Set<EventQueue>>();
  private lastSeen = 0; // highest event-log id delivered to this process's queues
  private chain: Promise<void> = Promise.resolve();
  private timers: NodeJS.Timeout[] = [];
  private started = Math.floor(Date.now() / 1000);
  private closed = false;

  constructor(private app: App, private settings: EventSettings) {}

  get size(): number {
    return this.queues.size;
  }

  get logPosition(): number {
    return this.lastSeen;
  }

  async start(): Promise<void> {
    this.lastSeen = await lastEventId(this.app.db);
    RESTART_EVENT.server_generation = this.started;
    for (const row of await listQueueRows(this.app.db)) {
      const q = new EventQueue(row.id, row.realmId, row.userId, row.options as unknown as QueueOptions, row.idleTimeout, row.baseEventId, row.created, row.lastId);
      q.lastActivity = row.lastPoll * 1000;
      q.replayUpTo = this.lastSeen;
      this.index(q);
    }
    const every = (ms: number, job: () => Promise<void> | void) => {
      const t = setInterval(() => void Promise.resolve().then(job).catch((err) => this.app.log.error({ err }, 'event system task failed')), ms);
      t.unref();
      this.timers.push(t);
    };
    every(this.settings.logPollMs, () => this.serial(() => this.drain()));
    every(this.settings.gcIntervalSeconds * 1000, () => this.collect());
    every(5_000, () => this.flush());
  }

  // Work on the queues runs one job at a time, so events reach every queue in log order.
  private serial(job: () => Promise<void> | void): Promise<void> {
    const next = this.chain.then(job);
    this.chain = next.catch((err) => this.app.log.error({ err }, 'event delivery failed'));
    return next;
  }

  // Called after a commit in this process. Contiguous events are delivered from memory; a gap means another
  // process wrote to the log, so read it in order. Resolves once they are in the queues (never rejects: a
  // failure is logged, and the periodic read of the log delivers them later).
  committed(events: LoggedEvent[]): Promise<void> {
    return this.serial(async () => {
      if (events[0].id === this.lastSeen + 1) events.forEach((e) => this.deliver(e));
      else await this.drain();
    }).catch(() => {});
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
    // One event object per flavour (and, for messages, per set of flags), shared by the queues that get it, so
    // that it is also serialized once (serializeEvents).
    const formatted = new Map<string, Record<string, unknown>>();
    const offer = (q: EventQueue, flags: string[]) => {
      if (q.realmId !== e.realmId || e.id <= q.baseEventId) return;
      if (!accepts(q.options, e.event, flags)) return;
      const key = flavourKey(q.options);
      let event = formatted.get(key);
      if (!event) formatted.set(key, (event = reformat(q.options, e.event)));
      if (e.event.type === 'message') {
        if (e.event._sender_queue_id === q.id) event = { ...event, flags, local_message_id: e.event._local_id };
        else {
          const flagged = `${key} ${flags.join(',')}`;
          const shared = formatted.get(flagged);
          if (shared) event = shared;
          else formatted.set(flagged, (event = { ...event, flags }));
        }
      }
      if (!q.push(e.id, event, this.settings.maxQueueLength)) this.remove(q, 'overflow');
    };
    // Public-channel messages also reach queues that asked for every public channel, or that have a narrow.
    if (e.event._public_channel) {
      const recipients = new Set((e.users ?? []).map((r) => (typeof r === 'number' ? r : r.id)));
      for (const q of only ? [only] : this.byRealm.get(e.realmId) ?? []) {
        if (!recipients.has(q.userId) && q.options.readsPublicChannels && (q.options.allPublicStreams || q.options.narrow.length)) offer(q, []);
      }
    }
    if (e.users === null) {
      for (const q of only ? [only] : this.byRealm.get(e.realmId) ?? []) offer(q, []);
      return;
    }
    for (const r of e.users) {
      const userId = typeof r === 'number' ? r : r.id;
      const flags = typeof r === 'number' ? [] : (r.flags ?? []);
      if (only) {
        if (only.userId === userId) offer(only, flags);
      } else for (const q of this.byUser.get(userId) ?? []) offer(q, flags);
    }
  }

  // A new queue receives every event logged after `baseEventId`, the log position its state was read at.
  async register(realmId: number, userId: number, options: QueueOptions, idleTimeoutSecs: number, baseEventId: number): Promise<EventQueue> {
    const now = Math.floor(Date.now() / 1000);
    const q = new EventQueue(crypto.randomUUID(), realmId, userId, options, idleTimeoutSecs, baseEventId, now);
    await insertQueueRow(this.app.db, {
      id: q.id, realmId, userId, options: options as unknown as Record<string, unknown>, created: now, lastPoll: now,
      idleTimeout: idleTimeoutSecs, baseEventId, ackedEventId: baseEventId, lastId: q.lastId,
    });
    await this.serial(async () => {
      for (let after = baseEventId; after < this.lastSeen; ) {
        const rows = await readEvents(this.app.db, after, { upTo: this.lastSeen, realmId, limit: 1000 });
        rows.forEach((e) => this.deliver(e, q));
        if (rows.length < 1000) break;
        after = rows[rows.length - 1].id;
      }
      this.index(q);
    });
    return q;
  }

  private index(q: EventQueue): void {
    this.queues.set(q.id, q);
    const add = <K>(map: Map<K, Set<EventQueue>>, key: K) => {
      let set = map.get(key);
      if (!set) map.set(key, (set = new Set()));
      set.add(q);
    };
    add(this.byUser, q.userId);
    add(this.byRealm, q.realmId);
  }

  access(queueId: string, userId: number): EventQueue {
    const q = this.queues.get(queueId);
    if (!q || q.userId !== userId) throw new BadEventQueueIdError(queueId);
    return q;
  }

  // After a restart the client's acknowledged id tells where its queue stood: replay its events from the log
  // up to the restart, then a restart event, then what arrived since (which kept arriving meanwhile).
  resync(q: EventQueue, lastEventId: number): Promise<void> {
    if (q.replayUpTo === null) return Promise.resolve();
    q.resyncing ??= this.replay(q, q.replayUpTo, lastEventId).finally(() => (q.resyncing = null));
    return q.resyncing;
  }

  private async replay(q: EventQueue, upTo: number, lastEventId: number): Promise<void> {
    const acked = Math.max(lastEventId, q.baseEventId * SLOT);
    const past = new EventQueue(q.id, q.realmId, q.userId, q.options, q.idleTimeoutSecs, q.baseEventId, q.created, acked);
    for (let after = Math.floor(acked / SLOT); after < upTo; ) {
      const rows = await readEvents(this.app.db, after, { upTo, realmId: q.realmId, limit: 1000 });
      rows.forEach((e) => this.deliver(e, past));
      if (past.events.length >= this.settings.maxQueueLength) {
        this.remove(q, 'overflow');
        throw new BadEventQueueIdError(q.id);
      }
      if (rows.length < 1000) break;
      after = rows[rows.length - 1].id;
    }
    if (!q.options.eventTypes || q.options.eventTypes.includes('restart')) past.pushLocal(RESTART_EVENT, upTo);
    q.events = [...past.events, ...q.events];
    q.lastId = Math.max(q.lastId, past.lastId);
    q.newestPrunedId = lastEventId;
    q.replayUpTo = null;
    q.dirty = true;
  }

  // Resolves once the events committed in this process so far are in their queues (delivery runs after the
  // commit, so a client that made a change and polls at once would otherwise race it).
  delivered(): Promise<void> {
    return this.chain;
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
    return new Promise((resolve) => {
      const jitter = this.settings.heartbeatSeconds >= 20 ? (Math.random() - 0.5) * 0.2 : 0;
      q.park(resolve, this.settings.heartbeatSeconds * 1000 * (1 + jitter), () => this.lastSeen, this.settings.coalesceMs);
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

  private remove(q: EventQueue, why: string): void {
    if (!this.queues.delete(q.id)) return;
    this.byUser.get(q.userId)?.delete(q);
    this.byRealm.get(q.realmId)?.delete(q);
    if (this.byUser.get(q.userId)?.size === 0) this.byUser.delete(q.userId);
    if (this.byRealm.get(q.realmId)?.size === 0) this.byRealm.delete(q.realmId);
    q.finishPoll();
    if (why !== 'deleted') void deleteQueueRows(this.app.db, [q.id]).catch(() => {});
    this.app.log.debug({ queue: q.id, why }, 'event queue removed');
  }

  private async collect(): Promise<void> {
    const now = Date.now();
    const idle = [...this.queues.values()].filter((q) => q.isIdle(now));
    idle.forEach((q) => this.remove(q, 'idle'));
    await this.flush();
    await pruneEvents(this.app.db, Math.floor(now / 1000) - 600);
    await pruneCacheChanges(this.app.db, Math.floor(now / 1000) - CHANGE_LOG_KEEP_SECONDS);
  }

  private async flush(): Promise<void> {
    const dirty = [...this.queues.values()].filter((q) => q.dirty);
    dirty.forEach((q) => (q.dirty = false));
    await updateQueueRows(
      this.app.db,
      dirty.map((q) => ({ id: q.id, lastPoll: Math.floor(q.lastActivity / 1000), ackedEventId: q.acknowledgedLogId, lastId: q.lastId })),
    );
  }

  // Finishes parked polls so the HTTP server can close, and saves every queue's position.
  async close(): Promise<void> {
    this.closed = true;
    this.timers.forEach(clearInterval);
    for (const q of this.queues.values()) q.finishPoll();
    await this.chain;
    for (const q of this.queues.values()) q.dirty = true;
    await this.flush();
  }
}
