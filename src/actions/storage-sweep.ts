// The serving process's periodic pass over stored bytes (every storageSweepSeconds): unfinished resumable
// uploads past their expiry, and uploaded files no message has claimed for unclaimedAttachmentDays (the
// reference server's delete_old_unclaimed_attachments, 5 weeks by default there too). Files a message waiting
// to be sent links to are kept. Safe with several processes: rows are taken by deleting them, and a file goes
// only with its row.
import type { App } from '../app.js';
import { nowSeconds } from '../app.js';
import { attachmentsAfter, deleteUnclaimedAttachments, realmUploadSpace, type Attachment } from '../store/attachments.js';
import { pendingContentWithUploads } from '../store/scheduled-messages.js';
import { deleteImagePreviewFiles } from './image-thumbnails.js';
import { referencedPathIds } from './attachment-claims.js';
import { fileKey } from './attachments.js';
import { sweepStagedUploads } from './staged-uploads.js';
import { inTransaction } from './transaction.js';

// Attachments looked at per pass: the table is walked a step at a time, so a pass costs the same however many
// files there are (a million are walked in about a day at the default interval).
const STEP = 500;
const cursors = new WeakMap<App, number>();

export async function sweepStorage(app: App): Promise<void> {
  await sweepStagedUploads(app);
  await sweepUnclaimedAttachments(app);
}

async function sweepUnclaimedAttachments(app: App): Promise<void> {
  const days = app.config.unclaimedAttachmentDays;
  if (days <= 0) return;
  const cutoff = nowSeconds() - days * 86_400;
  const step = await attachmentsAfter(app.db, cursors.get(app) ?? 0, STEP);
  cursors.set(app, step.length < STEP ? 0 : step[step.length - 1].id);
  const old = step.filter((a) => !a.claimed && a.createTime < cutoff);
  if (!old.length) return;
  const kept = await linkedFromPendingMessages(app, old);
  const deleted = await inTransaction(app, async (tx, emit) => {
    const gone = await deleteUnclaimedAttachments(tx, old.filter((a) => !kept.has(a.id)).map((a) => a.id), cutoff);
    for (const realmId of new Set(gone.map((a) => a.realmId))) {
      const used = await realmUploadSpace(tx, realmId);
      for (const a of gone.filter((g) => g.realmId === realmId)) {
        emit(realmId, { type: 'attachment', op: 'remove', attachment: { id: a.id }, upload_space_used: used }, [a.ownerId]);
      }
    }
    return gone;
  });
  for (const a of deleted) {
    await app.storage.delete(fileKey(a.pathId));
    await deleteImagePreviewFiles(app, a.realmId, a.pathId);
  }
  if (deleted.length) app.log.info({ count: deleted.length }, 'deleted old unclaimed uploads');
}

async function linkedFromPendingMessages(app: App, attachments: Attachment[]): Promise<Set<number>> {
  const kept = new Set<number>();
  for (const realmId of new Set(attachments.map((a) => a.realmId))) {
    const named = new Set((await pendingContentWithUploads(app.db, realmId)).flatMap((c) => referencedPathIds(realmId, c)));
    for (const a of attachments) if (a.realmId === realmId && named.has(a.pathId)) kept.add(a.id);
  }
  return kept;
}
