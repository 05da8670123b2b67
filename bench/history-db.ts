// The reusable database of B5: an organization with 1,000,000 channel messages (100,000 for --quick), seeded
// once with bulk inserts and kept between runs — a SQLite file under the cache directory, or a PostgreSQL
// database on the DATABASE_URL server — keyed by the schema (the migration sources) and this seed's version.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { sql } from 'kysely';
import { loadConfig } from '../src/config.js';
import { openApp } from '../src/server.js';
import { doCreateRealm } from '../src/actions/realms.js';
import { streamRecipient } from '../src/store/messages.js';
import { bulkChannel, bulkUsers } from './seed.js';
import type { Credentials } from './tasks.js';

const SEED_VERSION = 1;
const CHANNELS = 10;
const TOPICS = 100; // per channel: 1,000 messages in each topic of the full database
const SENDERS_PER_CHANNEL = 2;
const here = path.dirname(fileURLToPath(import.meta.url));

export interface HistoryDb {
  dataDir: string;
  databaseUrl?: string;
  reader: Credentials; // subscribed to every channel, a recipient of every message
  channels: string[];
  topics: string[];
  searchWords: { word: string; matches: number }[];
  messages: number;
}

export const cacheDir = () => process.env.PARLANCE_BENCH_CACHE ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'parlance-bench');

function schemaKey(): string {
  const dir = path.join(here, '../src/store/migrations');
  const hash = crypto.createHash('sha256').update(`seed ${SEED_VERSION}\n`);
  for (const f of fs.readdirSync(dir).sort()) hash.update(f).update(fs.readFileSync(path.join(dir, f)));
  return hash.digest('hex').slice(0, 12);
}

// A deterministic pseudo-random sequence, so that every seeded database holds the same text.
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// 5,000 made-up words of three syllables, drawn with a Zipf distribution as words of real text are.
const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'ti', 'vo', 'ze', 'pa', 'qui', 'dor', 'fen', 'gal', 'hum', 'jex', 'bri', 'cov', 'wen', 'yas'];
const WORDS = Array.from({ length: 5000 }, (_, i) => SYLLABLES[i % 20] + SYLLABLES[Math.floor(i / 20) % 20] + SYLLABLES[Math.floor(i / 400) % 20] + (i >= 8000 ? 'x' : ''));
const ZIPF_CDF = (() => {
  const w = WORDS.map((_, r) => 1 / (r + 1));
  const total = w.reduce((a, b) => a + b, 0);
  let acc = 0;
  return w.map((x) => (acc += x / total));
})();

function word(rnd: () => number): string {
  const x = rnd();
  let lo = 0;
  let hi = ZIPF_CDF.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ZIPF_CDF[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return WORDS[lo];
}

export async function historyDb(size: number, log: (s: string) => void): Promise<HistoryDb> {
  const key = `history_${size}_${schemaKey()}`;
  const adminUrl = process.env.DATABASE_URL || undefined;
  // PostgreSQL's server still needs a data directory (custom emoji files): a separate one.
  const dataDir = path.join(cacheDir(), adminUrl ? `${key}_pg` : key);
  let databaseUrl: string | undefined;
  if (adminUrl) {
    const url = new URL(adminUrl);
    url.pathname = `/parlance_bench_${key}`;
    databaseUrl = url.toString();
  }
  const existing = await readManifest(dataDir, databaseUrl);
  if (existing) return existing;

  log(`seeding ${size.toLocaleString('en')} messages into ${databaseUrl ?? dataDir} (kept for later runs)…`);
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true });
  if (adminUrl) {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS parlance_bench_${key} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE parlance_bench_${key}`);
    await admin.end();
  }
  const t0 = Date.now();
  const manifest = await seed(dataDir, databaseUrl, size);
  log(`seeded in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  return manifest;
}

function openFor(dataDir: string, databaseUrl?: string) {
  return openApp({ ...loadConfig({}, { PARLANCE_DATA: dataDir, DATABASE_URL: databaseUrl ?? '', PARLANCE_ARGON2_MEMORY_KIB: '1024' }), logLevel: 'silent' });
}

