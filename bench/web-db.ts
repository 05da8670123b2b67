// The web app benchmark's organization: 1,000 people, 200 channels, 100,000 messages — one channel holding a
// 10,000-message topic — seeded once with the bench's bulk inserts (bench/seed.ts) into a SQLite file kept under
// the bench cache (keyed by the schema), as B5's database is; each run works on a copy (W4 adds messages). The reader logs in with a password, is subscribed
// to 40 channels and has unread messages in ten of them.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { loadConfig } from '../src/config.js';
import { openApp } from '../src/server.js';
import { doCreateRealm } from '../src/actions/realms.js';
import { streamRecipient } from '../src/store/messages.js';
import { updateUser } from '../src/store/users.js';
import { bulkChannel, bulkUsers } from './seed.js';
import { cacheDir } from './populated-db.js';

const SEED_VERSION = 2;
export const PEOPLE = 1000;
export const CHANNELS = 200;
export const MESSAGES = 100_000;
export const LONG_TOPIC = 10_000; // in the first channel
const SUBSCRIBED = 40; // the reader's channels
const SUBSCRIBERS = 8; // others per channel
const here = path.dirname(fileURLToPath(import.meta.url));

export interface WebDb {
  dataDir: string;
  email: string;
  password: string;
  longChannel: number;
  channels: number;
}

function schemaKey(): string {
  const dir = path.join(here, '../src/store/migrations');
  const hash = crypto.createHash('sha256').update(`web ${SEED_VERSION}\n`);
  for (const f of fs.readdirSync(dir).sort()) hash.update(f).update(fs.readFileSync(path.join(dir, f)));
  return hash.digest('hex').slice(0, 12);
}

const open = (dataDir: string) => openApp({ ...loadConfig({}, { PARLANCE_DATA: dataDir, DATABASE_URL: '', PARLANCE_ARGON2_MEMORY_KIB: '19456', PARLANCE_CHANNEL_CREATION_LIMIT: '0' }), logLevel: 'silent' });

export async function webDb(log: (s: string) => void): Promise<WebDb> {
  const dataDir = path.join(cacheDir(), `web_${schemaKey()}`);
  const manifest = path.join(dataDir, 'web-manifest.json');
  if (fs.existsSync(manifest)) return JSON.parse(fs.readFileSync(manifest, 'utf8')) as WebDb;
  log(`seeding ${PEOPLE} people, ${CHANNELS} channels and ${MESSAGES.toLocaleString('en')} messages into ${dataDir} (kept for later runs)…`);
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true });
  const t0 = Date.now();
  const { app, database } = await open(dataDir);
  try {
    const { realm, owner } = await doCreateRealm(app, { name: 'Benchmark Org', subdomain: '', owner: { email: 'owner@zulip.example.com', fullName: 'Owner', password: 'correct horse battery' } });
    const people = await bulkUsers(app, realm, PEOPLE - 1, 'person');
    const reader = people[0];
    const password = 'correct horse battery';
    await updateUser(app.db, reader.id, { passwordHash: await app.passwords.hash(password) });
    const streams: { id: number; recipientId: number; members: number[] }[] = [];
    for (let c = 0; c < CHANNELS; c++) {
      const others = Array.from({ length: SUBSCRIBERS }, (_, k) => people[1 + ((c * 37 + k * 101) % (people.length - 1))].id);
      const members = c < SUBSCRIBED ? [reader.id, ...others] : others;
      const id = await bulkChannel(app, realm, owner, c === 0 ? 'firehose' : `channel ${String(c).padStart(3, '0')}`, members);
      streams.push({ id, recipientId: await app.db.transaction().execute((tx) => streamRecipient(tx, realm.id, id)), members });
    }
    const start = Math.floor(Date.now() / 1000) - MESSAGES;
    let n = 0;
    const plan: { stream: number; topic: string }[] = [];
    for (let i = 0; i < LONG_TOPIC; i++) plan.push({ stream: 0, topic: 'all' });
    for (let i = 0; plan.length < MESSAGES; i++) plan.push({ stream: 1 + (i % (CHANNELS - 1)), topic: `topic ${Math.floor(i / (CHANNELS - 1)) % 8}` });
    // Interleaved by time: the long topic spread over the whole history.
    plan.sort((a, b) => (a.stream === 0 ? 0 : 1) - (b.stream === 0 ? 0 : 1));
    const order = plan.map((p, i) => ({ p, key: p.stream === 0 ? i * (MESSAGES / LONG_TOPIC) : (i - LONG_TOPIC) * (MESSAGES / (MESSAGES - LONG_TOPIC)) + 0.5 })).sort((a, b) => a.key - b.key).map((x) => x.p);
    const BATCH = 400;
    for (let first = 0; first < order.length; first += 20_000) {
      await app.db.transaction().execute(async (tx) => {
        for (let i = first; i < Math.min(order.length, first + 20_000); i += BATCH) {
          const batch = order.slice(i, i + BATCH).map((p) => {
            const s = streams[p.stream];
            const sender = s.members[(n++ * 7) % s.members.length];
            const content = `Message ${n} about ${p.topic}: the quick brown fox jumps over the lazy dog, ${n % 97} times.`;
            return { realm_id: realm.id, sender_id: sender, recipient_id: s.recipientId, stream_id: s.id, topic: p.topic, topic_key: p.topic, content, rendered_content: `<p>${content}</p>`, date_sent: start + i, client: 'bench' };
          });
          const ids = await tx.insertInto('messages').values(batch).returning('id').execute();
          const rows = ids.flatMap(({ id }, j) => {
            const p = order[i + j];
            const s = streams[p.stream];
            // The reader's last 30 messages of ten channels are unread.
            const unread = s.members.includes(reader.id) && p.stream < 10 && i + j >= order.length - 3000;
            return s.members.map((u) => ({ user_id: u, message_id: id, flags: u === reader.id && unread ? 0 : 1 }));
          });
          for (let k = 0; k < rows.length; k += 2000) await tx.insertInto('user_messages').values(rows.slice(k, k + 2000)).execute();
        }
      });
    }
    await sql`insert into message_search (rowid, topic, content) select id, topic, content from messages`.execute(app.db);
    await sql`pragma wal_checkpoint(truncate)`.execute(app.db);
    const db: WebDb = { dataDir, email: reader.email, password, longChannel: streams[0].id, channels: CHANNELS };
    fs.writeFileSync(manifest, JSON.stringify(db));
    log(`seeded in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    return db;
  } finally {
    app.limiter.close();
    await database.close();
  }
}

// A copy of the seeded database for one run, removed by `done`.
export function webDbCopy(db: WebDb): { dataDir: string; done(): void } {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parlance-web-bench-'));
  for (const f of fs.readdirSync(db.dataDir)) if (f.startsWith('parlance.sqlite3')) fs.copyFileSync(path.join(db.dataDir, f), path.join(dataDir, f));
  return { dataDir, done: () => fs.rmSync(dataDir, { recursive: true, force: true }) };
}
