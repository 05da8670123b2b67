// The search box's syntax, the reference's: operators with `+` for spaces, negation, and free text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseSearch, searchText } from '../src/search/parse';

const names = {
  channelIdByName: (n: string) => ({ design: 42, 'web public': 43 } as Record<string, number>)[n.toLowerCase()],
  channelName: (id: number) => ({ 42: 'design', 43: 'web public' } as Record<number, string>)[id],
  userId: (x: string) => ({ 'ada@x.org': 7, 'bob@x.org': 9, ada: 7 } as Record<string, number>)[x.toLowerCase()],
  userEmail: (id: number) => ({ 7: 'ada@x.org', 9: 'bob@x.org', 1: 'me@x.org' } as Record<number, string>)[id],
  me: 1,
};

test('operators, operands with + for spaces, and the rest as text', () => {
  assert.deepEqual(parseSearch('channel:design has:link is:starred new logo', names), [
    { operator: 'channel', operand: 42 }, { operator: 'has', operand: 'link' }, { operator: 'is', operand: 'starred' }, { operator: 'search', operand: 'new logo' },
  ]);
  assert.deepEqual(parseSearch('stream:web+public topic:emoji+picker', names), [{ operator: 'channel', operand: 43 }, { operator: 'topic', operand: 'emoji picker' }]);
  assert.deepEqual(parseSearch('sender:ada@x.org', names), [{ operator: 'sender', operand: 7 }]);
  assert.deepEqual(parseSearch('sender:me lunch', names), [{ operator: 'sender', operand: 1 }, { operator: 'search', operand: 'lunch' }]);
  assert.deepEqual(parseSearch('dm:ada@x.org,bob@x.org', names), [{ operator: 'dm', operand: [7, 9] }]);
  assert.deepEqual(parseSearch('pm-with:ada@x.org', names), [{ operator: 'dm', operand: [7] }]);
  assert.deepEqual(parseSearch('-topic:noise channel:design', names), [{ operator: 'topic', operand: 'noise', negated: true }, { operator: 'channel', operand: 42 }]);
  assert.deepEqual(parseSearch('near:123 channel:design', names), [{ operator: 'near', operand: 123 }, { operator: 'channel', operand: 42 }]);
  // Not an operator: a word like any other.
  assert.deepEqual(parseSearch('http://example.com ratio:3', names), [{ operator: 'search', operand: 'http://example.com ratio:3' }]);
  assert.deepEqual(parseSearch('   ', names), []);
});

test('terms written back as search text', () => {
  const text = 'channel:web+public topic:emoji+picker sender:ada@x.org -is:starred lunch time';
  assert.equal(searchText(parseSearch(text, names), names), text);
  assert.equal(searchText([{ operator: 'dm', operand: [7, 9] }, { operator: 'sender', operand: 1 }], names), 'dm:ada@x.org,bob@x.org sender:me');
});
