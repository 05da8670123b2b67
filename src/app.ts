// What every action and route receives: configuration, the database and the process-wide services.
import type { Logger } from 'pino';
import type { Redis } from 'ioredis';
import type { Config } from './config.js';
import type { Db, Dialect } from './store/db.js';
import type { RateLimiter } from './http/rate-limit.js';
import type { PasswordHasher } from './lib/secrets.js';
import type { LoggedEvent } from './store/events.js';
import type { EventSystem } from './events/system.js';
import type { ObjectStorage } from './storage/index.js';

export interface App {
  config: Config;
  db: Db;
  // Long reads: the read pool in a serving process (src/store/read-pool.ts), else `db`.
  reads: Db;
  dialect: Dialect;
  log: Logger;
  // Set when REDIS_URL is: state shared with the other server processes.
  redis?: Redis;
  limiter: RateLimiter;
  passwords: PasswordHasher;
  storage: ObjectStorage;
  // Called after a commit with the events it logged; a serving process hands them to its queues.
  eventsCommitted(events: LoggedEvent[]): Promise<void> | void;
  // Present in a serving process; command-line tools only write the event log.
  events?: EventSystem;
  // The address a serving process listens on, once it does (the organization's URL without PARLANCE_EXTERNAL_URL).
  listenUrl?: string;
}

export const nowSeconds = () => Math.floor(Date.now() / 1000);
