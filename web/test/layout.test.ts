// The virtual list's arithmetic: row positions from heights, and the rows a stretch of the list shows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { layout, rowAt, visibleRange } from '../src/feed/layout';

test('positions are running sums of heights', () => {
  assert.deepEqual([...layout([10, 20, 30])], [0, 10, 30, 60]);
  assert.deepEqual([...layout([])], [0]);
});

test('the row at a position', () => {
  const tops = layout([10, 20, 30]);
  assert.equal(rowAt(tops, 0), 0);
  assert.equal(rowAt(tops, 9.9), 0);
  assert.equal(rowAt(tops, 10), 1);
  assert.equal(rowAt(tops, 59), 2);
  assert.equal(rowAt(tops, 1000), 2);
});

test('the rows a stretch shows, bounded in number', () => {
  const tops = layout(Array(10_000).fill(50));
  assert.deepEqual(visibleRange(tops, 0, 900, 150), [0, 18]);
  assert.deepEqual(visibleRange(tops, 250_000 - 800, 250_000 + 1700, 150), [4984, 5034]);
  const [first, last] = visibleRange(tops, 0, 500_000, 150);
  assert.equal(last - first + 1, 150);
  assert.deepEqual(visibleRange(layout([]), 0, 100, 150), [0, -1]);
  assert.deepEqual(visibleRange(tops, -500, 100, 150), [0, 2]);
});
