import type { Db, Tx } from './db.js';

// Every multi-row change runs through here so that it commits or rolls back as a whole. Work queued with
// `afterCommit` (event delivery) runs only once the transaction has committed.
export async function transaction<T>(db: Db, fn: (tx: Tx, afterCommit: (job: () => void) => void) => Promise<T>): Promise<T> {
  const jobs: (() => void)[] = [];
  const result = await db.transaction().execute((tx) => fn(tx, (job) => jobs.push(job)));
  for (const job of jobs) job();
  return result;
}

export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: string })?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
