// Every narrow operator GET /messages understands, each negated too, and GET /messages/matches_narrow.
import { test, after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { ParamValue } from './helpers/client.js';
import { startTestServer, type SeedName, type TestServer } from './helpers/server.js';
import { validateResponse } from './helpers/openapi-messages.js';
import { assertError, channelName, createChannel, fetchMessages, ids, sendDm, sendToChannel } from './helpers/messages.js';

let server: TestServer;
let alpha: number; // public: hamlet, cordelia, iago
let beta: number; // public: hamlet, iago
const m = {} as Record<'link' | 'image' | 'resolved' | 'upload' | 'dm' | 'group' | 'self', number>;
let all: number[];

before(async () => {
  server = await startTestServer();
  alpha = await createChannel(server, 'iago', ['hamlet', 'cordelia', 'iago']);
  beta = await createChannel(server, 'iago', ['hamlet', 'iago']);
  m.link = await sendToChannel(server, 'hamlet', alpha, 'Lunch', 'see https://example.com/menu');
  m.image = await sendToChannel(server, 'cordelia', alpha, 'Photos', 'look https://example.com/cat.png');
  m.resolved = await sendToChannel(server, 'iago', alpha, '✔ fixed bug', 'thanks @**King Hamlet**');
  m.upload = await sendToChannel(server, 'iago', beta, 'files', 'the [report](/user_uploads/2/ab/report.pdf)');
  m.dm = await sendDm(server, 'cordelia', ['hamlet'], 'hello in private');
  m.group = await sendDm(server, 'iago', ['hamlet', 'cordelia'], 'hello group');
  m.self = await sendDm(server, 'hamlet', ['hamlet'], 'a note');
  all = Object.values(m).sort((a, b) => a - b);
});
after(() => server.close());

async function narrowed(narrow: unknown[], who: SeedName = 'hamlet'): Promise<number[]> {
  return ids(await fetchMessages(server, who, { narrow }));
}

const without = (...excluded: number[]) => all.filter((id) => !excluded.includes(id));
const sorted = (...list: number[]) => list.sort((a, b) => a - b);

// Each case: a term, what it matches, and (for a negated term) what is left of hamlet's messages.
function cases(): [string, unknown, number[]][] {
  const u = server.users;
  return [
    ['channel', alpha, [m.link, m.image, m.resolved]],
    ['stream', alpha, [m.link, m.image, m.resolved]],
    ['topic', 'lunch', [m.link]],
    ['subject', 'PHOTOS', [m.image]],
    ['sender', u.cordelia.id, sorted(m.image, m.dm)],
    ['sender', u.cordelia.email, sorted(m.image, m.dm)],
    ['dm', [u.cordelia.id], [m.dm]],
    ['dm', `${u.cordelia.email},${u.iago.email}`, [m.group]],
    ['dm', [u.hamlet.id], [m.self]],
    ['pm-with', u.cordelia.email, [m.dm]],
    ['dm-including', u.cordelia.id, sorted(m.dm, m.group)],
    ['group-pm-with', u.iago.email, [m.group]],
    ['is', 'dm', sorted(m.dm, m.group, m.self)],
    ['is', 'private', sorted(m.dm, m.group, m.self)],
    ['is', 'mentioned', [m.resolved]],
    ['is', 'resolved', [m.resolved]],
    ['is', 'alerted', []],
    ['has', 'link', sorted(m.link, m.image, m.upload)],
    ['has', 'image', [m.image]],
    ['has', 'attachment', [m.upload]],
    ['id', m.group, [m.group]],
    ['search', 'hello', sorted(m.dm, m.group)],
  ];
}

describe('operators', () => {
  test('each operator, and each negated', async () => {
    for (const [operator, operand, expected] of cases()) {
      const label = `${operator}:${JSON.stringify(operand)}`;
      const positive = await narrowed([{ operator, operand }]);
      assert.deepEqual(positive, expected, label);
      assert.deepEqual(await narrowed([{ operator, operand, negated: true }]), without(...expected), `-${label}`);
    }
  });

  test('the legacy pair form, channel names, combinations and near', async () => {
    const name = await channelName(server, alpha);
    assert.deepEqual(await narrowed([['stream', name], ['topic', 'Lunch']]), [m.link]);
    assert.deepEqual(await narrowed([{ operator: 'channel', operand: name }, { operator: 'sender', operand: server.users.hamlet.id, negated: true }]), [m.image, m.resolved]);
    assert.deepEqual(await narrowed([['stream', String(alpha)], ['near', String(m.image)]]), [m.link, m.image, m.resolved]);
    assert.deepEqual(await narrowed([['is', 'dm'], ['dm-including', String(server.users.cordelia.id)], ['sender', server.users.iago.email]]), [m.group]);
  });

  test('is:starred and is:unread follow the caller\'s flags', async () => {
    const star = await server.as('hamlet').post('/messages/flags', { messages: [m.upload], op: 'add', flag: 'starred' });
    assert.equal(star.status, 200, star.text);
    assert.deepEqual(await narrowed([['is', 'starred']]), [m.upload]);
    assert.deepEqual(await narrowed([{ operator: 'is', operand: 'starred', negated: true }]), without(m.upload));
    // Hamlet has read what he sent; the rest is unread.
    assert.deepEqual(await narrowed([['is', 'unread']]), without(m.link, m.self));
    assert.deepEqual(await narrowed([{ operator: 'is', operand: 'unread', negated: true }]), [m.link, m.self]);
    assert.deepEqual(await narrowed([['is', 'unread']], 'cordelia'), sorted(m.link, m.resolved, m.group));
  });

  test('channels:public reaches every public channel\'s history', async () => {
    assert.deepEqual(await narrowed([['channels', 'public']], 'shiva'), [m.link, m.image, m.resolved, m.upload]);
    assert.deepEqual(await narrowed([['streams', 'public'], ['has', 'attachment']], 'cordelia'), [m.upload]);
  });

  test('bad narrows', async () => {
    const get = (narrow: ParamValue) => server.as('hamlet').get('/messages', { anchor: 'newest', num_before: 5, num_after: 0, narrow });
    assertError(await get([['frobnicate', 'x']]), 'Invalid narrow operator: unknown operator frobnicate', 'BAD_NARROW');
    assertError(await get([['is', 'bogus']]), "Invalid narrow operator: unknown 'is' operand bogus", 'BAD_NARROW');
    assertError(await get([['has', 'bogus']]), "Invalid narrow operator: unknown 'has' operand bogus", 'BAD_NARROW');
    assertError(await get([['sender', 'nobody@zulip.example.com']]), 'Invalid narrow operator: unknown user nobody@zulip.example.com', 'BAD_NARROW');
    assertError(await get([['dm', 'nobody@zulip.example.com']]), 'Invalid narrow operator: unknown user in nobody@zulip.example.com', 'BAD_NARROW');
    assertError(await get([['channel', 'Nowhere']]), 'Invalid narrow operator: unknown channel Nowhere', 'BAD_NARROW');
    assertError(await get([['id', 'seven']]), 'Invalid narrow operator: invalid id operand', 'BAD_NARROW');
    assertError(await get([['channels', 'all']]), 'Invalid narrow operator: invalid channels operand', 'BAD_NARROW');
    assertError(await get([['just one']]), 'Invalid narrow', 'BAD_NARROW');
    const notList = await get({ operator: 'is', operand: 'dm' });
    assert.equal(notList.status, 400);
  });
});

describe('GET /messages/matches_narrow', () => {
  test('returns the matching messages the caller may read, with their rendered content and escaped topic', async () => {
    const tricky = await sendToChannel(server, 'hamlet', alpha, 'a <b> & "c"', 'plain');
    const msgIds = [m.link, m.image, m.dm, tricky, 999999];
    const res = await server.as('hamlet').get('/messages/matches_narrow', { msg_ids: msgIds, narrow: [{ operator: 'channel', operand: alpha }] });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(validateResponse('GET /messages/matches_narrow', res.body), []);
    assert.deepEqual(Object.keys(res.body.messages).map(Number).sort((a, b) => a - b), [m.link, m.image, tricky]);
    assert.equal(res.body.messages[m.link].match_subject, 'Lunch');
    assert.match(res.body.messages[m.link].match_content, /^<p>see <a href="https:\/\/example\.com\/menu"/);
    assert.equal(res.body.messages[tricky].match_subject, 'a &lt;b&gt; &amp; &quot;c&quot;');
    // Another user's direct messages never match.
    const other = await server.as('shiva').get('/messages/matches_narrow', { msg_ids: [m.dm, m.link], narrow: [] });
    assert.deepEqual(Object.keys(other.body.messages), []);
    const dms = await server.as('cordelia').get('/messages/matches_narrow', { msg_ids: [m.dm, m.link], narrow: [['is', 'dm']] });
    assert.deepEqual(Object.keys(dms.body.messages).map(Number), [m.dm]);
  });
});
