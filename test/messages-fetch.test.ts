// GET /messages anchors and windows, who may read what, and GET /messages/{id}; replies are checked against the
// reference server's published schemas.
import { test, after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { validateResponse } from './helpers/openapi-messages.js';
import { assertError, channelName, createChannel, fetchMessages, ids, sendDm, sendToChannel, subscribe } from './helpers/messages.js';

const NEWEST = 10_000_000_000_000_000;
let server: TestServer;
let lane: number; // public: hamlet, cordelia
const sent: number[] = [];

before(async () => {
  server = await startTestServer();
  lane = await createChannel(server, 'iago', ['hamlet', 'cordelia']);
  for (let i = 1; i <= 10; i++) sent.push(await sendToChannel(server, 'hamlet', lane, i % 2 ? 'odd' : 'even', `message ${i}`));
});
after(() => server.close());

const inLane = [{ operator: 'channel', operand: 0 }];
async function window(params: Record<string, unknown>, who: 'hamlet' | 'cordelia' = 'cordelia') {
  inLane[0].operand = lane;
  const res = await server.as(who).get('/messages', { narrow: inLane, num_before: 0, num_after: 0, ...params });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(validateResponse('GET /messages', res.body), []);
  return res.body;
}

describe('anchors and windows', () => {
  test('newest and oldest', async () => {
    const newest = await window({ anchor: 'newest', num_before: 3 });
    assert.deepEqual(ids(newest), sent.slice(-3));
    assert.deepEqual([newest.anchor, newest.found_anchor, newest.found_oldest, newest.found_newest, newest.history_limited], [NEWEST, false, false, true, false]);
    const all = await window({ anchor: 'newest', num_before: 50, num_after: 50 });
    assert.deepEqual(ids(all), sent);
    assert.deepEqual([all.found_oldest, all.found_newest], [true, true]);
    const oldest = await window({ anchor: 'oldest', num_after: 3 });
    assert.deepEqual(ids(oldest), sent.slice(0, 3));
    assert.deepEqual([oldest.anchor, oldest.found_anchor, oldest.found_oldest, oldest.found_newest], [0, false, true, false]);
    const zero = await window({ anchor: '0', num_before: 5, num_after: 2 });
    assert.deepEqual(ids(zero), sent.slice(0, 2));
    assert.equal(zero.found_oldest, true);
    const huge = await window({ anchor: String(NEWEST), num_before: 1 });
    assert.deepEqual(ids(huge), sent.slice(-1));
  });

  test('an id, with and without the anchor, at the ends and off the narrow', async () => {
    const mid = await window({ anchor: sent[4], num_before: 2, num_after: 2 });
    assert.deepEqual(ids(mid), sent.slice(2, 7));
    assert.deepEqual([mid.anchor, mid.found_anchor, mid.found_oldest, mid.found_newest], [sent[4], true, false, false]);
    const without = await window({ anchor: sent[4], num_before: 2, num_after: 2, include_anchor: false });
    assert.deepEqual(ids(without), [sent[2], sent[3], sent[5], sent[6]]);
    assert.equal(without.found_anchor, false);
    const toEnds = await window({ anchor: sent[4], num_before: 10, num_after: 10 });
    assert.deepEqual([toEnds.found_oldest, toEnds.found_newest], [true, true]);
    const exact = await window({ anchor: sent[4], num_before: 4, num_after: 5 });
    assert.deepEqual([exact.found_oldest, exact.found_newest], [false, false], 'exactly filled sides promise nothing');
    const onlyAnchor = await window({ anchor: sent[0] });
    assert.deepEqual(ids(onlyAnchor), [sent[0]]);
    assert.deepEqual([onlyAnchor.found_anchor, onlyAnchor.found_oldest, onlyAnchor.found_newest], [true, false, false]);
    const other = await sendDm(server, 'hamlet', ['cordelia'], 'not in the lane');
    const off = await window({ anchor: other, num_before: 1, num_after: 1 });
    assert.deepEqual(ids(off), [sent[9]]);
    assert.deepEqual([off.found_anchor, off.found_newest], [false, true]);
  });

  test('first_unread, and the legacy use_first_unread_anchor', async () => {
    const read = await server.as('cordelia').post('/messages/flags', { messages: sent.slice(0, 4), op: 'add', flag: 'read' });
    assert.equal(read.status, 200, read.text);
    const first = await window({ anchor: 'first_unread', num_before: 1, num_after: 1 });
    assert.deepEqual(ids(first), sent.slice(3, 6));
    assert.deepEqual([first.anchor, first.found_anchor], [sent[4], true]);
    const legacy = await window({ use_first_unread_anchor: true, num_after: 1 });
    assert.deepEqual([legacy.anchor, ids(legacy)], [sent[4], sent.slice(4, 6)]);
    // Nothing unread: the newest messages, as for anchor=newest.
    const none = await window({ anchor: 'first_unread', num_before: 2, num_after: 2 }, 'hamlet');
    assert.deepEqual(ids(none), sent.slice(-2));
    assert.deepEqual([none.anchor, none.found_anchor, none.found_newest], [NEWEST, false, true]);
  });

  test('bad anchors and oversized windows', async () => {
    assertError(await server.as('hamlet').get('/messages', { anchor: 'middle', num_before: 1, num_after: 0 }), 'Invalid anchor');
    assertError(await server.as('hamlet').get('/messages', { anchor: 'newest', num_before: 4000, num_after: 1001 }), 'Too many messages requested (maximum 5000).');
    const neg = await server.as('hamlet').get('/messages', { anchor: 'newest', num_before: -1 });
    assert.equal(neg.status, 400);
  });
});

describe('who reads what', () => {
  test('a private channel with protected history: outsiders see nothing; new subscribers only what follows', async () => {
    const secret = await createChannel(server, 'iago', ['iago', 'shiva'], { invite_only: true });
    const before = await sendToChannel(server, 'shiva', secret, 't', 'before hamlet joined');
    const bad = await server.as('hamlet').get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: [{ operator: 'channel', operand: secret }] });
    assertError(bad, `Invalid narrow operator: unknown channel ${secret}`, 'BAD_NARROW');
    assert.ok(!ids(await fetchMessages(server, 'hamlet', {})).includes(before));
    assertError(await server.as('hamlet').get(`/messages/${before}`), 'Invalid message(s)');

    await subscribe(server, ['hamlet'], await channelName(server, secret));
    const after = await sendToChannel(server, 'shiva', secret, 't', 'after hamlet joined');
    const narrow = [{ operator: 'channel', operand: secret }];
    assert.deepEqual(ids(await fetchMessages(server, 'hamlet', { narrow })), [after]);
    assertError(await server.as('hamlet').get(`/messages/${before}`), 'Invalid message(s)');
    assert.deepEqual(ids(await fetchMessages(server, 'iago', { narrow })), [before, after]);
  });

  test('a private channel with shared history shows new subscribers everything', async () => {
    const shared = await createChannel(server, 'iago', ['iago'], { invite_only: true, history_public_to_subscribers: true });
    const old = await sendToChannel(server, 'iago', shared, 't', 'old news');
    await subscribe(server, ['cordelia'], await channelName(server, shared));
    const body = await fetchMessages(server, 'cordelia', { narrow: [{ operator: 'channel', operand: shared }] });
    assert.deepEqual(ids(body), [old]);
    assert.deepEqual(body.messages[0].flags, ['read', 'historical']);
  });

  test('a public channel\'s history is readable by non-subscribers narrowed to it, but not by guests', async () => {
    const name = await channelName(server, lane);
    const narrow = [{ operator: 'channel', operand: name }];
    const shiva = await fetchMessages(server, 'shiva', { narrow });
    assert.deepEqual(ids(shiva), sent);
    assert.ok(shiva.messages.every((m: { flags: string[] }) => m.flags.join() === 'read,historical'));
    assert.ok(!ids(await fetchMessages(server, 'shiva', {})).some((id) => sent.includes(id)), 'the default view holds received messages only');
    const single = await server.as('shiva').get(`/messages/${sent[0]}`);
    assert.equal(single.status, 200, single.text);
    assert.deepEqual(single.body.message.flags, ['read', 'historical']);
    assertError(await server.as('polonius').get('/messages', { anchor: 'newest', num_before: 5, num_after: 0, narrow }), `Invalid narrow operator: unknown channel ${name}`, 'BAD_NARROW');
    assertError(await server.as('polonius').get(`/messages/${sent[0]}`), 'Invalid message(s)');
    const publicOnes = await fetchMessages(server, 'shiva', { narrow: [{ operator: 'channels', operand: 'public' }] });
    assert.ok(sent.every((id) => ids(publicOnes).includes(id)));
    assert.deepEqual(ids(await fetchMessages(server, 'polonius', { narrow: [['channels', 'public']] })), []);
  });

  test('a subscribed guest reads the channel\'s history', async () => {
    const guests = await createChannel(server, 'iago', ['iago']);
    const old = await sendToChannel(server, 'iago', guests, 't', 'before the guest');
    await subscribe(server, ['polonius'], await channelName(server, guests));
    assert.deepEqual(ids(await fetchMessages(server, 'polonius', { narrow: [['channel', String(guests)]] })), [old]);
  });

  test('direct messages are read by their participants only', async () => {
    const dm = await sendDm(server, 'hamlet', ['cordelia'], 'just us');
    assert.equal((await server.as('cordelia').get(`/messages/${dm}`)).status, 200);
    for (const who of ['iago', 'desdemona', 'polonius'] as const) assertError(await server.as(who).get(`/messages/${dm}`), 'Invalid message(s)');
  });
});

