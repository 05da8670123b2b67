// `parlance populate` as a command: its flags, its --json shape, refusals, and determinism (the same seed gives
// the same organization: ids, names, texts, rows).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { TestServer } from './helpers/server.js';
import { freshDatabase } from './helpers/database.js';
import { Client } from './helpers/client.js';
import { assertSuccess } from './helpers/assertions.js';
import { populatedJson, runPopulate } from './helpers/populate.js';
import type { App } from '../src/app.js';

const servers: TestServer[] = [];
after(() => Promise.all(servers.map((s) => s.close())));

async function fresh(): Promise<TestServer> {
  const server = new TestServer(await freshDatabase(), {});
  servers.push(server);
  return server;
}

const SMALL = ['--users', '15', '--channels', '4', '--messages', '300'];

test('populate --json prints {owner, members (the first ten), messages, seconds}, with keys the server accepts', async () => {
  const server = await fresh();
  const out = populatedJson(await runPopulate(server.db, ...SMALL, '--unread-dms', '20', '--json'));
  assert.deepEqual(Object.keys(out).sort(), ['members', 'messages', 'owner', 'seconds']);
  assert.equal(out.members.length, 10);
  for (const c of [out.owner, ...out.members]) {
    assert.deepEqual(Object.keys(c).sort(), ['api_key', 'email', 'user_id']);
    assert.match(c.api_key, /^[A-Za-z0-9]{32}$/);
  }
  assert.equal(out.messages, 320);
  assert.ok(typeof out.seconds === 'number' && out.seconds >= 0);
  await server.start();
  const me = assertSuccess(await new Client(server.url, { email: out.owner.email, apiKey: out.owner.api_key }).get('/users/me'));
  assert.deepEqual([me.user_id, me.is_owner], [out.owner.user_id, true]);
  for (const m of [out.members[0], out.members[9]]) {
    const it = assertSuccess(await new Client(server.url, { email: m.email, apiKey: m.api_key }).get('/users/me'));
    assert.deepEqual([it.user_id, it.role, it.email], [m.user_id, 400, m.email]);
  }
  const members = assertSuccess(await new Client(server.url, { email: out.owner.email, apiKey: out.owner.api_key }).get('/users')).members;
  assert.equal(members.filter((u: { is_bot: boolean }) => !u.is_bot).length, 15);
});

test('without --json populate prints a line with the owner\'s and the first member\'s API keys', async () => {
  const server = await fresh();
  const run = await runPopulate(server.db, '--users', '3', '--channels', '1', '--messages', '10');
  assert.equal(run.code, 0, run.stderr);
  const owner = await server.withApp((app) => app.db.selectFrom('users').select(['email', 'api_key']).orderBy('id').executeTakeFirstOrThrow());
  assert.match(run.stdout, /^Populated the organization: 10 messages in [\d.]+ s; owner /);
  assert.ok(run.stdout.includes(owner.api_key) && run.stdout.includes(owner.email), run.stdout);
});

test('populate refuses missing or bad flags, too few users for group DMs, and a database that has an organization', async () => {
  const server = await fresh();
  const cases: [string[], RegExp][] = [
    [['--users', '10', '--channels', '2'], /missing --messages/],
    [['--users', '1', '--channels', '2', '--messages', '5'], /--users must be a whole number of at least 2/],
    [['--users', 'ten', '--channels', '2', '--messages', '5'], /--users must be a whole number/],
    [['--users', '10', '--channels', '0', '--messages', '5'], /--channels must be a whole number of at least 1/],
    [['--users', '10', '--channels', '2', '--messages=-5'], /--messages must be a whole number/],
    [['--users', '10', '--channels', '2', '--messages', '5', '--seed', '1.5'], /--seed must be a whole number/],
    [['--users', '2', '--channels', '2', '--messages', '5', '--unread-dms', '3'], /--unread-dms needs at least 3 users/],
    [['--users', '10', '--channels', '2', '--messages', '5', '--colour', 'red'], /Unknown option '--colour'/],
  ];
  for (const [args, message] of cases) {
    const run = await runPopulate(server.db, ...args, '--json');
    assert.equal(run.code, 1, `${args.join(' ')}: ${run.stdout}${run.stderr}`);
    assert.match(run.stderr, message);
    assert.equal(run.stdout, '');
  }
  populatedJson(await runPopulate(server.db, '--users', '3', '--channels', '1', '--messages', '5', '--json'));
  const again = await runPopulate(server.db, '--users', '3', '--channels', '1', '--messages', '5', '--json');
  assert.equal(again.code, 1);
  assert.match(again.stderr, /Subdomain '' is already in use/);
});

// What a seed decides: everything but API keys, password hashes and times.
async function contents(app: App) {
  return {
    users: await app.db.selectFrom('users').select(['id', 'email', 'full_name', 'role']).orderBy('id').execute(),
    streams: await app.db.selectFrom('streams').select(['id', 'name', 'description', 'invite_only', 'first_message_id']).orderBy('id').execute(),
    subscriptions: await app.db.selectFrom('subscriptions').select(['user_id', 'stream_id', 'color']).orderBy('user_id').orderBy('stream_id').execute(),
    messages: await app.db.selectFrom('messages').select(['id', 'sender_id', 'recipient_id', 'stream_id', 'topic', 'content', 'rendered_content', 'has_link', 'has_image', 'has_attachment']).orderBy('id').execute(),
    rows: await app.db.selectFrom('user_messages').selectAll().orderBy('message_id').orderBy('user_id').execute(),
  };
}

test('the same seed gives the same organization; another seed another', async () => {
  const [a, b, c] = [await fresh(), await fresh(), await fresh()];
  // Past 20 channels, channels have 30 to 400 of the users (how many and which ones, the seed decides).
  const args = ['--users', '100', '--channels', '30', '--messages', '300', '--unread-dms', '30', '--big-topics', '2', '--json'];
  populatedJson(await runPopulate(a.db, ...args, '--seed', '42'));
  populatedJson(await runPopulate(b.db, ...args, '--seed', '42'));
  populatedJson(await runPopulate(c.db, ...args, '--seed', '43'));
  const [x, y, z] = [await a.withApp(contents), await b.withApp(contents), await c.withApp(contents)];
  assert.equal(x.messages.length, 330);
  assert.deepEqual(y, x);
  assert.deepEqual(z.users, x.users); // people do not depend on the seed
  assert.notDeepEqual(z.messages.map((m) => m.content), x.messages.map((m) => m.content));
  assert.notDeepEqual(z.subscriptions, x.subscriptions);
  // --big-topics: that many topics of channel 1 hold half its messages between them.
  const general = x.streams.find((s) => s.name === 'general')!;
  const inGeneral = x.messages.filter((m) => m.stream_id === general.id);
  for (const t of ['big topic 1', 'big topic 2']) assert.equal(inGeneral.filter((m) => m.topic === t).length, Math.floor(inGeneral.length / 4));
});
