// How long new events for a flooded queue wait so that one answer carries them all (PARLANCE_EVENT_COALESCE_MS),
// lengthened while this process is busy. Each flooded queue is answered once per window whatever the message
// rate, and every answer costs the same HTTP work however many events it carries (the answer written, the next
// poll read, authenticated and parked again). A profile of B1 (100 pollers, a saturated server) put that work
// at about half of the server's CPU per message, with 10–40 answers per message: when the CPU is what runs out,
// fewer, fuller answers are what lets it keep up. A process with time to spare keeps the configured window, and
// a quiet queue is answered at once whatever the load (EventQueue.coalescing), so single events and I3 are as
// fast as before.
import { performance, type EventLoopUtilization } from 'node:perf_hooks';

// At most this much longer, at full load; nothing below half of the event loop's time busy.
export const MAX_EXTRA_MS = 80;
const BUSY_FROM = 0.5;
const SAMPLE_MS = 100;

export function coalesceWindow(baseMs: number, utilization: number): number {
  if (baseMs <= 0) return baseMs; // coalescing turned off stays off
  const load = Math.min(1, Math.max(0, (utilization - BUSY_FROM) / (1 - BUSY_FROM)));
  return baseMs + Math.round(load * MAX_EXTRA_MS);
}

// The window now, from the event loop's utilization over the last SAMPLE_MS.
export class CoalesceWindow {
  private last: EventLoopUtilization = performance.eventLoopUtilization();
  private utilization = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(private baseMs: number) {
    if (baseMs <= 0) return;
    this.timer = setInterval(() => {
      const now = performance.eventLoopUtilization();
      this.utilization = performance.eventLoopUtilization(now, this.last).utilization;
      this.last = now;
    }, SAMPLE_MS);
    this.timer.unref();
  }

  get ms(): number {
    return coalesceWindow(this.baseMs, this.utilization);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }
}
