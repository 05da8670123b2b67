// Work whose size grows with the organization (every user, every channel, every unread message) runs in slices:
// a loop asks `due()` as it goes and, when its slice has run long enough, awaits `pause()`, which lets the event
// loop answer other requests before the loop carries on. No one request then holds the loop for long.
const SLICE_MS = 8;

export class Pacer {
  private started = performance.now();
  private calls = 0;

  constructor(private sliceMs = SLICE_MS) {}

  // Cheap enough for every iteration: the clock is read once in 64 calls.
  due(): boolean {
    if ((++this.calls & 63) !== 0) return false;
    return performance.now() - this.started >= this.sliceMs;
  }

  async pause(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.started = performance.now();
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
