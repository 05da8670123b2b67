// The kept presence rows answer a client's position from their update-id order: exactly the rows changed after it,
// each once and as last kept, whatever order the rows arrived in and however often they were replaced.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { keep, keptRows, type Kept } from '../src/state/presence.js';

const row = (userId: number, lastUpdateId: number) => ({ userId, lastUpdateId, lastActiveTime: lastUpdateId, lastConnectedTime: lastUpdateId, email: `u${userId}@x`, visible: true });
const fresh = (): Kept => ({ seq: 0, rows: new Map(), log: [] });
const ids = (c: Kept, after?: number) => [...keptRows(c, after)].map((r) => [r.userId, r.lastUpdateId]);

test('the rows changed after a position, each as last kept, in update-id order', () => {
  const c = fresh();
  for (let i = 1; i <= 10; i++) keep(c, row(i, i));
  keep(c, row(3, 11));
  keep(c, row(5, 12));
  keep(c, row(3, 13));
  keep(c, row(7, 4)); // older than what is kept for user 7: ignored
  assert.deepEqual(ids(c, 9), [[10, 10], [5, 12], [3, 13]]);
  assert.deepEqual(ids(c, 13), []);
  assert.deepEqual(ids(c, 0).length, 10);
  assert.equal(ids(c).length, 10);
});

test('rows kept out of order (overlapping refreshes) are still answered in order', () => {
  const c = fresh();
  keep(c, row(1, 5));
  keep(c, row(2, 3));
  keep(c, row(3, 4));
  assert.deepEqual(ids(c, 3), [[3, 4], [1, 5]]);
});

test('replaced rows do not pile up', () => {
  const c = fresh();
  for (let n = 1; n <= 20_000; n++) keep(c, row(n % 10, n));
  assert.ok(c.log.length <= 2 * c.rows.size + 1000, `${c.log.length} entries for ${c.rows.size} rows`);
  assert.deepEqual(ids(c, 19_997), [[8, 19_998], [9, 19_999], [0, 20_000]]);
});
