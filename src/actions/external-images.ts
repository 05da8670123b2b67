// Images on other sites, shown in messages through the server (`/thumbnail?url=…&size=thumbnail|full`, the
// reference's address for them), so that clients never load them from the other site themselves. Fetched
// only when the organization allows inline image previews, only through the guarded fetcher (no private,
// loopback or link-local address, 25 MiB, 10 s), and read by libvips under the same decompression-bomb limits
// as uploads.
import type { App } from '../app.js';
import { NotFoundError } from '../lib/errors.js';
import { guardedFetch, parseAllowList, type AllowList } from '../lib/guarded-fetch.js';
import { loadSharp } from '../lib/sharp.js';
import { realmSettings } from '../state/realm.js';
import type { Realm } from '../store/realms.js';
import { IMAGE_BOMB_PIXELS } from './image-thumbnails.js';

const MAX_IMAGE_BYTES = 25 * 1024 * 1024;
const FETCH_MS = 10_000;
// Shown as they are at full size; anything else is converted.
const INLINE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

const allowLists = new WeakMap<App, AllowList>();
export function fetchAllowList(app: App): AllowList {
  let list = allowLists.get(app);
  if (!list) allowLists.set(app, (list = parseAllowList(app.config.fetchAllowedHosts)));
  return list;
}

const NOT_FOUND = 'This file does not exist or has been deleted.';

export async function accessExternalImage(app: App, realm: Realm, url: string, size: 'thumbnail' | 'full'): Promise<{ data: Buffer; contentType: string }> {
  if (!realmSettings(realm).inline_image_preview || !/^https?:\/\//i.test(url)) throw new NotFoundError(NOT_FOUND);
  let fetched;
  try {
    fetched = await guardedFetch(url, { allow: fetchAllowList(app), maxBytes: MAX_IMAGE_BYTES, timeoutMs: FETCH_MS, headers: { accept: 'image/*' } });
  } catch {
    throw new NotFoundError(NOT_FOUND);
  }
  const type = String(fetched.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (fetched.status !== 200 || !type.startsWith('image/') || type === 'image/svg+xml') throw new NotFoundError(NOT_FOUND);
  try {
    const sharp = await loadSharp();
    const meta = await sharp(fetched.body, { limitInputPixels: false, failOn: 'none' }).metadata();
    const width = meta.width ?? 0;
    const height = meta.pageHeight ?? meta.height ?? 0;
    const frames = meta.pages ?? 1;
    if (!width || !height || width * height * Math.min(3, frames) > IMAGE_BOMB_PIXELS) throw new Error('too large');
    if (size === 'full' && INLINE_TYPES.has(type) && meta.format && type.endsWith(meta.format === 'jpeg' ? 'jpeg' : meta.format)) {
      return { data: fetched.body, contentType: type };
    }
    const animated = frames > 1;
    const pages = animated ? Math.max(1, Math.min(frames, Math.floor(IMAGE_BOMB_PIXELS / (width * height)))) : 1;
    let image = sharp(fetched.body, { animated, pages, limitInputPixels: IMAGE_BOMB_PIXELS, failOn: 'error' }).rotate();
    if (size === 'thumbnail') image = image.resize({ width: 840, height: 560, fit: 'inside', withoutEnlargement: true });
    return { data: await image.webp({ quality: 80, effort: 2 }).timeout({ seconds: 10 }).toBuffer(), contentType: 'image/webp' };
  } catch {
    throw new NotFoundError(NOT_FOUND);
  }
}
