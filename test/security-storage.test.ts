// Everything else a member can make the server keep: drafts, saved snippets, navigation views, alert words,
// scheduled messages and reminders are bounded per user; uploads no message claims are deleted after a while.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { assertError, assertSuccess } from './helpers/assertions.js';
import { eventually } from './helpers/events.js';
import { withDb } from './helpers/direct-db.js';
import { fetchFile, uploaded } from './helpers/uploads.js';
import { insertSnippet, insertView } from '../src/store/snippets-views.js';
import { insertScheduled } from '../src/store/scheduled-messages.js';
import { findRealmBySubdomain } from '../src/store/realms.js';

const LIMIT = 1000;
let server: TestServer;
let denmark: number;
let realmId: number;
before(async () => {
  server = await startTestServer({ env: { PARLANCE_STORAGE_SWEEP_SECONDS: '1' } });
  await server.as('hamlet').post('/users/me/subscriptions', { subscriptions: [{ name: 'Denmark' }] });
  denmark = (await server.as('hamlet').get('/get_stream_id', { stream: 'Denmark' })).body.stream_id;
  realmId = await withDb(server, async (db) => (await findRealmBySubdomain(db, ''))!.id);
});
after(() => server.close());

// Fills a user's allowance to one short of the limit behind the API's back, so that the test stays quick.
const fill = (count: number, fn: (db: Parameters<Parameters<typeof withDb>[1]>[0], i: number) => Promise<unknown>) =>
  withDb(server, async (db) => {
    for (let i = 0; i < count; i++) await fn(db, i);
  });

test('a draft longer than a message is cut as a message would be', async () => {
  const long = 'x'.repeat(20_000);
  const [id] = assertSuccess(await server.as('hamlet').post('/drafts', { drafts: [{ type: '', to: [], topic: '', content: long }] })).ids;
  const draft = (assertSuccess(await server.as('hamlet').get('/drafts')).drafts as { id: number; content: string }[]).find((d) => d.id === id)!;
  assert.equal([...draft.content].length, 10_000);
  assert.ok(draft.content.endsWith('\n[message truncated]'));
  assertSuccess(await server.as('hamlet').patch(`/drafts/${id}`, { draft: { type: '', to: [], topic: '', content: long } }));
  const edited = (assertSuccess(await server.as('hamlet').get('/drafts')).drafts as { id: number; content: string }[]).find((d) => d.id === id)!;
  assert.equal([...edited.content].length, 10_000);
});

test(`at most ${LIMIT} drafts per user`, async () => {
  // POST /drafts takes at most 100 drafts a request (src/lib/limits.ts): fill up in requests of 100.
  const drafts = (n: number, from = 0) => Array.from({ length: n }, (_, i) => ({ type: '', to: [], topic: '', content: `d${from + i}` }));
  for (let i = 0; i < LIMIT - 50; i += 100) {
    assert.equal(assertSuccess(await server.as('cordelia').post('/drafts', { drafts: drafts(Math.min(100, LIMIT - 50 - i), i) })).ids.length, Math.min(100, LIMIT - 50 - i));
  }
  // A request that would pass the limit stores none of its drafts.
  assertError(await server.as('cordelia').post('/drafts', { drafts: drafts(51, LIMIT) }), 400, 'BAD_REQUEST', `You may keep at most ${LIMIT} drafts.`);
  assert.equal(assertSuccess(await server.as('cordelia').get('/drafts')).count, LIMIT - 50);
  assert.equal(assertSuccess(await server.as('cordelia').post('/drafts', { drafts: drafts(50, LIMIT) })).ids.length, 50);
  assertError(await server.as('cordelia').post('/drafts', { drafts: drafts(1, 2 * LIMIT) }), 400, 'BAD_REQUEST', `You may keep at most ${LIMIT} drafts.`);
});

test(`at most ${LIMIT} saved snippets, navigation views, alert words`, async () => {
  const user = server.users.shiva.id;
  await fill(LIMIT - 1, (db, i) => insertSnippet(db, user, { title: `s${i}`, content: 'c', date_created: 0 }));
  assertSuccess(await server.as('shiva').post('/saved_snippets', { title: 'last', content: 'c' }));
  assertError(await server.as('shiva').post('/saved_snippets', { title: 'one more', content: 'c' }), 400, 'BAD_REQUEST', `You may keep at most ${LIMIT} saved snippets.`);

  await fill(LIMIT - 1, (db, i) => insertView(db, user, { fragment: `narrow/channel/${i}`, is_pinned: false, name: `v${i}` }));
  assertSuccess(await server.as('shiva').post('/navigation_views', { fragment: 'narrow/is/dm', is_pinned: true, name: 'last' }));
  assertError(await server.as('shiva').post('/navigation_views', { fragment: 'narrow/is/alerted', is_pinned: true, name: 'more' }), 400, 'BAD_REQUEST', `You may keep at most ${LIMIT} navigation views.`);
  assertError(await server.as('hamlet').post('/navigation_views', { fragment: `narrow/search/${'q'.repeat(2000)}`, is_pinned: true, name: 'long' }), 400, 'BAD_REQUEST', 'Fragment is too long (limit: 2000 characters).');

  const words = Array.from({ length: LIMIT }, (_, i) => `word${i}`);
  assertSuccess(await server.as('shiva').post('/users/me/alert_words', { alert_words: words }));
  // Words already there take no more room.
  assertSuccess(await server.as('shiva').post('/users/me/alert_words', { alert_words: ['word1', 'WORD2'] }));
  assertError(await server.as('shiva').post('/users/me/alert_words', { alert_words: ['word1', 'another'] }), 400, 'BAD_REQUEST', `Too many alert words (limit: ${LIMIT} per user)`);
});

