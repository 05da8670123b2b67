// Previews of the uploaded images a message links, for rendering (made at upload, see image-thumbnails.ts).
import type { UploadPreview } from '../markdown/message.js';
import type { Db } from '../store/db.js';
import { findImagePreviews } from '../store/image-previews.js';

const UPLOAD_PATH = /\/user_uploads\/(\d+\/[/\w.-]+)/g;

export async function uploadPreviews(db: Db, realmId: number, content: string): Promise<Map<string, UploadPreview> | undefined> {
  const paths = [...new Set([...content.matchAll(UPLOAD_PATH)].map((m) => m[1]))].filter((p) => p.startsWith(`${realmId}/`));
  if (!paths.length) return undefined;
  const previews = await findImagePreviews(db, realmId, paths);
  return new Map(previews.map((p) => [p.pathId, { width: p.width, height: p.height, animated: p.frames > 1, contentType: p.contentType, thumbnail: p.thumbnail }]));
}
