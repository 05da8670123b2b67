// SQLite writes commits to the WAL file and, every so many pages, copies them back into the database file (a
// checkpoint). Run inside a commit, on the event loop, a checkpoint stalls every request for tens to hundreds of
// milliseconds (B2's p99: 421 ms with, 40 ms without). A serving process checkpoints from a worker thread with a
// connection of its own instead: PASSIVE checkpoints wait for nobody, and readers and the writer carry on. The
// serving connection keeps a far higher threshold of its own, so a worker that fails only brings back the stalls.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';
import type { Logger } from 'pino';

const EVERY_MS = 500;
// A big write (a topic of 10,000 messages moved) adds tens of thousands of pages in seconds while the worker copies
// them back, and a checkpoint run by a commit on the serving connection stalls the event loop (120 ms at 20,000
// pages): far above what a burst adds. The log restarts once the worker has copied it all. It is not cut back
// (no journal_size_limit): SQLite truncates a large log in the first commit after the restart, on the event loop,
// which held it for 260–390 ms under B12's 1,000 webhook posts a second (p99 339 ms with the cut, 19 ms without).
// The log file keeps the size of the largest burst (at most the fallback's 1 GB) and is written over from its start.
export const FALLBACK_AUTOCHECKPOINT_PAGES = 250_000;

// CommonJS run by the worker: the module path comes from the parent, so it resolves wherever the process runs.
const WORKER = `
const { workerData, parentPort } = require('node:worker_threads');
const SQLite = require(workerData.module);
const db = new SQLite(workerData.file);
db.pragma('busy_timeout = 1000');
const checkpoint = db.prepare('pragma wal_checkpoint(PASSIVE)');
const timer = setInterval(() => {
  try { checkpoint.all(); } catch (err) { parentPort.postMessage(String(err)); }
}, workerData.everyMs);
parentPort.on('message', () => { clearInterval(timer); checkpoint.all(); db.close(); parentPort.close(); });
`;

// The worker starts at the first write after start-up: an idle server does without its thread (about 8 MB; B8).
// What the log held from before (a copied database, a crash) is copied back first, at start-up, so that no commit
// has to; from then on the serving connection leaves checkpoints to the worker.
export function startCheckpointer(file: SQLite.Database, log: Logger, everyMs = EVERY_MS): { stop(): Promise<void> } {
  file.pragma('wal_checkpoint(PASSIVE)');
  file.pragma(`wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT_PAGES}`);
  const changes = file.prepare('select total_changes()').pluck();
  const before = changes.get() as number;
  let started: { stop(): Promise<void> } | undefined;
  const watch = setInterval(() => {
    if (changes.get() === before) return;
    clearInterval(watch);
    started = startWorker(file, log, everyMs);
  }, everyMs);
  watch.unref();
  return {
    stop: async () => {
      clearInterval(watch);
      await started?.stop();
    },
  };
}

function startWorker(file: SQLite.Database, log: Logger, everyMs: number): { stop(): Promise<void> } {
  const worker = new Worker(WORKER, {
    eval: true,
    workerData: { module: createRequire(import.meta.url).resolve('better-sqlite3'), file: file.name, everyMs },
    // It allocates next to nothing: a small heap keeps its isolate from reserving the default young generation.
    resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 16 },
  });
  let warned = false;
  worker.on('message', (err: string) => {
    if (!warned) log.warn({ err }, 'background checkpoint failed; retrying');
    warned = true;
  });
  worker.on('error', (err) => {
    log.error({ err }, 'checkpoint worker failed; the serving connection checkpoints by itself');
    file.pragma('wal_autocheckpoint = 1000');
  });
  worker.unref();
  return {
    stop: async () => {
      const exited = new Promise((resolve) => worker.once('exit', resolve));
      worker.ref(); // the last checkpoint finishes before the process may end
      worker.postMessage('stop');
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([exited, new Promise((resolve) => (timer = setTimeout(resolve, 2000)))]);
      clearTimeout(timer);
      await worker.terminate();
    },
  };
}
