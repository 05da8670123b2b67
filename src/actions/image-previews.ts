// Previews of uploaded images, for rendering: filled in when thumbnails are made (see thumbnails.ts).
import type { UploadPreview } from '../markdown/message.js';
import type { Db } from '../store/db.js';

const UPLOAD_PATH = /\/user_uploads\/(\d+\/[/\w.-]+)/g;

export async function uploadPreviews(_db: Db, realmId: number, content: string): Promise<Map<string, UploadPreview> | undefined> {
  const paths = [...content.matchAll(UPLOAD_PATH)].map((m) => m[1]).filter((p) => p.startsWith(`${realmId}/`));
  if (!paths.length) return undefined;
  return new Map();
}
