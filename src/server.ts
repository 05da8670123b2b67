// Starts and stops one server process: database, services, HTTP.
import os from 'node:os';
import pino from 'pino';
import type { FastifyInstance } from 'fastify';
import type { App } from './app.js';
import type { Config } from './config.js';
import { buildHttp } from './http/server.js';
import { monitorEventLoop, RequestTracker } from './http/loop-monitor.js';
import { MemoryRateLimiter, RedisRateLimiter } from './http/rate-limit.js';
import { connectRedis } from './lib/redis.js';
import { passwordHasher } from './lib/secrets.js';
import { allRoutes } from './routes/index.js';
import { openDatabase, type Database } from './store/open.js';
import { EventSystem } from './events/system.js';
import { postgresNotifier, redisNotifier, type LogNotifier } from './events/notifier.js';
import { deliverDueScheduled } from './actions/scheduled-messages.js';
import { syncCaches } from './store/cache.js';
import { promoteFullMembers } from './actions/full-members.js';
import { reportIdentityCollisions } from './actions/identity.js';
import { openStorage } from './storage/index.js';
import { sweepStorage } from './actions/storage-sweep.js';
import { pushForCommitted } from './actions/push-notifications.js';
import { deliverMissedMessages, noticeMissedMessages } from './actions/missed-messages.js';
import { retryPendingRegistrations } from './actions/devices.js';
import { deliverDueMail } from './actions/mail.js';
import { openMailer } from './lib/mailer.js';
import { deliverDueWebhooks } from './actions/webhook-delivery.js';
import path from 'node:path';

// Members age into role:fullmembers in days; an hourly pass is prompt enough.
const FULL_MEMBER_PASS_MS = 3600_000;
// Queued outgoing-webhook triggers are looked for this often.
const WEBHOOK_POLL_MS = 500;
// Push registrations the bouncer has not answered are sent again this often.
const PUSH_RETRY_MS = 60_000;

export interface Running {
  app: App;
  http: FastifyInstance;
  url: string;
  close(): Promise<void>;
}

export async function openApp(config: Config, log = pino({ level: config.logLevel })): Promise<{ app: App; database: Database }> {
  const opened = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl, poolSize: config.dbPoolSize });
  const redis = config.redisUrl ? await connectRedis(config.redisUrl, log) : undefined;
  // The app's shared connections close together.
  const database: Database = { ...opened, close: async () => (await redis?.quit(), opened.close()) };
  const app: App = {
    config,
    db: database.db,
    reads: database.db,
    dialect: database.dialect,
    log,
    redis,
    limiter: redis ? new RedisRateLimiter(redis, log, `${config.redisPrefix}rl:`) : new MemoryRateLimiter(),
    passwords: passwordHasher(config.argon2MemoryKib),
    storage: openStorage(config),
    eventsCommitted: () => {},
  };
  return { app, database };
}

