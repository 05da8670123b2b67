// Long work hands the event loop back now and then, so that one large request never keeps every other client
// waiting. On SQLite every query completes at once, so a request that runs thousands of them would otherwise
// hold the event loop from its first query to its last: `await pace()` (called before every query, and in long
// loops) costs nothing until the event loop has had no turn for SLICE_MS, then waits for one turn (I/O
// included, so other requests are read and answered meanwhile). Code that is correct on PostgreSQL, where
// every query waits for the network, is correct with these pauses. The budget is the loop's, not a request's:
// ten large requests at once still leave the loop a turn every SLICE_MS.
export const SLICE_MS = 10;

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

function due(): boolean {
  watch();
  return performance.now() - turnStarted >= SLICE_MS;
}

export function pace(): Promise<void> | void {
  if (due()) return yieldToEventLoop();
}

// For tight loops over thousands of items: `if (pacer.due()) await pacer.pause()` reads the clock once in 64
// calls and makes no promise otherwise.
export class Pacer {
  private calls = 0;

  due(): boolean {
    return (++this.calls & 63) === 0 && due();
  }

  pause(): Promise<void> {
    return yieldToEventLoop();
  }
}

// `fn` over `items`, in slices.
export async function mapInSlices<T, R>(items: readonly T[], fn: (item: T) => R): Promise<R[]> {
  const pacer = new Pacer();
  const out: R[] = new Array(items.length);
  for (let i = 0; i < items.length; i++) {
    out[i] = fn(items[i]);
    if (pacer.due()) await pacer.pause();
  }
  return out;
}
