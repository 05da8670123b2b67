// sharp (libvips) is loaded at the first image a server handles, not at start-up: an idle server need not hold it
// (about 19 MB of memory; B8).
import type SharpModule from 'sharp';

let loading: Promise<typeof SharpModule> | undefined;

export const loadSharp = (): Promise<typeof SharpModule> =>
  (loading ??= import('sharp').then(({ default: sharp }) => {
    // libvips works on the thread pool, never on the event loop; one thread per image, no operation cache.
    sharp.concurrency(1);
    sharp.cache(false);
    return sharp;
  }));
