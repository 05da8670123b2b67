// Alert words: GET/POST/DELETE /users/me/alert_words, alert_words events and register block, and the
// has_alert_word flag on messages containing a recipient's alert word.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type SeedName, type TestServer } from './helpers/server.js';
import { assertError, assertSuccess } from './helpers/assertions.js';
import { assertMatchesSchema } from './helpers/openapi.js';
import { Listeners } from './helpers/events.js';
import { createChannel, messageFlags, sendDm, sendToChannel, takeUntil } from './helpers/messages.js';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server?.close());

const words = (name: SeedName) => server.as(name).get('/users/me/alert_words');

test('a user starts without alert words; adding trims, ignores empty words and duplicates of any case', async () => {
  const empty = assertSuccess(await words('hamlet'));
  assertMatchesSchema('/users/me/alert_words', 'get', empty);
  assert.deepEqual(empty.alert_words, []);

  const l = await Listeners.open(server, ['hamlet', 'cordelia'], { event_types: ['alert_words'] });
  const added = assertSuccess(await server.as('hamlet').post('/users/me/alert_words', { alert_words: ['one ', '\n two', 'three', '', '  ', 'ONE'] }));
  assertMatchesSchema('/users/me/alert_words', 'post', added);
  assert.deepEqual(added.alert_words, ['one', 'two', 'three']);
  assert.deepEqual(assertSuccess(await words('hamlet')).alert_words, ['one', 'two', 'three']);

  const [event] = await takeUntil(l, 'hamlet', 'alert_words');
  assert.deepEqual(event, { type: 'alert_words', alert_words: ['one', 'two', 'three'], id: event.id });
  assert.deepEqual(await l.take('cordelia'), [], 'alert words are private');

  // Adding only words already present (in another case) changes nothing and announces nothing.
  assert.deepEqual(assertSuccess(await server.as('hamlet').post('/users/me/alert_words', { alert_words: ['Two', 'THREE'] })).alert_words, ['one', 'two', 'three']);
  // The register block agrees with the events.
  const reg = assertSuccess(await server.as('hamlet').post('/register', { fetch_event_types: ['alert_words'] }));
  assert.deepEqual(reg.alert_words, ['one', 'two', 'three']);
  assert.deepEqual(await l.take('hamlet', 'alert_words'), []);
});

test('removing is case-insensitive and ignores words the user does not have', async () => {
  const me = server.as('cordelia');
  assertSuccess(await me.post('/users/me/alert_words', { alert_words: ['milk', 'cookies', 'multi-word word', '☃'] }));
  const l = await Listeners.open(server, ['cordelia', 'hamlet'], { event_types: ['alert_words'] });
  const removed = assertSuccess(await me.delete('/users/me/alert_words', { alert_words: ['MILK', 'bread'] }));
  assertMatchesSchema('/users/me/alert_words', 'delete', removed);
  assert.deepEqual(removed.alert_words, ['cookies', 'multi-word word', '☃']);
  const [event] = await takeUntil(l, 'cordelia', 'alert_words');
  assert.deepEqual(event.alert_words, ['cookies', 'multi-word word', '☃']);
  assert.deepEqual(await l.take('hamlet'), []);
  assert.deepEqual(assertSuccess(await me.delete('/users/me/alert_words', { alert_words: ['☃', 'multi-word word', 'cookies'] })).alert_words, []);
});

test('every kind of user keeps their own alert words', async () => {
  for (const name of ['desdemona', 'shiva', 'polonius', 'bot'] as SeedName[]) {
    assert.deepEqual(assertSuccess(await server.as(name).post('/users/me/alert_words', { alert_words: [`word of ${name}`] })).alert_words, [`word of ${name}`]);
  }
  assert.deepEqual(assertSuccess(await words('polonius')).alert_words, ['word of polonius']);
  assert.deepEqual(assertSuccess(await server.as('lear').get('/users/me/alert_words')).alert_words, []);
});

