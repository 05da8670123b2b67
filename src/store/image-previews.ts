// Uploaded images' preview data (see migrations/028-image-previews.ts).
import type { Db } from './db.js';

export interface ImagePreview {
  pathId: string;
  realmId: number;
  width: number;
  height: number;
  frames: number;
  contentType: string;
  thumbnail: string | null;
}

export async function insertImagePreview(db: Db, p: ImagePreview): Promise<void> {
  await db
    .insertInto('image_previews')
    .values({ path_id: p.pathId, realm_id: p.realmId, width: p.width, height: p.height, frames: p.frames, content_type: p.contentType, thumbnail: p.thumbnail })
    .execute();
}

export async function findImagePreviews(db: Db, realmId: number, pathIds: string[]): Promise<ImagePreview[]> {
  if (!pathIds.length) return [];
  const rows = await db.selectFrom('image_previews').selectAll().where('realm_id', '=', realmId).where('path_id', 'in', pathIds).execute();
  return rows.map((r) => ({ pathId: r.path_id, realmId: r.realm_id, width: r.width, height: r.height, frames: r.frames, contentType: r.content_type, thumbnail: r.thumbnail }));
}

export async function deleteImagePreview(db: Db, pathId: string): Promise<void> {
  await db.deleteFrom('image_previews').where('path_id', '=', pathId).execute();
}
