// The coalescing window of flooded queues grows with the process's load (src/events/coalesce-window.ts): the
// configured window while the event loop has time to spare, at most MAX_EXTRA_MS more when it is fully busy;
// coalescing turned off stays off. (That a quiet queue is answered at once, and a flood in one answer, is
// test/event-coalescing.test.ts.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { coalesceWindow, CoalesceWindow, MAX_EXTRA_MS } from '../src/events/coalesce-window.js';

test('the configured window while the event loop is at most half busy', () => {
  for (const u of [0, 0.2, 0.5]) assert.equal(coalesceWindow(20, u), 20);
});

test('longer as the event loop gets busier, up to MAX_EXTRA_MS more', () => {
  assert.equal(coalesceWindow(20, 0.75), 20 + MAX_EXTRA_MS / 2);
  assert.equal(coalesceWindow(20, 1), 20 + MAX_EXTRA_MS);
  assert.ok(coalesceWindow(20, 0.9) > coalesceWindow(20, 0.6));
  assert.equal(coalesceWindow(1500, 1), 1500 + MAX_EXTRA_MS);
});

test('coalescing turned off stays off, whatever the load', () => {
  assert.equal(coalesceWindow(0, 1), 0);
  const w = new CoalesceWindow(0);
  assert.equal(w.ms, 0);
  w.stop();
});

test('a busy event loop lengthens the window of a live process', async () => {
  const w = new CoalesceWindow(20);
  try {
    assert.equal(w.ms, 20); // nothing measured yet
    // Keep the loop busy for a few sampling periods.
    const until = Date.now() + 450;
    while (Date.now() < until) {
      const stop = Date.now() + 45;
      while (Date.now() < stop);
      await new Promise((r) => setImmediate(r));
    }
    assert.ok(w.ms > 20 + MAX_EXTRA_MS / 2, `window ${w.ms} ms`);
    // Idle again: back to the configured window.
    await new Promise((r) => setTimeout(r, 350));
    assert.equal(w.ms, 20);
  } finally {
    w.stop();
  }
});
