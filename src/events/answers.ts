// Parked polls due an answer are answered in slices, each in a turn of the event loop of its own: one event for
// 10,000 parked polls (a new user, a message to a large channel) otherwise wrote all 10,000 answers in one turn
// (345 ms on SQLite, B3), and every other request, the one that made the event included, waited for all of them.
// A slice's answers finish (their replies are written by the promise jobs that follow each callback) before the
// next slice starts, so the loop takes other I/O in between.
export const ANSWERS_PER_SLICE = 200;

const due = new Set<() => void>();
let scheduled = false;

function answerSlice(): void {
  let n = 0;
  for (const answer of due) {
    due.delete(answer);
    answer();
    if (++n === ANSWERS_PER_SLICE) break;
  }
  if (due.size) setImmediate(answerSlice);
  else scheduled = false;
}

// Answers soon, in the order asked; `cancelAnswer` with the same function takes it back.
export function answerSoon(answer: () => void): void {
  due.add(answer);
  if (scheduled) return;
  scheduled = true;
  setImmediate(answerSlice);
}

export function cancelAnswer(answer: () => void): void {
  due.delete(answer);
}
