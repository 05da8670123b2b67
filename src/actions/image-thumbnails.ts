// Thumbnails of uploaded images, made when they are uploaded, as the reference makes them: one WebP of at most
// 840×560 (animated images stay animated, named `-anim`), stored under thumbnail/<path_id>/<name> and served
// to whoever may read the image itself. Images are read with libvips (sharp), which is told what it may decode
// and how much: more than 90 megapixels (30 for the first three frames of an animation) is a decompression
// bomb and gets no preview; long animations are cut to that budget; each thumbnail has 10 s.
import type { App } from '../app.js';
import { loadSharp } from '../lib/sharp.js';
import { thumbnailName } from '../markdown/previews.js';
import { deleteImagePreview, findImagePreviews, insertImagePreview } from '../store/image-previews.js';

// The formats read; SVG is not (scripts, external references), nor HEIC (not in this libvips).
const THUMBNAIL_TYPES = new Set(['image/avif', 'image/gif', 'image/jpeg', 'image/png', 'image/tiff', 'image/webp']);
export const IMAGE_BOMB_PIXELS = 90_000_000;
const ANIMATED_PIXELS = IMAGE_BOMB_PIXELS / 3;
const THUMBNAIL_SECONDS = 10;


export const thumbnailKey = (pathId: string, name: string) => `thumbnail/${pathId}/${name}`;

// The preview of an uploaded file, if it is an image the server can read. Never fails the upload.
export async function makeImagePreview(app: App, realmId: number, pathId: string, contentType: string | null, data: Buffer): Promise<void> {
  if (!contentType || !THUMBNAIL_TYPES.has(contentType)) return;
  try {
    const sharp = await loadSharp();
    // The header only: dimensions and frames, before anything is decoded.
    const meta = await sharp(data, { limitInputPixels: false, failOn: 'none' }).metadata();
    const width = meta.width ?? 0;
    const height = meta.pageHeight ?? meta.height ?? 0;
    const frames = meta.pages ?? 1;
    if (!width || !height) return;
    if (frames === 1 ? width * height > IMAGE_BOMB_PIXELS : width * height * Math.min(3, frames) > ANIMATED_PIXELS) return;
    const animated = frames > 1;
    const pages = animated ? Math.max(1, Math.min(frames, Math.floor(IMAGE_BOMB_PIXELS / (width * height)))) : 1;
    const thumbnail = await sharp(data, { animated, pages, limitInputPixels: IMAGE_BOMB_PIXELS, failOn: 'error' })
      .rotate()
      .resize({ width: 840, height: 560, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 80, effort: 2 })
      .timeout({ seconds: THUMBNAIL_SECONDS })
      .toBuffer();
    const name = thumbnailName(animated);
    await app.storage.put(thumbnailKey(pathId, name), thumbnail);
    // As shown: EXIF orientations 5–8 turn the image a quarter.
    const turned = (meta.orientation ?? 1) >= 5;
    await insertImagePreview(app.db, {
      pathId, realmId, width: turned ? height : width, height: turned ? width : height, frames, contentType, thumbnail: name,
    });
  } catch (err) {
    app.log.warn({ err, pathId }, 'no preview for an uploaded image');
  }
}

export async function deleteImagePreviewFiles(app: App, realmId: number, pathId: string): Promise<void> {
  const [preview] = await findImagePreviews(app.db, realmId, [pathId]);
  if (!preview) return;
  if (preview.thumbnail) await app.storage.delete(thumbnailKey(pathId, preview.thumbnail));
  await deleteImagePreview(app.db, pathId);
}
