// The reference's hash URLs: the shapes other clients produce, parsed to the same view, and formatted back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeHashComponent, encodeHashComponent, formatHash, parseHash } from '../src/router/hash';
import { normalizeTerms, type Term } from '../src/data/narrow';

// The terms of a message view.
function termsOf(hash: string, r = resolver): Term[] {
  const route = parseHash(hash, r);
  assert.equal(route.view, 'messages');
  return (route as { terms: Term[] }).terms;
}

const names = {
  channelName: (id: number) => ({ 42: 'design', 43: 'web public' } as Record<number, string>)[id],
  userName: (id: number) => ({ 7: 'Mia', 9: 'Iago Q' } as Record<number, string>)[id],
};
const resolver = {
  channelIdByName: (n: string) => ({ design: 42, 'web public': 43 } as Record<string, number>)[n],
  userIdByEmail: (e: string) => ({ 'mia@example.com': 7, 'iago@example.com': 9 } as Record<string, number>)[e],
};

test('names are percent-encoded with . for %', () => {
  assert.equal(encodeHashComponent('hello world'), 'hello.20world');
  assert.equal(encodeHashComponent('a.b'), 'a.2Eb');
  assert.equal(decodeHashComponent('hello.20world'), 'hello world');
  assert.equal(decodeHashComponent('a.2Eb'), 'a.b');
  assert.equal(decodeHashComponent('caf.C3.A9'), 'café');
  assert.equal(decodeHashComponent('bad.ZZ'), 'bad.ZZ'); // not decodable: kept as it is
});

test('views', () => {
  assert.deepEqual(parseHash(''), { view: 'messages', terms: [] });
  assert.deepEqual(parseHash('#feed'), { view: 'messages', terms: [] });
  for (const v of ['inbox', 'recent', 'drafts'] as const) assert.deepEqual(parseHash(`#${v}`), { view: v });
  assert.deepEqual(parseHash('#narrow/is/starred'), { view: 'messages', terms: [{ operator: 'is', operand: 'starred' }], near: undefined });
  assert.deepEqual(parseHash('#narrow/is/mentioned').view, 'messages');
  assert.deepEqual(parseHash('#narrow/is/dm'), { view: 'messages', terms: [{ operator: 'is', operand: 'dm' }], near: undefined });
  assert.deepEqual(parseHash('#narrow/is/private'), { view: 'messages', terms: [{ operator: 'is', operand: 'dm' }], near: undefined });
});

test('channel, topic, near and with', () => {
  assert.deepEqual(parseHash('#narrow/channel/42-design'), { view: 'messages', terms: [{ operator: 'channel', operand: 42 }], near: undefined });
  // The slug is informational: the id decides.
  assert.deepEqual(termsOf('#narrow/channel/42-old-name'), [{ operator: 'channel', operand: 42 }]);
  assert.deepEqual(termsOf('#narrow/stream/42-design/subject/colors'), [{ operator: 'channel', operand: 42 }, { operator: 'topic', operand: 'colors' }]);
  assert.deepEqual(parseHash('#narrow/channel/42-design/topic/hello.20world/near/1234'), {
    view: 'messages', terms: [{ operator: 'channel', operand: 42 }, { operator: 'topic', operand: 'hello world' }], near: 1234,
  });
  assert.equal((parseHash('#narrow/channel/42-design/topic/colors/with/99') as { near: number }).near, 99);
  // Older links name the channel.
  assert.deepEqual(termsOf('#narrow/stream/design'), [{ operator: 'channel', operand: 42 }]);
  assert.deepEqual(termsOf('#narrow/stream/web.20public'), [{ operator: 'channel', operand: 43 }]);
});

test('direct messages by user ids, and older links by e-mail', () => {
  assert.deepEqual(termsOf('#narrow/dm/7-Mia'), [{ operator: 'dm', operand: [7] }]);
  assert.deepEqual(termsOf('#narrow/dm/9,7-group'), [{ operator: 'dm', operand: [7, 9] }]);
  assert.deepEqual(termsOf('#narrow/pm-with/7-user7'), [{ operator: 'dm', operand: [7] }]);
  assert.deepEqual(termsOf('#narrow/pm-with/mia.40example.2Ecom'), [{ operator: 'dm', operand: [7] }]);
  assert.deepEqual(termsOf('#narrow/dm/7-Mia/near/5'), [{ operator: 'dm', operand: [7] }]);
});

test('search and chained operators, negations', () => {
  assert.deepEqual(termsOf('#narrow/search/lunch'), [{ operator: 'search', operand: 'lunch' }]);
  assert.deepEqual(termsOf('#narrow/channel/42-design/sender/7'), [{ operator: 'channel', operand: 42 }, { operator: 'sender', operand: 7 }]);
  assert.deepEqual(termsOf('#narrow/channel/42-design/-topic/noise'), [{ operator: 'channel', operand: 42 }, { operator: 'topic', operand: 'noise', negated: true }]);
  assert.deepEqual(termsOf('#narrow/has/link/is/unread'), [{ operator: 'has', operand: 'link' }, { operator: 'is', operand: 'unread' }]);
  assert.deepEqual(parseHash('#bogus'), { view: 'messages', terms: [] });
});

test('formatting gives the reference shapes, which parse back to the same view', () => {
  const cases: [Parameters<typeof formatHash>[0], string][] = [
    [{ view: 'messages', terms: [] }, '#feed'],
    [{ view: 'inbox' }, '#inbox'],
    [{ view: 'messages', terms: [{ operator: 'channel', operand: 42 }] }, '#narrow/channel/42-design'],
    [{ view: 'messages', terms: [{ operator: 'channel', operand: 43 }, { operator: 'topic', operand: 'a.b c' }] }, '#narrow/channel/43-web-public/topic/a.2Eb.20c'],
    [{ view: 'messages', terms: [{ operator: 'channel', operand: 42 }, { operator: 'topic', operand: 'x' }], near: 12 }, '#narrow/channel/42-design/topic/x/near/12'],
    [{ view: 'messages', terms: [{ operator: 'dm', operand: [7] }] }, '#narrow/dm/7-Mia'],
    [{ view: 'messages', terms: [{ operator: 'dm', operand: [9, 7] }] }, '#narrow/dm/7,9-group'],
    [{ view: 'messages', terms: [{ operator: 'sender', operand: 9 }] }, '#narrow/sender/9-Iago-Q'],
    [{ view: 'messages', terms: [{ operator: 'search', operand: 'lunch menu' }] }, '#narrow/search/lunch.20menu'],
    [{ view: 'messages', terms: [{ operator: 'is', operand: 'starred' }] }, '#narrow/is/starred'],
  ];
  for (const [route, hash] of cases) {
    assert.equal(formatHash(route, names), hash);
    const back = parseHash(hash);
    assert.equal(back.view, route.view);
    if (route.view === 'messages' && back.view === 'messages') {
      assert.deepEqual(back.terms, normalizeTerms(route.terms));
      assert.equal(back.near, route.near);
    }
  }
  assert.deepEqual(termsOf('#narrow/channel/43-web-public/topic/a.2Eb.20c'), [{ operator: 'channel', operand: 43 }, { operator: 'topic', operand: 'a.b c' }]);
});