describe('GET /messages/{message_id}', () => {
  test('raw_content, apply_markdown, allow_empty_topic_name, flags, and missing messages', async () => {
    const id = await sendToChannel(server, 'hamlet', lane, '', 'some *emphasis*');
    const res = await server.as('cordelia').get(`/messages/${id}`);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(validateResponse('GET /messages/{message_id}', res.body), []);
    assert.equal(res.body.raw_content, 'some *emphasis*');
    assert.equal(res.body.message.content, '<p>some <em>emphasis</em></p>');
    assert.equal(res.body.message.subject, 'general chat');
    assert.deepEqual(res.body.message.flags, []);
    const raw = await server.as('cordelia').get(`/messages/${id}`, { apply_markdown: false, allow_empty_topic_name: true });
    assert.equal(raw.body.message.content, 'some *emphasis*');
    assert.equal(raw.body.message.content_type, 'text/x-markdown');
    assert.equal(raw.body.message.subject, '');
    for (const bad of [999999, 99999999999]) assertError(await server.as('cordelia').get(`/messages/${bad}`), 'Invalid message(s)');
    const dm = await sendDm(server, 'hamlet', ['cordelia', 'iago'], 'group');
    const group = await server.as('iago').get(`/messages/${dm}`);
    assert.deepEqual(validateResponse('GET /messages/{message_id}', group.body), []);
  });

  test('GET /messages replies for direct messages and every flavour conform to the published schema', async () => {
    for (const params of [{}, { apply_markdown: false }, { client_gravatar: false }, { narrow: [['is', 'dm']] }]) {
      const res = await server.as('cordelia').get('/messages', { anchor: 'newest', num_before: 20, num_after: 0, ...params });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(validateResponse('GET /messages', res.body), []);
      assert.ok(res.body.messages.length > 0);
    }
  });
});
