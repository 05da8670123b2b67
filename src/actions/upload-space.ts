// How much an organization and one of its users may store. The organization's quota counts uploaded files,
// resumable uploads in progress (their declared length, from the moment they start) and custom emoji images;
// avatars do not count, as with the reference server (each user has one, and the old image goes). A user may
// upload only so many bytes an hour, which bounds what deleting and uploading again can churn through.
import type { App } from '../app.js';
import { realmUploadQuotaMib, type Config } from '../config.js';
import { ApiError, RateLimitedError } from '../lib/errors.js';
import { realmUploadSpace } from '../store/attachments.js';
import type { Db } from '../store/db.js';
import { lockRealm } from '../store/realms.js';
import type { User } from '../store/users.js';

export const MIB = 1024 * 1024;
const HOUR = 3600;

const quotaExceeded = () => new ApiError("Upload would exceed your organization's upload quota.", 'REALM_UPLOAD_QUOTA');

async function checkQuota(db: Db, config: Config, realmId: number, size: number): Promise<void> {
  const quota = realmUploadQuotaMib(config);
  if (quota !== null && (await realmUploadSpace(db, realmId)) + size > quota * MIB) throw quotaExceeded();
}

// Before any byte is stored, so that a request over the quota is refused early.
export const checkQuotaBefore = (app: App, realmId: number, size: number) => checkQuota(app.db, app.config, realmId, size);

// In the transaction that records the bytes. On PostgreSQL the organization's row is locked first, so that two
// uploads cannot both take the last of the quota (SQLite runs one writer at a time).
export async function checkQuotaInTx(tx: Db, app: App, realmId: number, size: number): Promise<void> {
  if (realmUploadQuotaMib(app.config) === null) return;
  await lockRealm(tx, app.dialect, realmId);
  await checkQuota(tx, app.config, realmId, size);
}

// Counts bytes the user is about to upload against their hourly allowance; a refused upload counts nothing.
export async function chargeUploadVolume(app: App, user: User, bytes: number): Promise<void> {
  const mib = app.config.uploadLimitMibPerHour;
  if (mib <= 0) return;
  const v = await app.limiter.spend(`upload-bytes:${user.id}`, bytes, mib * MIB, HOUR);
  if (!v.allowed) throw new RateLimitedError(Math.round(v.retryAfter * 1000) / 1000);
}
