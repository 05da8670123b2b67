// Fixed-window request counters, kept in this process. The interface is small on purpose so that a shared
// store (Redis) can stand behind it when several processes serve one organization.
export interface Verdict {
  allowed: boolean;
  limit: number;
  remaining: number;
  resetAt: number; // UNIX seconds
  retryAfter: number; // seconds until the window resets
}

interface Window {
  count: number;
  resetAtMs: number;
}

export class RateLimiter {
  private windows = new Map<string, Window>();
  private sweeper: NodeJS.Timeout;

  constructor(private now: () => number = Date.now) {
    this.sweeper = setInterval(() => this.sweep(), 60_000);
    this.sweeper.unref();
  }

  private current(key: string, windowSeconds: number): Window {
    const now = this.now();
    let w = this.windows.get(key);
    if (!w || w.resetAtMs <= now) {
      w = { count: 0, resetAtMs: now + windowSeconds * 1000 };
      this.windows.set(key, w);
    }
    return w;
  }

  private verdict(w: Window, limit: number, allowed: boolean): Verdict {
    return {
      allowed,
      limit,
      remaining: Math.max(0, limit - w.count),
      resetAt: Math.ceil(w.resetAtMs / 1000),
      retryAfter: Math.max(0, (w.resetAtMs - this.now()) / 1000),
    };
  }

  // Counts one request against the key; refuses it once `limit` requests were made in the window.
  hit(key: string, limit: number, windowSeconds = 60): Verdict {
    const w = this.current(key, windowSeconds);
    if (w.count >= limit) return this.verdict(w, limit, false);
    w.count++;
    return this.verdict(w, limit, true);
  }

  // For buckets that count only failures: `hit` before the attempt, so that concurrent attempts cannot all pass
  // the check before any failure is counted, and `refund` the ones that succeed.
  refund(key: string): void {
    const w = this.windows.get(key);
    if (w && w.count > 0) w.count--;
  }

  private sweep(): void {
    const now = this.now();
    for (const [key, w] of this.windows) if (w.resetAtMs <= now) this.windows.delete(key);
  }

  close(): void {
    clearInterval(this.sweeper);
  }
}
