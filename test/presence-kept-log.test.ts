// The kept presence rows answer a client's position from their update-id order: exactly the rows changed after it,
// each once and as last kept, whatever order the rows arrived in and however often they were replaced; the bytes
// kept per block say the same as the rows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { emptyKept, keep, keptRows, type Kept, modernAfter, modernPresence } from '../src/state/presence-log.js';

const row = (userId: number, lastUpdateId: number, visible = true) => ({ userId, lastUpdateId, lastActiveTime: lastUpdateId, lastConnectedTime: lastUpdateId, email: `u${userId}@x`, visible });
const ids = (c: Kept, after?: number) => [...keptRows(c, after)].map((r) => [r.userId, r.lastUpdateId]);

test('the rows changed after a position, each as last kept, in update-id order', () => {
  const c = emptyKept();
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
  const c = emptyKept();
  keep(c, row(1, 5));
  keep(c, row(2, 3));
  keep(c, row(3, 4));
  assert.deepEqual(ids(c, 3), [[3, 4], [1, 5]]);
});

test('replaced rows do not pile up', () => {
  const c = emptyKept();
  for (let n = 1; n <= 20_000; n++) keep(c, row(n % 10, n));
  assert.ok(c.entries <= 2 * c.rows.size + 1000, `${c.entries} entries for ${c.rows.size} rows`);
  assert.deepEqual(ids(c, 19_997), [[8, 19_998], [9, 19_999], [0, 20_000]]);
});

// What an answer must hold: every visible user whose kept row changed after the position, as that row says.
function expected(c: Kept, after: number) {
  const out: Record<string, unknown> = {};
  for (const r of c.rows.values()) if (r.visible && r.lastUpdateId > after) out[r.userId] = modernPresence(r);
  return out;
}
const answered = (c: Kept, after: number) => JSON.parse(`{${Buffer.concat(modernAfter(c, after)).toString()}}`);

test('the kept bytes answer every position as the rows do, across blocks, replacements and late rows', () => {
  const c = emptyKept();
  let id = 0;
  // 2,000 users, some invisible; then pings replacing rows all over the blocks, some arriving out of order.
  for (let u = 1; u <= 2000; u++) keep(c, row(u, ++id, u % 13 !== 0));
  const positions = [1, 255, 256, 257, 1000, 1999, 2000];
  for (const p of positions) assert.deepEqual(answered(c, p), expected(c, p), `position ${p}`);
  let seed = 7;
  const next = () => (seed = (seed * 48271) % 2147483647);
  for (let n = 0; n < 3000; n++) {
    const late = next() % 50 === 0;
    keep(c, row(1 + (next() % 2000), late ? id - (next() % 20) : ++id, next() % 17 !== 0));
    // Answers in between build and keep block bytes, which later replacements must make stale.
    if (n % 97 === 0) answered(c, id - (next() % 3000));
  }
  for (const p of [1, 100, 1500, 2500, id - 300, id - 1, id]) assert.deepEqual(answered(c, p), expected(c, p), `position ${p}`);
  assert.deepEqual(Object.keys(answered(c, id)), []);
});
