// The reusable database of B5 and B11: an organization written by `parlance populate` (1,000 users, 200
// channels, 1,000,000 channel messages, 100,000 with --quick; the first member with 50,000 unread group DMs;
// 13 topics of 2,000 messages in channel 1), made once and kept between runs — a SQLite file under the cache
// directory, or a PostgreSQL database on the DATABASE_URL server — keyed by the schema (the migrations) and the
// generator (src/populate, src/actions/populate*). B11 changes what it measures (it moves topics): it works on
// a copy (`scratchCopy`).
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { sql } from 'kysely';
import { loadConfig } from '../src/config.js';
import { openApp } from '../src/server.js';
import type { App } from '../src/app.js';
import { BIN } from '../test/helpers/server.js';
import type { Credentials } from './tasks.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const VERSION = 1; // of this file's manifest

export interface PopulateSpec {
  users: number;
  channels: number;
  seed: number;
  unreadDms: number;
  bigTopics: number;
  allUserChannels?: number;
  activeUsers?: number;
}

// B5 and B11's organization; B9 (bench/org.ts) has its own.
export const POPULATE: PopulateSpec = { users: 1000, channels: 200, seed: 1, unreadDms: 50_000, bigTopics: 13 };

export interface PopulatedDb {
  dataDir: string;
  databaseUrl?: string;
  messages: number; // channel messages
  owner: Credentials & { userId: number };
  members: (Credentials & { userId: number })[]; // the first ten; members[0] is the first member
  seconds: number; // how long populate took
}

export const cacheDir = () => process.env.PARLANCE_BENCH_CACHE ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'parlance-bench');

function sourceKey(spec: PopulateSpec): string {
  const hash = crypto.createHash('sha256').update(`populated ${VERSION} ${JSON.stringify(spec)}\n`);
  const files = [
    ...fs.readdirSync(path.join(here, '../src/store/migrations')).map((f) => `src/store/migrations/${f}`),
    ...fs.readdirSync(path.join(here, '../src/populate')).map((f) => `src/populate/${f}`),
    ...fs.readdirSync(path.join(here, '../src/actions')).filter((f) => f.startsWith('populate')).map((f) => `src/actions/${f}`),
  ].sort();
  for (const f of files) hash.update(f).update(fs.readFileSync(path.join(here, '..', f)));
  return hash.digest('hex').slice(0, 12);
}

const adminUrl = () => process.env.DATABASE_URL || undefined;

function databaseUrlFor(name: string): string | undefined {
  const admin = adminUrl();
  if (!admin) return undefined;
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return url.toString();
}

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: adminUrl() });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

export async function withDb<T>(db: Pick<PopulatedDb, 'dataDir' | 'databaseUrl'>, fn: (app: App) => Promise<T>): Promise<T> {
  const { app, database } = await openApp({ ...loadConfig({}, { PARLANCE_DATA: db.dataDir, DATABASE_URL: db.databaseUrl ?? '' }), logLevel: 'silent' });
  try {
    return await fn(app);
  } finally {
    app.limiter.close();
    await database.close();
  }
}

async function readManifest(dataDir: string, databaseUrl?: string): Promise<PopulatedDb | null> {
  if (!databaseUrl && !fs.existsSync(path.join(dataDir, 'parlance.sqlite3'))) return null;
  try {
    return await withDb({ dataDir, databaseUrl }, async (app) => {
      const { rows } = await sql<{ body: string }>`select body from bench_manifest`.execute(app.db);
      return rows.length ? { ...JSON.parse(rows[0].body), dataDir, databaseUrl } : null;
    });
  } catch {
    return null; // no such database, or a populate that did not finish
  }
}

function populate(dataDir: string, databaseUrl: string | undefined, messages: number, spec: PopulateSpec): Promise<string> {
  const args = ['populate', '--data', dataDir, '--users', String(spec.users), '--channels', String(spec.channels), '--messages', String(messages),
    '--seed', String(spec.seed), '--unread-dms', String(spec.unreadDms), '--big-topics', String(spec.bigTopics), '--json',
    ...(spec.allUserChannels !== undefined ? ['--all-user-channels', String(spec.allUserChannels)] : []),
    ...(spec.activeUsers !== undefined ? ['--active-users', String(spec.activeUsers)] : [])];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, DATABASE_URL: databaseUrl ?? '' }, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`parlance populate exited with ${code}`))));
  });
}

