// Tells the other server processes that the event log grew, so that they read it at once instead of at their
// next periodic read (PARLANCE_EVENT_LOG_POLL_MS). Only a hint: the log stays the one source of events, and the
// periodic read covers any notice lost while Redis or the listening connection is down.
import type { Redis } from 'ioredis';
import pg from 'pg';
import type { Logger } from 'pino';

export interface LogNotifier {
  // After a commit that appended events up to `position`.
  published(position: number): void;
  close(): Promise<void>;
}

type OnNotice = (position: number) => void;

const parse = (onNotice: OnNotice) => (message: string | undefined) => {
  const position = Number(message);
  if (Number.isSafeInteger(position)) onNotice(position);
};

// Redis pub/sub on `<prefix>events`.
export async function redisNotifier(redis: Redis, prefix: string, log: Logger, onNotice: OnNotice): Promise<LogNotifier> {
  const channel = `${prefix}events`;
  const subscriber = redis.duplicate();
  subscriber.on('error', () => {}); // the main connection reports Redis errors
  subscriber.on('message', (_channel: string, message: string) => parse(onNotice)(message));
  await subscriber.connect();
  await subscriber.subscribe(channel);
  const warn = once(log, 'could not publish an event-log notice through Redis; other processes read the log periodically');
  return {
    published(position) {
      redis.publish(channel, String(position)).catch(warn);
    },
    async close() {
      subscriber.disconnect();
    },
  };
}

// PostgreSQL LISTEN/NOTIFY, for installations without Redis: one connection of its own listens, and reconnects
// after a failure; notices go out on a pool connection.
export async function postgresNotifier(databaseUrl: string, log: Logger, onNotice: OnNotice): Promise<LogNotifier> {
  const channel = 'parlance_events';
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  pool.on('error', () => {});
  let listener: pg.Client | null = null;
  let closed = false;
  let retrying = false;
  const warn = once(log, 'lost the PostgreSQL connection that listens for event-log notices; reconnecting');
  const retry = () => {
    if (closed || retrying) return;
    retrying = true;
    setTimeout(() => {
      retrying = false;
      listen().catch((err) => {
        warn(err);
        retry();
      });
    }, 1000).unref();
  };
  const listen = async (): Promise<void> => {
    const client = new pg.Client({ connectionString: databaseUrl });
    client.on('notification', (n) => parse(onNotice)(n.payload));
    client.on('error', (err) => {
      warn(err);
      client.end().catch(() => {});
    });
    client.on('end', () => {
      if (listener === client) listener = null;
      retry();
    });
    await client.connect();
    await client.query(`listen ${channel}`);
    listener = client;
    // Notices sent while this connection was down are lost: a read of the log covers them.
    onNotice(Number.MAX_SAFE_INTEGER);
  };
  await listen();
  const warnPublish = once(log, 'could not publish an event-log notice through PostgreSQL; other processes read the log periodically');
  return {
    published(position) {
      pool.query('select pg_notify($1, $2)', [channel, String(position)]).catch(warnPublish);
    },
    async close() {
      closed = true;
      await listener?.end().catch(() => {});
      await pool.end().catch(() => {});
    },
  };
}

// Logs the first failure of a run of failures.
function once(log: Logger, message: string) {
  let last = 0;
  return (err: unknown) => {
    if (Date.now() - last > 60_000) log.warn({ err }, message);
    last = Date.now();
  };
}