async function readManifest(dataDir: string, databaseUrl?: string): Promise<HistoryDb | null> {
  if (!databaseUrl && !fs.existsSync(path.join(dataDir, 'parlance.sqlite3'))) return null;
  try {
    const { app, database } = await openFor(dataDir, databaseUrl);
    try {
      const { rows } = await sql<{ body: string }>`select body from bench_manifest`.execute(app.db);
      return rows.length ? { ...JSON.parse(rows[0].body), dataDir, databaseUrl } : null;
    } finally {
      app.limiter.close();
      await database.close();
    }
  } catch {
    return null; // no such database, or a seed that did not finish
  }
}

async function seed(dataDir: string, databaseUrl: string | undefined, size: number): Promise<HistoryDb> {
  const { app, database } = await openFor(dataDir, databaseUrl);
  try {
    const { realm, owner } = await doCreateRealm(app, { name: 'History', subdomain: '', owner: { email: 'owner@zulip.example.com', fullName: 'Owner', password: 'correct horse battery' } });
    const [reader, ...senders] = await bulkUsers(app, realm, 1 + CHANNELS * SENDERS_PER_CHANNEL, 'history');
    const channels = Array.from({ length: CHANNELS }, (_, c) => `history ${c}`);
    const streams: { id: number; recipientId: number; senders: number[] }[] = [];
    for (const [c, name] of channels.entries()) {
      const mine = senders.slice(c * SENDERS_PER_CHANNEL, (c + 1) * SENDERS_PER_CHANNEL).map((u) => u.id);
      const id = await bulkChannel(app, realm, owner, name, [reader.id, ...mine]);
      const recipientId = await app.db.transaction().execute((tx) => streamRecipient(tx, realm.id, id));
      streams.push({ id, recipientId, senders: mine });
    }
    const topics = Array.from({ length: TOPICS }, (_, t) => `topic ${t}`);
    const rnd = random(42);
    const start = Math.floor(Date.now() / 1000) - size;
    const BATCH = 500;
    for (let first = 0; first < size; first += 20_000) {
      await app.db.transaction().execute(async (tx) => {
        for (let i = first; i < Math.min(size, first + 20_000); i += BATCH) {
          const batch = Array.from({ length: Math.min(BATCH, size - i) }, (_, j) => {
            const n = i + j;
            const s = streams[n % CHANNELS];
            const topic = topics[Math.floor(n / CHANNELS) % TOPICS];
            const content = Array.from({ length: 6 + Math.floor(rnd() * 14) }, () => word(rnd)).join(' ');
            return {
              realm_id: realm.id, sender_id: s.senders[n % SENDERS_PER_CHANNEL], recipient_id: s.recipientId, stream_id: s.id, topic,
              topic_key: topic, content, rendered_content: `<p>${content}</p>`, date_sent: start + n, client: 'bench',
            };
          });
          const ids = await tx.insertInto('messages').values(batch).returning('id').execute();
          const rows = ids.flatMap(({ id }, j) => {
            const s = streams[(i + j) % CHANNELS];
            const unread = i + j >= size - 50 ? 0 : 1;
            return [{ user_id: reader.id, message_id: id, flags: unread }, ...s.senders.map((u) => ({ user_id: u, message_id: id, flags: u === batch[j].sender_id ? 1 : unread }))];
          });
          await tx.insertInto('user_messages').values(rows).execute();
        }
      });
    }
    if (app.dialect === 'sqlite') {
      await sql`insert into message_search (rowid, topic, content) select id, topic, content from messages`.execute(app.db);
    } else {
      await sql`analyze`.execute(app.db);
    }
    const searchWords: HistoryDb['searchWords'] = [];
    for (const w of [WORDS[120], WORDS[130], WORDS[140], WORDS[150]]) {
      const { rows } = await sql<{ n: number }>`select count(*) as n from messages where content like ${`%${w}%`}`.execute(app.db);
      searchWords.push({ word: w, matches: Number(rows[0].n) });
    }
    const manifest = { reader: { email: reader.email, apiKey: reader.apiKey }, channels, topics, searchWords, messages: size };
    await sql`create table bench_manifest (body text)`.execute(app.db);
    await sql`insert into bench_manifest (body) values (${JSON.stringify(manifest)})`.execute(app.db);
    return { ...manifest, dataDir, databaseUrl };
  } finally {
    app.limiter.close();
    await database.close();
  }
}
