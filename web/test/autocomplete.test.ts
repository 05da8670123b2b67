// Compose autocomplete: the token at the caret, ranking, and the reference's syntax once a candidate is chosen.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { channelSyntax, complete, mentionSyntax, rank, tokenAt, topicSyntax } from '../src/compose/autocomplete';

test('tokens: mentions, silent mentions, channels, topics, emoji', () => {
  assert.deepEqual(tokenAt('hi @mi', 6), { kind: 'mention', query: 'mi', start: 3, end: 6 });
  assert.deepEqual(tokenAt('@', 1), { kind: 'mention', query: '', start: 0, end: 1 });
  assert.deepEqual(tokenAt('ask @_ia', 8), { kind: 'silent-mention', query: 'ia', start: 4, end: 8 });
  assert.deepEqual(tokenAt('ask @**Kin', 10), { kind: 'mention', query: 'Kin', start: 4, end: 10 });
  assert.deepEqual(tokenAt('see #des', 8), { kind: 'channel', query: 'des', start: 4, end: 8 });
  assert.deepEqual(tokenAt('see #**design>col', 17), { kind: 'topic', query: 'col', channel: 'design', start: 4, end: 17 });
  assert.deepEqual(tokenAt('nice :smi', 9), { kind: 'emoji', query: 'smi', start: 5, end: 9 });
  assert.equal(tokenAt('mail me at a@b', 14), null, 'an @ inside a word is no mention');
  assert.equal(tokenAt('12:30', 5), null, 'a colon inside a word is no emoji');
  assert.equal(tokenAt('plain text', 10), null);
  // Only the text before the caret counts.
  assert.deepEqual(tokenAt('@mi and more', 3), { kind: 'mention', query: 'mi', start: 0, end: 3 });
});

test('ranking: prefixes first, then word starts, then anywhere', () => {
  const names = ['Amira', 'Mia', 'King Hamlet', 'Miles', 'Jeremiah'];
  assert.deepEqual(rank(names, 'mi', (x) => x), ['Mia', 'Miles', 'Amira', 'Jeremiah']);
  assert.deepEqual(rank(names, 'ham', (x) => x), ['King Hamlet']);
  assert.deepEqual(rank(names, '', (x) => x, 2), ['Amira', 'Mia']);
});

test('completion writes the reference syntax and moves the caret after it', () => {
  const text = 'hi @mi, see #des';
  const mention = tokenAt(text, 6)!;
  assert.deepEqual(complete(text, mention, mentionSyntax('Mia', 7, false)), { text: 'hi @**Mia|7** , see #des', caret: 14 });
  const channel = tokenAt(text, text.length)!;
  assert.deepEqual(complete(text, channel, channelSyntax('design')).text, 'hi @mi, see #**design** ');
  assert.equal(mentionSyntax('Mia', 7, true), '@_**Mia|7** ');
  assert.equal(topicSyntax('design', 'colors'), '#**design>colors** ');
});
