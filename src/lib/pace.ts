// Long work hands the event loop back now and then, so that one large request never keeps every other client
// waiting. On SQLite every query completes at once, so a request that runs thousands of them would otherwise
// hold the event loop from its first query to its last: `await pace()` (called before every query, and in long
// loops) costs nothing until the event loop has had no turn for SLICE_MS, then waits for one turn (I/O
// included, so other requests are read and answered meanwhile). Code that is correct on PostgreSQL, where
// every query waits for the network, is correct with these pauses.
export const SLICE_MS = 20;

export const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

let turnStarted = performance.now();
let watching = false;

// Notes when the event loop next gets to its check phase (after I/O), i.e. when other work had its chance. Work
// before the first watch of a stretch is not counted: at worst a pause comes one slice late.
function watch(): void {
  if (watching) return;
  watching = true;
  turnStarted = performance.now();
  setImmediate(() => {
    watching = false;
    turnStarted = performance.now();
  });
}

export function pace(): Promise<void> | void {
  watch();
  if (performance.now() - turnStarted < SLICE_MS) return;
  return yieldToEventLoop();
}
