// Parked polls due an answer are answered in slices (src/events/answers.ts): every one of them, in the order they
// became due, with other work of the event loop running between slices.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { answerSoon, ANSWERS_PER_SLICE, cancelAnswer } from '../src/events/answers.js';

test('every due answer runs once, in order, in slices with other work between them; a cancelled one does not', async () => {
  const total = ANSWERS_PER_SLICE * 2 + 7;
  const answered: number[] = [];
  const slices: number[] = [];
  // Promise jobs run after each callback of the event loop: a new slice starts after they have run.
  let slice = 0;
  let marked = false;
  let otherWorkRanAfter = -1;
  const cancelled = () => answered.push(-1);
  for (let i = 0; i < total; i++) {
    answerSoon(() => {
      if (!marked) {
        marked = true;
        queueMicrotask(() => {
          slice++;
          marked = false;
        });
      }
      if (i === 0) setImmediate(() => (otherWorkRanAfter = answered.length));
      answered.push(i);
      slices.push(slice);
    });
    if (i === 3) answerSoon(cancelled);
  }
  cancelAnswer(cancelled);
  while (answered.length < total) await new Promise((r) => setImmediate(r));
  assert.deepEqual(answered, Array.from({ length: total }, (_, i) => i));
  const sizes = [...new Set(slices)].map((s) => slices.filter((x) => x === s).length);
  assert.deepEqual(sizes, [ANSWERS_PER_SLICE, ANSWERS_PER_SLICE, 7]);
  assert.equal(otherWorkRanAfter, ANSWERS_PER_SLICE, 'work queued by the first slice runs before the second');
});
