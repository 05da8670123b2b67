// Names and types of uploaded files. A client's file name is shown back to users (and offered on download), so
// it keeps its characters but loses what could mislead or break: directories, control and bidirectional
// formatting characters. The name used in the file's URL and storage key is stricter still.
import { isUtf8 } from 'node:buffer';

export const DEFAULT_FILE_NAME = 'uploaded-file';
const MAX_NAME_CHARS = 255;
const MAX_SEGMENT_BYTES = 120;

// Control characters, and the invisible marks that reorder text ("exe.txt" shown for "txt.exe").
const UNSAFE = /[\p{Cc}\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

export function displayFileName(raw: string): string {
  // The round trip through UTF-8 replaces lone surrogates, which no file system or header can carry.
  const base = Buffer.from(raw.split(/[/\\]/).pop() ?? '', 'utf8').toString('utf8');
  const name = shorten(base.replace(UNSAFE, '').trim(), MAX_NAME_CHARS, () => 1);
  return name === '' || name === '.' || name === '..' ? DEFAULT_FILE_NAME : name;
}

// Letters, digits, marks, `_`, `.` and `-` (runs of spaces and dashes become one dash), as the reference
// server's sanitize_name; short enough for any file system.
export function pathSegmentName(display: string): string {
  const cleaned = display.normalize('NFKC').replace(/[^\p{L}\p{N}\p{M}_\s.-]/gu, '').trim().replace(/[-\s]+/g, '-');
  if (cleaned === '' || /^\.+$/.test(cleaned)) return DEFAULT_FILE_NAME;
  return shorten(cleaned, MAX_SEGMENT_BYTES, (ch) => Buffer.byteLength(ch));
}

// Cuts a name down to `max` (counted by `size` per character), keeping a short extension.
function shorten(name: string, max: number, size: (ch: string) => number): string {
  const total = (s: string) => [...s].reduce((n, ch) => n + size(ch), 0);
  if (total(name) <= max) return name;
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 && name.length - dot <= 16 ? name.slice(dot) : '';
  let budget = max - total(ext);
  let stem = '';
  for (const ch of name.slice(0, name.length - ext.length)) {
    if ((budget -= size(ch)) < 0) break;
    stem += ch;
  }
  return stem + ext;
}

// Types a browser may show inline without risk of running script in our origin. SVG, HTML and XML never are.
const INLINE_TYPES = new Set([
  'application/pdf',
  'audio/aac', 'audio/flac', 'audio/mp4', 'audio/mpeg', 'audio/ogg', 'audio/wav', 'audio/webm',
  'image/apng', 'image/avif', 'image/gif', 'image/jpeg', 'image/png', 'image/webp',
  'text/plain',
  'video/mp4', 'video/ogg', 'video/webm',
]);

const BY_EXTENSION: Record<string, string> = {
  pdf: 'application/pdf', aac: 'audio/aac', flac: 'audio/flac', m4a: 'audio/mp4', mp3: 'audio/mpeg', oga: 'audio/ogg',
  opus: 'audio/ogg', wav: 'audio/wav', weba: 'audio/webm', apng: 'image/apng', avif: 'image/avif', gif: 'image/gif',
  jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp', txt: 'text/plain', log: 'text/plain',
  mp4: 'video/mp4', m4v: 'video/mp4', ogv: 'video/ogg', webm: 'video/webm',
  svg: 'image/svg+xml', html: 'text/html', htm: 'text/html', json: 'application/json', zip: 'application/zip',
};

const bare = (type: string) => type.split(';')[0].trim().toLowerCase();

// The type recorded for an upload: what the client declared, unless that is missing or generic, then what the
// name suggests. Text that is valid UTF-8 says so, so that browsers do not guess another encoding.
export function uploadContentType(fileName: string, declared: string | undefined, data?: Buffer): string | null {
  let type = declared && /^[\w.+-]+\/[\w.+-]+$/.test(bare(declared)) ? bare(declared) : null;
  if (!type || type === 'application/octet-stream') {
    const ext = /\.([^.]+)$/.exec(fileName)?.[1]?.toLowerCase();
    type = (ext && BY_EXTENSION[ext]) || type;
  }
  if (type === 'text/plain' && data && isUtf8(data)) return 'text/plain; charset=utf-8';
  return type;
}

export const isInlineType = (type: string | null) => type !== null && INLINE_TYPES.has(bare(type));

// RFC 6266 / 8187: the name in UTF-8, percent-encoded.
export function contentDisposition(kind: 'inline' | 'attachment', fileName: string): string {
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename*=UTF-8''${encoded}`;
}
