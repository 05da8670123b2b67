// Watches the serving process's event loop: a request that keeps it busy stalls every other client, so each
// stall longer than PARLANCE_EVENT_LOOP_WARN_MS is logged (warn) with the requests that were running then. A
// timer every few tens of milliseconds notices how late it fires (a timer-drift check); requests are tracked
// from their arrival to the end of their response, each with its route pattern and, once authenticated, its user.
// Always on: the per-request cost is an object and two set operations, the timer's a call every 50 ms.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';

interface Running {
  method: string;
  route: string;
  userId: number | null;
  start: number;
  end: number; // 0 while running
}

const ENTRY = Symbol('parlance.inFlight');
const RECENT = 128; // finished requests kept, for stalls that end with the request that caused them
const LISTED = 10; // requests named in one log line

export class RequestTracker {
  readonly running = new Set<Running>();
  private recent: Running[] = [];
  private next = 0;

  install(http: FastifyInstance): void {
    // Callback hooks: async ones would cost promises on every request.
    http.addHook('onRequest', (req, _reply, done) => {
      const entry: Running = { method: req.method, route: req.routeOptions.url ?? req.url.split('?')[0], userId: null, start: performance.now(), end: 0 };
      (req.raw as unknown as Record<symbol, Running>)[ENTRY] = entry;
      this.running.add(entry);
      done();
    });
    http.addHook('onResponse', (req, _reply, done) => {
      const entry = (req.raw as unknown as Record<symbol, Running | undefined>)[ENTRY];
      if (entry) {
        entry.end = performance.now();
        this.running.delete(entry);
        this.recent[this.next] = entry;
        this.next = (this.next + 1) % RECENT;
      }
      done();
    });
  }

  noteUser(req: FastifyRequest, userId: number): void {
    const entry = (req.raw as unknown as Record<symbol, Running | undefined>)[ENTRY];
    if (entry) entry.userId = userId;
  }

  // Requests running at some time since `since`; parked long-polls (GET …/events), which wait rather than work,
  // are listed after the others.
  during(since: number, now: number) {
    const all = [...this.running, ...this.recent.filter((r) => r.end >= since)];
    const parked = (r: Running) => (r.method === 'GET' && r.route.endsWith('/events') ? 1 : 0);
    all.sort((a, b) => parked(a) - parked(b) || a.start - b.start);
    return {
      count: all.length,
      requests: all.slice(0, LISTED).map((r) => ({
        method: r.method, route: r.route, user_id: r.userId, running_ms: Math.round((r.end || now) - r.start), ...(r.end ? { finished: true } : {}),
      })),
    };
  }
}

// Starts the check; returns its stop function. `thresholdMs` 0 turns it off.
export function monitorEventLoop(log: Logger, tracker: RequestTracker, thresholdMs: number): () => void {
  if (thresholdMs <= 0) return () => {};
  const interval = Math.min(50, Math.max(10, Math.floor(thresholdMs / 2)));
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    const late = now - last - interval;
    last = now;
    if (late <= thresholdMs) return;
    const { count, requests } = tracker.during(now - late, now);
    log.warn({ event_loop_delay_ms: Math.round(late), requests_in_flight: count, requests }, `event loop blocked for ${Math.round(late)} ms`);
  }, interval);
  timer.unref();
  return () => clearInterval(timer);
}
