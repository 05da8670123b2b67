// Runs bin/parlance.js as a real process on a test server's data: --data for the SQLite file, DATABASE_URL for
// PostgreSQL (the child never inherits another PARLANCE_DATA).
import { spawn } from 'node:child_process';
import { BIN } from './server.js';
import type { TestDatabase } from './database.js';

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(db: Pick<TestDatabase, 'dataDir' | 'databaseUrl'>, ...args: string[]): Promise<Run> {
  const env: Record<string, string> = { ...(process.env as Record<string, string>), DATABASE_URL: db.databaseUrl ?? '', PARLANCE_ARGON2_MEMORY_KIB: '1024' };
  delete env.PARLANCE_DATA;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args, '--data', db.dataDir], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
