// `parlance populate` leaves what the API would: a small populated organization served by a real server answers
// GET /messages, search and register from the populated rows, accepts new messages, and one populated message's
// rows match those of the same message sent through the API.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { TestServer } from './helpers/server.js';
import { freshDatabase } from './helpers/database.js';
import { Client } from './helpers/client.js';
import { assertSuccess } from './helpers/assertions.js';
import { populatedJson, runPopulate, type Populated } from './helpers/populate.js';
import { FLAG_BITS } from '../src/store/messages.js';
import type { App } from '../src/app.js';

const UNREAD_DMS = 60;
let server: TestServer;
let out: Populated;
let general: { id: number; messages: number };

before(async () => {
  const db = await freshDatabase();
  server = new TestServer(db, {});
  out = populatedJson(await runPopulate(db, '--users', '20', '--channels', '5', '--messages', '500', '--unread-dms', String(UNREAD_DMS), '--seed', '7', '--json'));
  await server.start();
  general = await server.withApp(async (app) => {
    const s = await app.db.selectFrom('streams').select('id').where('name', '=', 'general').executeTakeFirstOrThrow();
    const n = await app.db.selectFrom('messages').select((eb) => eb.fn.countAll<number>().as('n')).where('stream_id', '=', s.id).executeTakeFirstOrThrow();
    return { id: s.id, messages: Number(n.n) };
  });
});
after(() => server?.close());

const as = (c: { email: string; api_key: string }) => new Client(server.url, { email: c.email, apiKey: c.api_key });
const first = () => out.members[0];
const narrow = (...terms: [string, string][]) => JSON.stringify(terms.map(([operator, operand]) => ({ operator, operand })));

async function rowsOf(app: App, userId: number): Promise<Map<number, number>> {
  const rows = await app.db.selectFrom('user_messages').select(['message_id', 'flags']).where('user_id', '=', userId).execute();
  return new Map(rows.map((r) => [r.message_id, r.flags]));
}

test('the organization has the asked-for shape: channel 1 holds at least 15% of the messages; the first member has the unread group DMs', async () => {
  assert.equal(out.messages, 500 + UNREAD_DMS);
  assert.ok(general.messages >= 0.15 * 500, `${general.messages}`);
  const counts = await server.withApp(async (app) => ({
    channel: Number((await app.db.selectFrom('messages').select((eb) => eb.fn.countAll<number>().as('n')).where('stream_id', 'is not', null).executeTakeFirstOrThrow()).n),
    users: Number((await app.db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).where('is_bot', '=', 0).executeTakeFirstOrThrow()).n),
    channels: Number((await app.db.selectFrom('streams').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n),
  }));
  assert.deepEqual(counts, { channel: 500, users: 20, channels: 5 });
  const topics = assertSuccess(await as(first()).get(`/users/me/${general.id}/topics`)).topics.map((t: { name: string }) => t.name);
  assert.ok(topics.includes('big topic 1'), topics.join(', '));
  const big = assertSuccess(await as(first()).get('/messages', { anchor: 'newest', num_before: 1000, num_after: 0, narrow: narrow(['channel', 'general'], ['topic', 'big topic 1']) }));
  assert.equal(big.messages.length, Math.floor(general.messages / 2));
});

test('GET /messages: channel 1 newest first, as stored, with the first member\'s flags', async () => {
  const stored = await server.withApp(async (app) => ({
    messages: await app.db.selectFrom('messages').select(['id', 'rendered_content', 'sender_id', 'topic']).where('stream_id', '=', general.id).orderBy('id').execute(),
    flags: await rowsOf(app, first().user_id),
  }));
  const got = assertSuccess(await as(first()).get('/messages', { anchor: 'newest', num_before: 1000, num_after: 0, narrow: narrow(['channel', 'general']) })).messages;
  assert.deepEqual(got.map((m: { id: number }) => m.id), stored.messages.map((m) => m.id));
  for (const [i, m] of got.entries()) {
    const s = stored.messages[i];
    assert.deepEqual([m.content, m.sender_id, m.subject], [s.rendered_content, s.sender_id, s.topic]);
    const bits = stored.flags.get(m.id);
    if (bits === undefined) assert.deepEqual(m.flags, ['read', 'historical']);
    else for (const f of ['read', 'starred', 'mentioned'] as const) assert.equal(m.flags.includes(f), (bits & FLAG_BITS[f]) !== 0, `${f} of ${m.id}`);
  }
  // Another subscriber, without rows for most of them, reads the same history.
  const other = assertSuccess(await as(out.members[9]).get('/messages', { anchor: 'newest', num_before: 1000, num_after: 0, narrow: narrow(['channel', 'general']) })).messages;
  assert.equal(other.length, stored.messages.length);
});