// Earlier versions (another schema or generator) not used for three days are deleted: other worktrees sharing
// the cache may still use theirs. (PostgreSQL databases are left: drop parlance_bench_* by hand.)
const STALE_MS = 3 * 86400_000;

function dropStale(key: string): void {
  if (!fs.existsSync(cacheDir())) return;
  for (const f of fs.readdirSync(cacheDir())) {
    const dir = path.join(cacheDir(), f);
    if (f.startsWith('populated_') && !f.startsWith(key) && Date.now() - fs.statSync(dir).mtimeMs > STALE_MS) fs.rmSync(dir, { recursive: true, force: true });
  }
}

export async function populatedDb(messages: number, log: (s: string) => void, spec = POPULATE): Promise<PopulatedDb> {
  const key = `populated_${messages}_${sourceKey(spec)}`;
  const databaseUrl = databaseUrlFor(`parlance_bench_${key}`);
  // PostgreSQL's server still needs a data directory (uploads): a separate one.
  const dataDir = path.join(cacheDir(), databaseUrl ? `${key}_pg` : key);
  const existing = await readManifest(dataDir, databaseUrl);
  if (existing) {
    fs.utimesSync(dataDir, new Date(), new Date()); // in use
    return existing;
  }

  log(`populating ${messages.toLocaleString('en')} messages into ${databaseUrl ?? dataDir} (kept for later runs)…`);
  dropStale(key);
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true });
  if (databaseUrl) {
    await admin(async (c) => {
      await c.query(`DROP DATABASE IF EXISTS parlance_bench_${key} WITH (FORCE)`);
      await c.query(`CREATE DATABASE parlance_bench_${key}`);
    });
  }
  const out = JSON.parse(await populate(dataDir, databaseUrl, messages, spec));
  const cred = (c: { email: string; api_key: string; user_id: number }) => ({ email: c.email, apiKey: c.api_key, userId: c.user_id });
  const manifest = { messages, owner: cred(out.owner), members: out.members.map(cred), seconds: out.seconds };
  log(`populated in ${out.seconds} s`);
  await withDb({ dataDir, databaseUrl }, async (app) => {
    await sql`create table bench_manifest (body text)`.execute(app.db);
    await sql`insert into bench_manifest (body) values (${JSON.stringify(manifest)})`.execute(app.db);
    if (app.dialect === 'postgres') await sql`analyze`.execute(app.db);
  });
  return { ...manifest, dataDir, databaseUrl };
}

// A copy to change, dropped by `drop`: the SQLite file copied, or a PostgreSQL database made from it.
export async function scratchCopy(db: PopulatedDb, log: (s: string) => void): Promise<PopulatedDb & { drop(): Promise<void> }> {
  const name = `parlance_bench_scratch_${crypto.randomBytes(4).toString('hex')}`;
  const dataDir = path.join(cacheDir(), name);
  fs.mkdirSync(dataDir, { recursive: true });
  const t0 = Date.now();
  if (db.databaseUrl) {
    const source = new URL(db.databaseUrl).pathname.slice(1);
    await admin((c) => c.query(`CREATE DATABASE ${name} TEMPLATE ${source}`));
  } else {
    for (const f of ['parlance.sqlite3', 'parlance.sqlite3-wal']) {
      if (!fs.existsSync(path.join(db.dataDir, f))) continue;
      fs.copyFileSync(path.join(db.dataDir, f), path.join(dataDir, f));
      // Written to disk before the server starts: otherwise the kernel flushes the copy's 600 MB during the first
      // measurements and throttles the server's own writes (a single-row update waited 300 ms for it).
      const fd = fs.openSync(path.join(dataDir, f), 'r+');
      fs.fsyncSync(fd);
      fs.closeSync(fd);
    }
  }
  log(`copied the populated database in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const databaseUrl = db.databaseUrl ? databaseUrlFor(name) : undefined;
  return {
    ...db, dataDir, databaseUrl,
    async drop() {
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (databaseUrl) await admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}