test(`at most ${LIMIT} scheduled messages and reminders waiting to be sent`, async () => {
  const user = server.users.iago.id;
  const fields = { type: 'private' as const, to: [user], topic: '', content: 'x', renderedContent: '<p>x</p>', scheduledTimestamp: Math.floor(Date.now() / 1000) + 86_400 };
  await fill(LIMIT - 1, (db) => insertScheduled(db, realmId, user, fields, null));
  const when = Math.floor(Date.now() / 1000) + 3600;
  assertSuccess(await server.as('iago').post('/scheduled_messages', { type: 'direct', to: JSON.stringify([user]), content: 'last', scheduled_delivery_timestamp: when }));
  const message = assertSuccess(await server.as('iago').post('/messages', { type: 'stream', to: 'Denmark', topic: 't', content: 'remember' })).id;
  const full = `You may keep at most ${LIMIT} scheduled messages and reminders.`;
  assertError(await server.as('iago').post('/scheduled_messages', { type: 'direct', to: JSON.stringify([user]), content: 'more', scheduled_delivery_timestamp: when }), 400, 'BAD_REQUEST', full);
  assertError(await server.as('iago').post('/reminders', { message_id: message, scheduled_delivery_timestamp: when }), 400, 'BAD_REQUEST', full);
});

test('uploads that no message claims are deleted after the period; claimed ones, and ones a scheduled message names, stay', async () => {
  const unclaimed = await uploaded(server, 'hamlet', 'lonely.txt', 'nobody links me');
  const claimed = await uploaded(server, 'hamlet', 'shared.txt', 'a message links me');
  const scheduled = await uploaded(server, 'hamlet', 'later.txt', 'a scheduled message links me');
  const recent = await uploaded(server, 'hamlet', 'fresh.txt', 'young enough');
  assertSuccess(await server.as('hamlet').post('/messages', { type: 'stream', to: 'Denmark', topic: 'files', content: `[shared](${claimed})` }));
  assertSuccess(await server.as('hamlet').post('/scheduled_messages', {
    type: 'stream', to: denmark, topic: 'files', content: `[later](${scheduled})`, scheduled_delivery_timestamp: Math.floor(Date.now() / 1000) + 86_400,
  }));
  const pathOf = (url: string) => url.replace('/user_uploads/', '');
  await withDb(server, (db) =>
    db.updateTable('attachments').set({ create_time: Math.floor(Date.now() / 1000) - 36 * 86_400 }).where('path_id', 'in', [unclaimed, claimed, scheduled].map(pathOf)).execute(),
  );
  const names = async () => (assertSuccess(await server.as('hamlet').get('/attachments')).attachments as { name: string }[]).map((a) => a.name).sort();
  await eventually(async () => ((await names()).includes('lonely.txt') ? undefined : true));
  assert.deepEqual(await names(), ['fresh.txt', 'later.txt', 'shared.txt']);
  assert.equal((await fetchFile(server, 'hamlet', unclaimed)).status, 404);
  for (const url of [claimed, scheduled, recent]) assert.equal((await fetchFile(server, 'hamlet', url)).status, 200);
});

test('a user group description is bounded as a channel description is', async () => {
  const long = 'd'.repeat(1025);
  const tooLong = 'User group description too long (limit: 1024 characters).';
  assertError(await server.as('hamlet').post('/user_groups/create', { name: 'wordy', description: long, members: JSON.stringify([server.users.hamlet.id]) }), 400, 'BAD_REQUEST', tooLong);
  assertSuccess(await server.as('hamlet').post('/user_groups/create', { name: 'wordy', description: long.slice(1), members: JSON.stringify([server.users.hamlet.id]) }));
  const group = (assertSuccess(await server.as('hamlet').get('/user_groups')).user_groups as { id: number; name: string }[]).find((g) => g.name === 'wordy')!;
  assertError(await server.as('hamlet').patch(`/user_groups/${group.id}`, { description: long }), 400, 'BAD_REQUEST', tooLong);
});