test('search finds the populated messages by their words', async () => {
  const contents = await server.withApp(async (app) =>
    app.db.selectFrom('messages').select(['id', 'content', 'topic']).where('stream_id', '=', general.id).execute());
  // Messages where the word stands plainly (not inside a link or code) must be found; everything found must hold it.
  const plain = (word: string) => new RegExp(`(^|\\s)${word}[.?!]?(\\s|$)`, 'i');
  const word = ['server', 'deploy', 'release', 'review', 'build', 'meeting', 'team']
    .map((w) => ({ w, n: contents.filter((m) => plain(w).test(m.content)).length }))
    .sort((a, b) => b.n - a.n)[0];
  assert.ok(word.n >= 3, JSON.stringify(word));
  const found = assertSuccess(await as(first()).get('/messages', { anchor: 'newest', num_before: 1000, num_after: 0, narrow: narrow(['channel', 'general'], ['search', word.w]) })).messages;
  const ids = new Set(found.map((m: { id: number }) => m.id));
  for (const m of contents) if (plain(word.w).test(m.content)) assert.ok(ids.has(m.id), `message ${m.id} not found for ${word.w}`);
  for (const m of contents) if (ids.has(m.id)) assert.match(`${m.topic} ${m.content}`, new RegExp(word.w, 'i'));
});

test('register: unread counts, mentions and starred messages agree with the rows', async () => {
  const state = assertSuccess(await as(first()).post('/register', { fetch_event_types: JSON.stringify(['message', 'update_message_flags', 'starred_messages']) }));
  const expected = await server.withApp(async (app) => {
    const rows = await app.db.selectFrom('user_messages as um').innerJoin('messages as m', 'm.id', 'um.message_id')
      .select(['m.id', 'm.stream_id', 'um.flags']).where('um.user_id', '=', first().user_id).execute();
    const unread = rows.filter((r) => !(r.flags & FLAG_BITS.read));
    return {
      count: unread.length,
      channel: unread.filter((r) => r.stream_id !== null).length,
      dms: unread.filter((r) => r.stream_id === null).length,
      mentions: unread.filter((r) => r.flags & FLAG_BITS.mentioned).map((r) => r.id).sort((a, b) => a - b),
      starred: rows.filter((r) => r.flags & FLAG_BITS.starred).map((r) => r.id).sort((a, b) => a - b),
    };
  });
  const u = state.unread_msgs;
  assert.equal(u.count, expected.count);
  assert.equal(expected.dms, UNREAD_DMS);
  assert.equal(u.huddles.reduce((n: number, h: { unread_message_ids: number[] }) => n + h.unread_message_ids.length, 0), UNREAD_DMS);
  assert.equal(u.streams.reduce((n: number, s: { unread_message_ids: number[] }) => n + s.unread_message_ids.length, 0), expected.channel);
  assert.ok(expected.channel > 0 && expected.mentions.length > 0, JSON.stringify(expected));
  assert.deepEqual([...u.mentions].sort((a: number, b: number) => a - b), expected.mentions);
  assert.deepEqual([...state.starred_messages].sort((a: number, b: number) => a - b), expected.starred);
});

// Every table, with its number of rows.
async function tableCounts(app: App): Promise<Map<string, number>> {
  const names = app.dialect === 'sqlite'
    ? (await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(app.db)).rows.map((r) => r.name)
    : (await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = 'public'`.execute(app.db)).rows.map((r) => r.name);
  const counts = new Map<string, number>();
  for (const name of names) counts.set(name, Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(name)}`.execute(app.db)).rows[0].n));
  return counts;
}

