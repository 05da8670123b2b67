// Inline previews, placed as the reference places them: a linked image (by its extension, or an uploaded image
// the server made a thumbnail of) gets a `div.message_inline_image` after its paragraph (inside its list item);
// a paragraph that is nothing but the image's address is replaced by the preview. Links inside quotes get none;
// a message with more than 24 distinct links gets none. Images on other sites are shown through the server's
// `/thumbnail` proxy (fetched only if the organization allows image previews); links to other sites are
// collected for embeds, fetched after the send.
import { El } from './tree.js';
import { urlSplit } from './links.js';
import { embedEl } from './embeds.js';
import type { RenderEnv, UploadPreview } from './env.js';

const MAX_PREVIEWS = 24;
const IMAGE_EXTENSIONS = ['.bmp', '.gif', '.jpe', '.jpeg', '.jpg', '.png', '.webp'];
const PREVIEW_CLASSES = new Set(['message_inline_image', 'message_inline_ref', 'inline-preview-twitter']);

// The reference's thumbnail name for uploaded images: at most 840×560, WebP, animated images kept animated.
export const THUMBNAIL_WIDTH = 840;
export const THUMBNAIL_HEIGHT = 560;
export const thumbnailName = (animated: boolean) => `${THUMBNAIL_WIDTH}x${THUMBNAIL_HEIGHT}${animated ? '-anim' : ''}.webp`;

interface Found { parent: El; grandparent: El | null; a: El; inQuote: boolean }

function findLinks(root: El): Found[] {
  const found: Found[] = [];
  const queue: { el: El; parent: El | null; inQuote: boolean }[] = [{ el: root, parent: null, inQuote: false }];
  while (queue.length) {
    const { el, parent, inQuote } = queue.shift()!;
    const quoted = inQuote || el.tag === 'blockquote';
    for (const child of el.children) {
      queue.push({ el: child, parent: el, inQuote: quoted });
      if (child.tag === 'a') found.push({ parent: el, grandparent: parent, a: child, inQuote: quoted });
    }
  }
  return found;
}

// Python's quote(s, safe=''): everything but letters, digits and `_.-~` percent-encoded.
const quoteAll = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

function actualImageUrl(url: string): string {
  const parts = urlSplit(url);
  if (parts && (parts.netloc === 'github.com' || parts.netloc.endsWith('.github.com'))) {
    const path = parts.path.split('/');
    if (path.length > 3 && path[3] === 'blob') return `https://raw.githubusercontent.com${[...path.slice(0, 3), ...path.slice(4)].join('/')}`;
  }
  return url;
}

function insertionIndex(grandparent: El, parent: El, parentIndex: number): number {
  const links = [...parent.iter('a')].map((a) => a.get('href'));
  let index = parentIndex;
  for (;;) {
    index++;
    if (index >= grandparent.children.length) return index;
    const uncle = grandparent.children[index];
    const classes = (uncle.get('class') ?? '').split(/\s+/);
    if (uncle.tag !== 'div' || !classes.some((c) => PREVIEW_CLASSES.has(c))) return index;
    const link = uncle.children.find((c) => c.tag === 'a');
    if (!link || !links.includes(link.get('href'))) return index;
  }
}

function imageEl(url: string, upload: UploadPreview | undefined, uploadPath: string | null): El {
  if (uploadPath !== null && upload) {
    const img = new El('img');
    if (upload.thumbnail === null) {
      img.set('class', 'image-loading-placeholder').set('src', '/static/images/loading/loader-black.svg');
    } else {
      img.set('src', `/user_uploads/thumbnail/${uploadPath}/${upload.thumbnail}`);
      img.set('data-original-content-type', upload.contentType);
      if (upload.animated) img.set('data-animated', 'true');
    }
    img.set('data-original-dimensions', `${upload.width}x${upload.height}`);
    return img;
  }
  const quoted = quoteAll(url.replace(/^\/+/, ''));
  return new El('img', { src: `/thumbnail?url=${quoted}&size=thumbnail`, 'data-src-fullsize': `/thumbnail?url=${quoted}&size=full` });
}

// Where a preview goes (after the paragraph, or in the list item), and whether the link itself goes.
function placePreview(root: El, f: Found, url: string, div: El): void {
  const text = f.a.text;
  const urlIsText = text === null || url === text;
  let parent = root;
  let index: number | null = null;
  let remove: El | null = null;
  if (f.parent.tag === 'li') {
    parent = f.parent;
    if (!f.parent.text && !f.a.tail && urlIsText) remove = f.a;
  } else if (f.parent.tag === 'p' && f.grandparent) {
    parent = f.grandparent;
    if (f.parent.children.length === 1 && (!f.parent.text || f.parent.text === '\n') && !f.a.tail && urlIsText) remove = f.parent;
    const at = f.grandparent.children.indexOf(f.parent);
    if (at >= 0) index = insertionIndex(f.grandparent, f.parent, at);
  }
  if (!urlIsText && text) div.children[0].set('title', text);
  if (index === null) parent.append(div);
  else parent.insert(index, div);
  if (remove) parent.remove(remove);
}

function inlineImage(root: El, f: Found, env: RenderEnv, url: string, uploadPath: string | null): void {
  const div = new El('div', { class: 'message_inline_image' });
  div.sub('a', { href: url }).append(imageEl(actualImageUrl(url), uploadPath === null ? undefined : env.ctx.uploads?.get(uploadPath), uploadPath));
  placePreview(root, f, url, div);
  env.out.hasImage = true;
}

// Uploaded videos play in place; videos on other sites are not loaded by clients from there.
const VIDEO_EXTENSIONS = ['.mp4', '.webm'];
function inlineVideo(root: El, f: Found, url: string): void {
  const div = new El('div', { class: 'message_inline_image message_inline_video' });
  div.sub('a', { href: url }).sub('video', { src: url, preload: 'metadata' });
  placePreview(root, f, url, div);
}

export function inlinePreviews(root: El, env: RenderEnv): void {
  const found = findLinks(root);
  env.out.hasLink = found.length > 0;
  if (!found.length) return;
  const previewable = new Set(found.filter((f) => !f.inQuote).map((f) => f.a.get('href')!));
  if (previewable.size > MAX_PREVIEWS) return;
  const done = new Set<string>();
  const realmHost = env.ctx.realmUrl ? urlSplit(env.ctx.realmUrl)?.netloc : undefined;
  for (const f of found) {
    const url = f.a.get('href')!;
    if (!previewable.has(url) || done.has(url)) continue;
    done.add(url);
    const parts = urlSplit(url);
    if (!parts) continue;
    if (url.startsWith('/user_uploads/')) {
      const path = url.slice('/user_uploads/'.length);
      if (env.ctx.imagePreviews !== false && VIDEO_EXTENSIONS.some((e) => parts.path.toLowerCase().endsWith(e))) {
        inlineVideo(root, f, url);
        continue;
      }
      if (env.ctx.imagePreviews !== false && env.ctx.uploads?.has(path)) inlineImage(root, f, env, url, path);
      continue;
    }
    if (env.ctx.imagePreviews && parts.netloc !== 'pasteboard.co' && IMAGE_EXTENSIONS.some((e) => parts.path.toLowerCase().endsWith(e))) {
      inlineImage(root, f, env, url, null);
      continue;
    }
    if (!parts.netloc || parts.netloc === realmHost || !/^https?$/.test(parts.scheme) || !env.ctx.embedPreviews) continue;
    const embed = env.ctx.linkEmbeds?.get(url);
    if (embed === undefined) env.out.linksForPreview.push(url);
    else if (embed) root.append(embedEl(url, embed));
  }
}
