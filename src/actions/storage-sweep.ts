// The serving process's periodic pass over stored bytes (every storageSweepSeconds): unfinished resumable
// uploads past their expiry. Safe with several processes: rows are taken by deleting them, and a file goes only
// with its row.
import type { App } from '../app.js';
import { sweepStagedUploads } from './staged-uploads.js';

export async function sweepStorage(app: App): Promise<void> {
  await sweepStagedUploads(app);
}