test('a message sent through the API leaves the rows a populated one has, and finds the same rendering', async () => {
  // A populated message with a mention and a link, sent again by its sender to its topic.
  const populated = await server.withApp(async (app) => {
    const m = await app.db.selectFrom('messages').selectAll().where('stream_id', '=', general.id).where('content', 'like', '%@**%').orderBy('id').execute();
    const withLink = m.find((x) => x.has_link === 1) ?? m[0];
    const sender = await app.db.selectFrom('users').select(['email', 'api_key']).where('id', '=', withLink.sender_id).executeTakeFirstOrThrow();
    return { message: withLink, sender, rows: await app.db.selectFrom('user_messages').select(['user_id', 'flags']).where('message_id', '=', withLink.id).execute() };
  });
  const before = await server.withApp(tableCounts);
  const sent = assertSuccess(await as(populated.sender).post('/messages', { type: 'stream', to: 'general', topic: populated.message.topic, content: populated.message.content }));
  const after = await server.withApp(tableCounts);
  const mine = await server.withApp(async (app) => ({
    message: await app.db.selectFrom('messages').selectAll().where('id', '=', sent.id).executeTakeFirstOrThrow(),
    rows: await app.db.selectFrom('user_messages').select(['user_id', 'flags']).where('message_id', '=', sent.id).execute(),
    subscribers: (await app.db.selectFrom('subscriptions').select('user_id').where('stream_id', '=', general.id).where('active', '=', 1).execute()).map((r) => r.user_id),
  }));
  const comparable = ({ id: _id, date_sent: _d, client: _c, ...rest }: typeof mine.message) => rest;
  assert.deepEqual(comparable(mine.message), comparable(populated.message));
  assert.ok(mine.message.id > populated.message.id);

  // Same flags for the users both have rows for: the sender's read, the mentioned user's mention.
  const sentFlags = new Map(mine.rows.map((r) => [r.user_id, r.flags]));
  assert.deepEqual(mine.rows.map((r) => r.user_id).sort((a, b) => a - b), [...mine.subscribers].sort((a, b) => a - b));
  const MENTION = FLAG_BITS.mentioned;
  for (const r of populated.rows) {
    assert.equal(r.flags & MENTION, sentFlags.get(r.user_id)! & MENTION, `mention flag of user ${r.user_id}`);
    if (r.user_id === populated.message.sender_id) assert.equal(r.flags, sentFlags.get(r.user_id));
  }
  assert.ok(populated.rows.some((r) => r.flags & MENTION), 'the populated message mentions a holder of a row');

  // Every table the send wrote to, populate wrote to as well (the event log aside: populate announces no
  // messages, as nobody can be listening yet; nor does it queue missed-message mails about its history).
  const grown = [...after].filter(([name, n]) => n > (before.get(name) ?? 0)).map(([name]) => name);
  assert.ok(grown.includes('messages') && grown.includes('user_messages'), grown.join(', '));
  for (const name of grown.filter((n) => !['events', 'cache_changes', 'missed_message_notices'].includes(n))) assert.ok(before.get(name)! > 0, `populate wrote nothing to ${name}`);

  // Both are found by searching the topic for their words.
  const words = populated.message.content.split(/\s+/).map((w) => w.replace(/[.?!]$/, '')).filter((w) => /^[a-z]{5,}$/i.test(w));
  const found = assertSuccess(await as(first()).get('/messages', {
    anchor: 'newest', num_before: 100, num_after: 0, narrow: narrow(['channel', 'general'], ['topic', populated.message.topic], ['search', words[0]]),
  })).messages.map((m: { id: number }) => m.id);
  assert.ok(found.includes(sent.id) && found.includes(populated.message.id), `${words[0]}: ${found}`);
  // And the new message reaches GET /messages of another member.
  const newest = assertSuccess(await as(first()).get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow: narrow(['channel', 'general']) })).messages;
  assert.equal(newest[0].id, sent.id);
});
