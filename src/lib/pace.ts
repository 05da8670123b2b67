// Long loops hand the event loop back now and then, so that one large request never keeps every other client
// waiting: `await pace()` costs nothing until `sliceMs` of work has run since the last pause, then waits for
// one turn of the event loop (I/O included, so other requests are read and answered meanwhile).
export const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export const SLICE_MS = 20;

export function pacer(sliceMs = SLICE_MS): () => Promise<void> | void {
  let since = performance.now();
  return () => {
    if (performance.now() - since < sliceMs) return;
    return yieldToEventLoop().then(() => {
      since = performance.now();
    });
  };
}
