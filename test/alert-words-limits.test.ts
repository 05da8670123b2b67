// Alert words under load (issue 15): a bound on the words of a user and of a request (400 beyond, never a 500),
// and matching every recipient's words in one pass that stays exact as words change, here and in another
// process serving the same database.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type SeedName, type TestServer } from './helpers/server.js';
import { assertError, assertSuccess } from './helpers/assertions.js';
import { createChannel, messageFlags, sendToChannel } from './helpers/messages.js';

let server: TestServer;
let channel: number;
before(async () => {
  server = await startTestServer();
  channel = await createChannel(server, 'desdemona', ['iago', 'shiva', 'hamlet', 'cordelia', 'polonius']);
});
after(() => server?.close());

const words = async (name: SeedName) => assertSuccess(await server.as(name).get('/users/me/alert_words')).alert_words as string[];
const alerted = async (names: SeedName[], content: string) => {
  const id = await sendToChannel(server, 'desdemona', channel, 'alerts', content);
  const out: SeedName[] = [];
  for (const n of names) if ((await messageFlags(server, n, id)).includes('has_alert_word')) out.push(n);
  return out;
};

test('one request may carry at most 1000 alert words: 10,000 are refused with 400, not a 500', async () => {
  const many = Array.from({ length: 10_000 }, (_, i) => `word${i}`);
  assertError(await server.as('hamlet').post('/users/me/alert_words', { alert_words: many }), 400, 'BAD_REQUEST', 'alert_words has too many items (limit: 1000)');
  assertError(await server.as('hamlet').delete('/users/me/alert_words', { alert_words: many }), 400, 'BAD_REQUEST', 'alert_words has too many items (limit: 1000)');
  assert.deepEqual(await words('hamlet'), []);
});

test('a user may have at most 1000 alert words; a request that would pass the bound changes nothing', async () => {
  const me = server.as('polonius');
  const first = Array.from({ length: 1000 }, (_, i) => `p${i}`);
  assert.equal(assertSuccess(await me.post('/users/me/alert_words', { alert_words: first })).alert_words.length, 1000);
  // Words already present (in any case) do not count again.
  assert.equal(assertSuccess(await me.post('/users/me/alert_words', { alert_words: ['P1', 'p2'] })).alert_words.length, 1000);
  assertError(await me.post('/users/me/alert_words', { alert_words: ['p1', 'one more'] }), 400, 'BAD_REQUEST', 'Too many alert words (limit: 1000 per user)');
  assert.equal((await words('polonius')).length, 1000);
  assert.ok(!(await words('polonius')).includes('one more'));
  // Removing makes room again.
  assertSuccess(await me.delete('/users/me/alert_words', { alert_words: first.slice(0, 10) }));
  assert.equal(assertSuccess(await me.post('/users/me/alert_words', { alert_words: ['one more'] })).alert_words.length, 991);
  assertSuccess(await me.delete('/users/me/alert_words', { alert_words: [...first, 'one more'].slice(0, 1000) }));
  assertSuccess(await me.delete('/users/me/alert_words', { alert_words: ['one more'] }));
  assert.deepEqual(await words('polonius'), []);
});

test('every recipient is matched against their own words in one pass: overlaps, prefixes, case and whole words', async () => {
  const many = (prefix: string) => Array.from({ length: 990 }, (_, i) => `${prefix}${i}`);
  assertSuccess(await server.as('iago').post('/users/me/alert_words', { alert_words: ['one', 'one two', 'Snow ☃', ...many('iago')] }));
  assertSuccess(await server.as('shiva').post('/users/me/alert_words', { alert_words: ['two', 'abcd', 'ONE', ...many('shiva')] }));
  assertSuccess(await server.as('hamlet').post('/users/me/alert_words', { alert_words: ['bc', 'abc', 'cde', 'three four five', ...many('hamlet')] }));
  const all: SeedName[] = ['iago', 'shiva', 'hamlet', 'cordelia'];
  assert.deepEqual(await alerted(all, 'ONE TWO'), ['iago', 'shiva']);
  assert.deepEqual(await alerted(all, 'xone two'), ['shiva']);
  assert.deepEqual(await alerted(all, 'abcd'), ['shiva']);
  assert.deepEqual(await alerted(all, 'abcde'), []);
  assert.deepEqual(await alerted(all, '(abc) and cde.'), ['hamlet']);
  assert.deepEqual(await alerted(all, 'one three four five'), ['iago', 'shiva', 'hamlet']);
  assert.deepEqual(await alerted(all, 'three four fives'), []);
  assert.deepEqual(await alerted(all, 'snow ☃!'), ['iago']);
  assert.deepEqual(await alerted(all, 'shiva989 hamlet0'), ['shiva', 'hamlet']);
  assert.deepEqual(await alerted(all, 'shiva990 iago9899'), []);
  assert.deepEqual(await alerted(all, 'http://t.co/one'), []);
});

test('a change of anyone\'s words counts from the next message, also when made through another process', async () => {
  assert.deepEqual(await alerted(['cordelia'], 'kumquat'), []);
  assertSuccess(await server.as('cordelia').post('/users/me/alert_words', { alert_words: ['kumquat'] }));
  assert.deepEqual(await alerted(['cordelia'], 'kumquat'), ['cordelia']);
  const peer = await server.startPeer();
  try {
    assertSuccess(await peer.as('cordelia').delete('/users/me/alert_words', { alert_words: ['KUMQUAT'] }));
    assertSuccess(await peer.as('cordelia').post('/users/me/alert_words', { alert_words: ['durian'] }));
  } finally {
    await peer.stop();
  }
  assert.deepEqual(await alerted(['cordelia'], 'kumquat'), []);
  assert.deepEqual(await alerted(['cordelia'], 'durian'), ['cordelia']);
  // Words of a user who receives nothing never flag anyone else.
  assertSuccess(await server.as('lear').post('/users/me/alert_words', { alert_words: ['durian', 'kumquat'] }));
  assert.deepEqual(await alerted(['cordelia', 'hamlet'], 'durian kumquat'), ['cordelia']);
});
