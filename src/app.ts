// What every action and route receives: configuration, the database and the process-wide services.
import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { Db, Dialect } from './store/db.js';
import type { RateLimiter } from './http/rate-limit.js';
import type { PasswordHasher } from './lib/secrets.js';

export interface App {
  config: Config;
  db: Db;
  dialect: Dialect;
  log: Logger;
  limiter: RateLimiter;
  passwords: PasswordHasher;
}

export const nowSeconds = () => Math.floor(Date.now() / 1000);
