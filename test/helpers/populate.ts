// Runs `parlance populate` as a real process on a test database (SQLite file or PostgreSQL database).
import { runCli, type Run } from './cli.js';
import type { TestDatabase } from './database.js';

export type { Run };

export const runPopulate = (db: Pick<TestDatabase, 'dataDir' | 'databaseUrl'>, ...args: string[]): Promise<Run> => runCli(db, 'populate', ...args);

export interface Populated {
  owner: { email: string; api_key: string; user_id: number };
  members: { email: string; api_key: string; user_id: number }[];
  messages: number;
  seconds: number;
}

export function populatedJson(run: Run): Populated {
  if (run.code !== 0) throw new Error(`populate exited with ${run.code}:\n${run.stdout}\n${run.stderr}`);
  const lines = run.stdout.trim().split('\n');
  if (lines.length !== 1) throw new Error(`one line of JSON expected:\n${run.stdout}`);
  return JSON.parse(lines[0]);
}
