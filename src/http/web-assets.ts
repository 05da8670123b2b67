// The built web app (web/, built by Vite into dist/web/): read once into memory, compressed once, served with
// a strict Content-Security-Policy. Asset names carry a hash of their content, so they are cached for good;
// the page itself never is.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import type { FastifyReply, FastifyRequest } from 'fastify';

// Scripts and style sheets of this site only (no inline script, no eval, no <style> element); style attributes,
// which the server's message HTML carries as the reference's does (KaTeX's layout, table alignment), allowed;
// images also from data: and blob: URLs (the app's previews of files about to be uploaded); requests only to this
// site; never framed.
export const APP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "style-src-attr 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "media-src 'self' blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.mp3': 'audio/mpeg',
  '.ogg': 'audio/ogg',
  '.txt': 'text/plain; charset=utf-8',
};
const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.json', '.svg', '.txt']);

interface Asset {
  body: Buffer;
  gzip?: Buffer;
  type: string;
  etag: string;
}

export const WEB_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../web');

let assets: Map<string, Asset> | null = null;

function load(dir: string): Map<string, Asset> {
  const out = new Map<string, Asset>();
  if (!fs.existsSync(dir)) return out;
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    const ext = path.extname(entry.name).toLowerCase();
    const body = fs.readFileSync(full);
    const etag = `"${body.length.toString(36)}-${zlib.crc32(body).toString(36)}"`;
    const gzip = COMPRESSIBLE.has(ext) && body.length > 512 ? zlib.gzipSync(body, { level: 9 }) : undefined;
    out.set(path.relative(dir, full).split(path.sep).join('/'), { body, gzip, type: TYPES[ext] ?? 'application/octet-stream', etag });
  }
  return out;
}

export function webAsset(name: string): Asset | undefined {
  assets ??= load(WEB_DIR);
  return assets.get(name);
}

export function sendAsset(req: FastifyRequest, reply: FastifyReply, asset: Asset, cache: string): FastifyReply {
  reply.headers({ 'Content-Type': asset.type, 'Cache-Control': cache, ETag: asset.etag, 'X-Content-Type-Options': 'nosniff', Vary: 'Accept-Encoding' });
  if (req.headers['if-none-match'] === asset.etag) return reply.code(304).send();
  if (asset.gzip && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
    return reply.header('Content-Encoding', 'gzip').send(asset.gzip);
  }
  return reply.send(asset.body);
}

export function sendAppPage(req: FastifyRequest, reply: FastifyReply, asset: Asset): FastifyReply {
  reply.headers({ 'Content-Security-Policy': APP_CSP, 'X-Frame-Options': 'DENY', 'Referrer-Policy': 'same-origin' });
  return sendAsset(req, reply, asset, 'no-store');
}
