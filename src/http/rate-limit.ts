// Fixed-window request counters. One process keeps them in memory; several processes serving one database
// share them in Redis (REDIS_URL), so a client cannot multiply its allowance by spreading requests.
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

export interface Verdict {
  allowed: boolean;
  limit: number;
  remaining: number;
  resetAt: number; // UNIX seconds
  retryAfter: number; // seconds until the window resets
}

export interface RateLimiter {
  // Counts `cost` (one request, or so many channels created) against the key; refuses once the window's count
  // would pass `limit` (a refused cost is not counted).
  hit(key: string, limit: number, windowSeconds?: number, cost?: number): Promise<Verdict>;
  // For buckets that count only failures: `hit` before the attempt (so that concurrent attempts cannot all pass
  // before any failure is counted), then `refund` one that succeeds; also for work that was counted and then
  // not done.
  refund(key: string, cost?: number): Promise<void>;
  // Takes `amount` from a budget of `limit` per window (bytes, say), in one step; refused, it takes nothing.
  spend(key: string, amount: number, limit: number, windowSeconds: number): Promise<Verdict>;
  close(): void;
}

function verdict(count: number, limit: number, allowed: boolean, resetAtMs: number, now: number): Verdict {
  return {
    allowed,
    limit,
    remaining: Math.max(0, limit - count),
    resetAt: Math.ceil(resetAtMs / 1000),
    retryAfter: Math.max(0, (resetAtMs - now) / 1000),
  };
}

interface Window {
  count: number;
  resetAtMs: number;
}

export class MemoryRateLimiter implements RateLimiter {
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

  async hit(key: string, limit: number, windowSeconds = 60, cost = 1): Promise<Verdict> {
    const w = this.current(key, windowSeconds);
    if (w.count + cost > limit) return verdict(w.count, limit, false, w.resetAtMs, this.now());
    w.count += cost;
    return verdict(w.count, limit, true, w.resetAtMs, this.now());
  }

  async refund(key: string, cost = 1): Promise<void> {
    const w = this.windows.get(key);
    if (w) w.count = Math.max(0, w.count - cost);
  }

  async spend(key: string, amount: number, limit: number, windowSeconds: number): Promise<Verdict> {
    const w = this.current(key, windowSeconds);
    const allowed = w.count + amount <= limit;
    if (allowed) w.count += amount;
    return verdict(w.count, limit, allowed, w.resetAtMs, this.now());
  }

  private sweep(): void {
    const now = this.now();
    for (const [key, w] of this.windows) if (w.resetAtMs <= now) this.windows.delete(key);
  }

  close(): void {
    clearInterval(this.sweeper);
  }
}

// One round trip per request: the counter and its expiry change together in a script, so a window always
// ends even if a process dies between the two.
const HIT = `
local c = redis.call('INCRBY', KEYS[1], ARGV[2])
if c == tonumber(ARGV[2]) then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {c, ttl}`;

const REFUND = `
local c = tonumber(redis.call('GET', KEYS[1]) or '0')
if c > 0 then redis.call('DECRBY', KEYS[1], math.min(c, tonumber(ARGV[1]))) end
return 0`;

const SPEND = `
local c = tonumber(redis.call('GET', KEYS[1]) or '0')
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then ttl = tonumber(ARGV[1]) end
if c + tonumber(ARGV[2]) > tonumber(ARGV[3]) then return {c, ttl, 0} end
c = redis.call('INCRBY', KEYS[1], ARGV[2])
if redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {c, ttl, 1}`;

// While Redis is unreachable requests are let through (and the failure logged): an outage of the limiter
// must not become an outage of the chat.
// The scripts are registered once: each call then sends the script's hash (EVALSHA), not its text.
type Scripts = Redis & {
  parlanceRateHit(key: string, windowMs: number, cost: number): Promise<[number, number]>;
  parlanceRateRefund(key: string, cost: number): Promise<number>;
  parlanceRateSpend(key: string, windowMs: number, amount: number, limit: number): Promise<[number, number, number]>;
};

export class RedisRateLimiter implements RateLimiter {
  private redis: Scripts;

  constructor(redis: Redis, private log: Logger, private prefix: string) {
    redis.defineCommand('parlanceRateHit', { numberOfKeys: 1, lua: HIT });
    redis.defineCommand('parlanceRateRefund', { numberOfKeys: 1, lua: REFUND });
    redis.defineCommand('parlanceRateSpend', { numberOfKeys: 1, lua: SPEND });
    this.redis = redis as Scripts;
  }

  async hit(key: string, limit: number, windowSeconds = 60, cost = 1): Promise<Verdict> {
    const now = Date.now();
    try {
      const [count, ttl] = await this.redis.parlanceRateHit(this.prefix + key, windowSeconds * 1000, cost);
      const allowed = count <= limit;
      // A refused request counts (a client that keeps trying stays refused), but a refused batch does not.
      if (!allowed && cost > 1) await this.refund(key, cost);
      return verdict(allowed ? count : count - (cost > 1 ? cost : 0), limit, allowed, now + ttl, now);
    } catch (err) {
      return this.failOpen(err, limit, windowSeconds, now);
    }
  }

  async refund(key: string, cost = 1): Promise<void> {
    await this.redis.parlanceRateRefund(this.prefix + key, cost).catch((err) => this.log.warn({ err }, 'rate limit store unavailable; refund skipped'));
  }

  async spend(key: string, amount: number, limit: number, windowSeconds: number): Promise<Verdict> {
    const now = Date.now();
    try {
      const [count, ttl, allowed] = await this.redis.parlanceRateSpend(this.prefix + key, windowSeconds * 1000, amount, limit);
      return verdict(count, limit, allowed === 1, now + ttl, now);
    } catch (err) {
      return this.failOpen(err, limit, windowSeconds, now);
    }
  }

  private failOpen(err: unknown, limit: number, windowSeconds: number, now: number): Verdict {
    this.log.warn({ err }, 'rate limit store unavailable; request allowed');
    return verdict(0, limit, true, now + windowSeconds * 1000, now);
  }

  close(): void {}
}