export async function startServer(config: Config): Promise<Running> {
  const { app, database } = await openApp(config);
  database.enableCache();
  database.checkpointInBackground(app.log);
  app.reads = database.openReadPool(config.readPoolSize ?? (app.dialect === 'sqlite' ? Math.min(4, os.availableParallelism() + 1) : 10));
  const events = new EventSystem(app, {
    heartbeatSeconds: config.heartbeatSeconds,
    coalesceMs: config.eventCoalesceMs,
    gcIntervalSeconds: config.queueGcIntervalSeconds,
    maxQueueLength: config.maxQueueLength,
    maxQueuesPerUser: config.maxQueuesPerUser,
    maxQueuedEvents: config.maxQueuedEvents,
    logPollMs: config.eventLogPollMs,
  });
  await events.start();
  events.notifier = await openNotifier(app, (position) => events.logGrew(position));
  app.events = events;
  app.eventsCommitted = (logged) => {
    pushForCommitted(app, logged);
    noticeMissedMessages(app, logged);
    return events.committed(logged);
  };
  const tracker = new RequestTracker();
  const http = await buildHttp(app, allRoutes(), tracker);
  const stopMonitor = monitorEventLoop(app.log, tracker, config.eventLoopWarnMs);
  const scheduled = startWorker(app, config.scheduledPollMs, deliverDueScheduled);
  const fullMembers = startWorker(app, FULL_MEMBER_PASS_MS, promoteFullMembers);
  const storage = startWorker(app, Math.max(1, config.storageSweepSeconds) * 1000, sweepStorage);
  const pushRegistrations = startWorker(app, PUSH_RETRY_MS, retryPendingRegistrations);
  const mailer = openMailer(config);
  const mail = startWorker(app, Math.max(100, config.mailPollMs), (a) => deliverDueMail(a, mailer));
  const webhooks = startWorker(app, WEBHOOK_POLL_MS, deliverDueWebhooks);
  const missed = startWorker(app, Math.max(100, config.mailPollMs), deliverMissedMessages);
  if (!config.smtpUrl) app.log.info(`PARLANCE_SMTP_URL is not set: outgoing mail is written to ${path.join(config.dataDir, 'outbox')}`);
  if (!config.pushBouncerUrl) app.log.info('PARLANCE_PUSH_BOUNCER_URL is not set: mobile push notifications are off');
  // Parked long-polls would hold the close open: answer them first, and save every queue's position.
  http.addHook('preClose', async () => {
    await events.close();
  });
  const address = await http.listen({ host: config.host, port: config.port });
  app.listenUrl = address;
  // Loaded only when configured: its mail parsers hold about 30 MB (B8).
  const gateway = config.emailGatewayListen ? await (await import('./gateway/smtp.js')).startEmailGateway(app, config.emailGatewayListen) : undefined;
  if (gateway) app.log.info(`e-mail gateway listening on ${gateway.address}`);
  if (gateway && !config.emailGatewayDomain) app.log.warn('PARLANCE_EMAIL_GATEWAY_LISTEN is set without PARLANCE_EMAIL_GATEWAY_DOMAIN: every address is refused');
  if (!config.externalUrl) {
    app.log.warn(`PARLANCE_EXTERNAL_URL is not set: organization URLs, links in notices and bot addresses use ${address}`);
  }
  // Rows written before addresses were checked for collisions keep working; the operator is told of them.
  await reportIdentityCollisions(app).catch((err) => app.log.error({ err }, 'could not look for colliding addresses'));
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      // Stop accepting, let in-flight requests finish (bounded), then close the database.
      const grace = new Promise<void>((resolve) => setTimeout(resolve, config.shutdownGraceSeconds * 1000).unref());
      await Promise.race([http.close(), grace]);
      stopMonitor();
      await gateway?.close();
      await scheduled.stop();
      await fullMembers.stop();
      await storage.stop();
      await pushRegistrations.stop();
      await mail.stop();
      await webhooks.stop();
      await missed.stop();
      mailer.close();
      app.limiter.close();
      await database.close();
    })());
  return { app, http, url: address, close };
}

// Other processes on the same database learn of new events through Redis when there is one, else through
// PostgreSQL; one SQLite file is served by processes of one machine, which read its log often enough.
function openNotifier(app: App, onNotice: (position: number) => void): Promise<LogNotifier | null> {
  if (app.redis) return redisNotifier(app.redis, app.config.redisPrefix, app.log, onNotice);
  if (app.config.databaseUrl) return postgresNotifier(app.config.databaseUrl, app.log, onNotice);
  return Promise.resolve(null);
}

// A periodic job that never overlaps itself; `stop` waits for a run in progress.
function startWorker(app: App, everyMs: number, job: (app: App) => Promise<unknown>) {
  let running: Promise<unknown> = Promise.resolve();
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    running = Promise.resolve(syncCaches(app.db))
      .then(() => job(app))
      .catch((err) => app.log.error({ err }, 'background job failed'))
      .finally(() => (busy = false));
  }, everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
