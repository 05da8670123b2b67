// Runs `parlance populate` as a real process on a test database (SQLite file or PostgreSQL database).
import { spawn } from 'node:child_process';
import { BIN } from './server.js';
import type { TestDatabase } from './database.js';

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runPopulate(db: Pick<TestDatabase, 'dataDir' | 'databaseUrl'>, ...args: string[]): Promise<Run> {
  const env: Record<string, string> = { ...(process.env as Record<string, string>), DATABASE_URL: db.databaseUrl ?? '', PARLANCE_ARGON2_MEMORY_KIB: '1024' };
  delete env.PARLANCE_DATA;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'populate', ...args, '--data', db.dataDir], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

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
