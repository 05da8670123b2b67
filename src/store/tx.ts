import { sql } from 'kysely';
import type { Db, Dialect, Tx } from './db.js';
import { appendEvents, lastEventId, type LoggedEvent, type NewEvent } from './events.js';
import { markSnapshot } from './cache.js';
import { snapshotPermit } from './read-pool.js';

type Work<T> = (tx: Tx, emit: (event: NewEvent) => void) => Promise<T>;
type Outcome<T> = { result: T; events: LoggedEvent[] };

// Every multi-row change runs through here so that it commits or rolls back as a whole. Events emitted by
// the work are appended to the event log at the end of the same transaction, so they exist exactly when the
// change does.
export async function transaction<T>(db: Db, dialect: Dialect, fn: Work<T>): Promise<Outcome<T>> {
  if (dialect === 'sqlite') return groupCommit(db, fn);
  return db.transaction().execute((tx) => runWork(tx, dialect, fn));
}

async function runWork<T>(tx: Tx, dialect: Dialect, fn: Work<T>): Promise<Outcome<T>> {
  const pending: NewEvent[] = [];
  const result = await fn(tx, (e) => pending.push(e));
  return { result, events: await appendEvents(tx, dialect, Math.floor(Date.now() / 1000), pending) };
}

// SQLite has one writer at a time, and each commit writes every page the transaction touched to the log: a
// message to 100 subscribers touches about 100 pages of user_messages' index, the same pages for every message
// of the channel. So work that arrives while a transaction runs waits for it and then runs in the next one with
// all other waiting work, each piece in a savepoint of its own (a failure rolls back that piece alone), and the
// whole group commits once. Every caller still learns its outcome only after that commit.
interface Job {
  fn: Work<unknown>;
  resolve(o: Outcome<unknown>): void;
  reject(err: unknown): void;
}

const MAX_GROUP = 64;
const queues = new WeakMap<Db, { jobs: Job[]; running: boolean }>();

function groupCommit<T>(db: Db, fn: Work<T>): Promise<Outcome<T>> {
  let queue = queues.get(db);
  if (!queue) queues.set(db, (queue = { jobs: [], running: false }));
  const q = queue;
  return new Promise<Outcome<T>>((resolve, reject) => {
    q.jobs.push({ fn, resolve: resolve as Job['resolve'], reject });
    if (!q.running) {
      q.running = true;
      // The first group starts after this turn of the event loop, with the work of every request read in it.
      setImmediate(() => void drainGroups(db, q));
    }
  });
}

async function drainGroups(db: Db, q: { jobs: Job[]; running: boolean }): Promise<void> {
  while (q.jobs.length) {
    const group = q.jobs.splice(0, MAX_GROUP);
    if (group.length === 1) {
      const [job] = group;
      await db.transaction().execute((tx) => runWork(tx, 'sqlite', job.fn)).then(job.resolve, job.reject);
      continue;
    }
    const done: { job: Job; outcome: Outcome<unknown> }[] = [];
    try {
      await db.transaction().execute(async (tx) => {
        for (const job of group) {
          await sql`savepoint job`.execute(tx);
          try {
            done.push({ job, outcome: await runWork(tx, 'sqlite', job.fn) });
          } catch (err) {
            await sql`rollback to savepoint job`.execute(tx);
            job.reject(err);
          }
          await sql`release savepoint job`.execute(tx);
        }
      });
      for (const d of done) d.job.resolve(d.outcome);
    } catch (err) {
      for (const d of done) d.job.reject(err);
    }
  }
  q.running = false;
}

export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: string })?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

// Reads in one consistent snapshot and returns the event-log position it saw: every event up to that id is
// reflected in what was read, every later one is not.
export async function readSnapshot<T>(db: Db, dialect: Dialect, fn: (tx: Tx) => Promise<T>): Promise<{ result: T; logPosition: number }> {
  const done = await snapshotPermit(db);
  try {
    let builder = db.transaction();
    if (dialect === 'postgres') builder = builder.setIsolationLevel('repeatable read');
    return await builder.execute(async (tx) => {
      markSnapshot(tx);
      const logPosition = await lastEventId(tx);
      return { result: await fn(tx), logPosition };
    });
  } finally {
    done();
  }
}

class Rollback extends Error {}

// Runs `fn` in a transaction that is always rolled back: a dry run of a write, to validate it exactly as the
// real one would be.
export async function dryRun<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<T> {
  let result: T;
  try {
    await db.transaction().execute(async (tx) => {
      result = await fn(tx);
      throw new Rollback();
    });
  } catch (err) {
    if (!(err instanceof Rollback)) throw err;
  }
  return result!;
}
