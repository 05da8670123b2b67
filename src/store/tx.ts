import type { Db, Dialect, Tx } from './db.js';
import { appendEvents, lastEventId, type LoggedEvent, type NewEvent } from './events.js';

// Every multi-row change runs through here so that it commits or rolls back as a whole. Events emitted by
// the work are appended to the event log at the end of the same transaction, so they exist exactly when the
// change does.
export async function transaction<T>(
  db: Db,
  dialect: Dialect,
  fn: (tx: Tx, emit: (event: NewEvent) => void) => Promise<T>,
): Promise<{ result: T; events: LoggedEvent[] }> {
  const pending: NewEvent[] = [];
  let events: LoggedEvent[] = [];
  const result = await db.transaction().execute(async (tx) => {
    const r = await fn(tx, (e) => pending.push(e));
    events = await appendEvents(tx, dialect, Math.floor(Date.now() / 1000), pending);
    return r;
  });
  return { result, events };
}

export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: string })?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

// Reads in one consistent snapshot and returns the event-log position it saw: every event up to that id is
// reflected in what was read, every later one is not.
export async function readSnapshot<T>(db: Db, dialect: Dialect, fn: (tx: Tx) => Promise<T>): Promise<{ result: T; logPosition: number }> {
  let builder = db.transaction();
  if (dialect === 'postgres') builder = builder.setIsolationLevel('repeatable read');
  return builder.execute(async (tx) => {
    const logPosition = await lastEventId(tx);
    return { result: await fn(tx), logPosition };
  });
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