test('refused input: too long, not a list, missing', async () => {
  const me = server.as('shiva');
  assertSuccess(await me.post('/users/me/alert_words', { alert_words: ['a'.repeat(100)] }));
  assertError(await me.post('/users/me/alert_words', { alert_words: ['ok', 'a'.repeat(101)] }), 400, 'BAD_REQUEST', 'alert_words[1] is too long (limit: 100 characters)');
  assertError(await me.delete('/users/me/alert_words', { alert_words: ['a'.repeat(101)] }), 400, 'BAD_REQUEST', 'alert_words[0] is too long (limit: 100 characters)');
  assertError(await me.post('/users/me/alert_words', {}), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'alert_words' argument");
  assertError(await me.post('/users/me/alert_words', { alert_words: { a: 1 } }), 400, 'BAD_REQUEST', /^alert_words/);
  assertError(await me.post('/users/me/alert_words', { alert_words: '[1, 2]' }), 400, 'BAD_REQUEST', /^alert_words\[0\]/);
});

test('has_alert_word marks whole-word, case-insensitive matches for the recipients whose word it is', async () => {
  await server.as('iago').post('/users/me/alert_words', { alert_words: ['one', 'two', 'three', 'multi-word word', '☃'] });
  const channel = await createChannel(server, 'desdemona', ['iago', 'cordelia', 'shiva']);
  const l = await Listeners.open(server, ['iago', 'shiva'], { event_types: ['message'] });
  const alerts = async (content: string) => {
    const id = await sendToChannel(server, 'cordelia', channel, 'alerts', content);
    return (await messageFlags(server, 'iago', id)).includes('has_alert_word');
  };
  for (const content of ['Normal alert one time', 'Normal alert one', 'two normal alerts', 'This one? should alert', 'Definitely time for three.',
    "One two three o'clock", "One o'clock", "Case of ONE, won't stop me", '(one)', '[two]', '*three*', '`one`', '> one', 'a multi-word word here', 'snow ☃!']) {
    assert.equal(await alerts(content), true, content);
  }
  for (const content of ["Don't alert on http://t.co/one/ URLs", "Don't alert on http://t.co/one URLs", "Don't alert on clone, twofold or seventytwofold",
    'one_two', 'multi-word words', 'nothing here']) {
    assert.equal(await alerts(content), false, content);
  }
  // Recipients without the word are not flagged; the flag reaches the recipient's message event.
  const id = await sendToChannel(server, 'cordelia', channel, 'alerts', 'three cheers');
  assert.equal((await messageFlags(server, 'shiva', id)).includes('has_alert_word'), false);
  const events = await takeUntil(l, 'iago', 'message', (e) => e.message.id === id);
  assert.ok(events.find((e) => e.message.id === id)!.flags.includes('has_alert_word'));
  assert.ok(!(await takeUntil(l, 'shiva', 'message', (e) => e.message.id === id)).find((e) => e.message.id === id)!.flags.includes('has_alert_word'));
  // Direct messages too, and the sender's own words count (as in the reference server).
  const dm = await sendDm(server, 'hamlet', ['iago'], 'Just ONE thing');
  assert.ok((await messageFlags(server, 'iago', dm)).includes('has_alert_word'));
  const own = await sendToChannel(server, 'iago', channel, 'alerts', 'I said two');
  assert.ok((await messageFlags(server, 'iago', own)).includes('has_alert_word'));
  // The flag narrows as the reference server's is:alerted does.
  const alerted = assertSuccess(await server.as('iago').get('/messages', { anchor: 'newest', num_before: 100, num_after: 0, narrow: [['is', 'alerted']] }));
  assert.ok(alerted.messages.some((m: { id: number }) => m.id === dm));
  // Removing the word stops new flags.
  await server.as('iago').delete('/users/me/alert_words', { alert_words: ['one', 'two', 'three', 'multi-word word', '☃'] });
  assert.equal(await alerts('one two three'), false);
});
