// Resumable uploads in progress, as the quota sees them. Each has a row (staged_uploads) from the moment it
// starts, holding its declared length against the organization's quota, and two files in the uploads directory
// under tus/ (the bytes so far, and tus's `<id>.json`). The row goes when the upload finishes (in the
// transaction that records the attachment), is cancelled, expires, or its uploader is deactivated; whoever
// deletes the row removes the files, so several server processes may sweep at once.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { App } from '../app.js';
import { nowSeconds } from '../app.js';
import type { Config } from '../config.js';
import { ApiError } from '../lib/errors.js';
import type { Db } from '../store/db.js';
import type { Realm } from '../store/realms.js';
import {
  countStagedUploads, existingStagedUploads, insertStagedUpload, takeExpiredStagedUploads, takeStagedUpload, takeStagedUploadsOf, type StagedUpload,
} from '../store/staged-uploads.js';
import type { User } from '../store/users.js';
import { uploadsRoot } from '../storage/index.js';
import { inTransaction } from './transaction.js';
import { chargeUploadVolume, checkQuotaBefore, checkQuotaInTx } from './upload-space.js';

// Unfinished uploads one user may hold at once: enough for a client uploading many files a few at a time.
export const MAX_STAGED_UPLOADS_PER_USER = 100;
const SWEEP_BATCH = 200;
// A file in tus/ without a row is left alone this long: it may belong to a request still under way.
const ORPHAN_GRACE_MS = 5 * 60_000;
const UPLOAD_FILE = /^\d+-[A-Za-z0-9]{32}(\.json)?$/;

export const stagedUploadsDir = (config: Config) => path.join(uploadsRoot(config), 'tus');

const tooMany = () => new ApiError('You have too many unfinished uploads; finish or cancel some first.');

// The start of a resumable upload of `size` bytes: checked as an upload of that size is, and counted from now on.
export async function doStageUpload(app: App, realm: Realm, user: User, id: string, size: number): Promise<StagedUpload> {
  if ((await countStagedUploads(app.db, user.id)) >= MAX_STAGED_UPLOADS_PER_USER) throw tooMany();
  await checkQuotaBefore(app, realm.id, size);
  await chargeUploadVolume(app, user, size);
  const staged = { id, realmId: realm.id, userId: user.id, size, created: nowSeconds() };
  await inTransaction(app, async (tx) => {
    await checkQuotaInTx(tx, app, realm.id, size);
    if ((await countStagedUploads(tx, user.id)) >= MAX_STAGED_UPLOADS_PER_USER) throw tooMany();
    await insertStagedUpload(tx, staged);
  });
  return staged;
}

// When the upload expires (milliseconds since the epoch), or null when uploads never do.
export function stagedUploadExpiry(config: Config, staged: StagedUpload): number | null {
  const seconds = config.resumableUploadExpirySeconds;
  return seconds > 0 ? (staged.created + seconds) * 1000 : null;
}

// False when the upload no longer counts (it expired, or its uploader was deactivated): its files are going.
export const releaseStagedUpload = (db: Db, id: string): Promise<boolean> => takeStagedUpload(db, id);

export async function discardStagedFiles(config: Config, ids: string[]): Promise<void> {
  const dir = stagedUploadsDir(config);
  for (const id of ids) {
    await fs.rm(path.join(dir, id), { force: true });
    await fs.rm(path.join(dir, `${id}.json`), { force: true });
  }
}

// After a deactivation has committed: the users' unfinished uploads stop counting and their files go.
export async function discardStagedUploadsOf(app: App, userIds: number[]): Promise<void> {
  await discardStagedFiles(app.config, await takeStagedUploadsOf(app.db, userIds));
}

// Uploads older than the expiry period go, in batches; then files in tus/ that no row accounts for (left by a
// crash between deleting a row and its files, or by a server from before rows were kept) once they are old.
export async function sweepStagedUploads(app: App): Promise<void> {
  const expiry = app.config.resumableUploadExpirySeconds;
  if (expiry > 0) {
    for (;;) {
      const ids = await takeExpiredStagedUploads(app.db, nowSeconds() - expiry, SWEEP_BATCH);
      await discardStagedFiles(app.config, ids);
      if (ids.length < SWEEP_BATCH) break;
    }
  }
  await sweepOrphans(app);
}

async function sweepOrphans(app: App): Promise<void> {
  const dir = stagedUploadsDir(app.config);
  const names = (await fs.readdir(dir).catch(() => [] as string[])).filter((n) => UPLOAD_FILE.test(n));
  for (let i = 0; i < names.length; i += SWEEP_BATCH) {
    const batch = names.slice(i, i + SWEEP_BATCH);
    const live = await existingStagedUploads(app.db, [...new Set(batch.map((n) => n.replace(/\.json$/, '')))]);
    for (const name of batch.filter((n) => !live.has(n.replace(/\.json$/, '')))) {
      const file = path.join(dir, name);
      const stat = await fs.stat(file).catch(() => null);
      if (stat && Date.now() - stat.mtimeMs > ORPHAN_GRACE_MS) await fs.rm(file, { force: true });
    }
  }
}
