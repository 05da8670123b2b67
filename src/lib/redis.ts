// The optional Redis connection shared by a process's services (rate limits, event notifications).
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

export async function connectRedis(url: string, log: Logger): Promise<Redis> {
  // Commands fail fast while Redis is unreachable instead of queueing without bound; callers decide what a
  // failure means (rate limits let the request through, notifications fall back to reading the log).
  // Loaded only when configured (a server without Redis need not hold the client).
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: false });
  let warned = false;
  redis.on('error', (err) => {
    if (!warned) log.warn({ err }, 'redis connection error');
    warned = true;
  });
  redis.on('ready', () => (warned = false));
  try {
    await redis.connect();
  } catch (err) {
    // Stop reconnecting, so that the process exits and its supervisor starts it again later.
    redis.disconnect();
    throw err;
  }
  return redis;
}
