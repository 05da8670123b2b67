// The virtual list's arithmetic: row positions from heights, and the rows a stretch of the list shows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { layout, relayout, rowAt, visibleRange } from '../src/feed/layout';

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

test('relayout reuses the unchanged start and asks only for the rest', () => {
  const asked: number[] = [];
  const h = (i: number) => (asked.push(i), 10 + i);
  const a = relayout(null, [1, 2, 3], Infinity, h);
  assert.deepEqual([...a.tops], [0, 10, 21, 33]);
  asked.length = 0;
  const b = relayout(a, [1, 2, 3, 4], Infinity, h);
  assert.deepEqual(asked, [3], 'appended: only the new row');
  assert.deepEqual([...b.tops], [0, 10, 21, 33, 46]);
  asked.length = 0;
  const c = relayout(b, [1, 2, 3, 4], 1, (i) => (asked.push(i), 50));
  assert.deepEqual(asked, [1, 2, 3], 'a height changed at row 1: from there on');
  assert.deepEqual([...c.tops], [0, 10, 60, 110, 160]);
  asked.length = 0;
  const d = relayout(c, [-1, 0, 1, 2, 3, 4], Infinity, h);
  assert.deepEqual(asked, [0, 1], 'prepended: only the new rows');
  assert.deepEqual([...d.tops], [0, 10, 21, 31, 81, 131, 181]);
  asked.length = 0;
  relayout(c, [0, 1, 2, 3, 4], 2, h);
  assert.deepEqual(asked, [0, 1, 2, 3, 4], 'prepended with a height changed: everything');
  asked.length = 0;
  const e = relayout(c, [1, 2], Infinity, h);
  assert.deepEqual(asked, [], 'shortened: nothing to ask');
  assert.deepEqual([...e.tops], [0, 10, 60]);
});
