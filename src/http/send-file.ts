// Sending stored files. Uploaded files are shown inline only for a short list of types a browser cannot run
// script from; anything else is a download. Either way the browser may not guess another type, and the
// Content-Security-Policy forbids script should a file be opened as a page anyway.
import { finished } from 'node:stream/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { contentDisposition, isInlineType } from '../lib/file-names.js';
import { MIME_BY_EXT } from '../emoji/image.js';
import type { ByteRange, ObjectStorage } from '../storage/index.js';
import { ApiError, NotFoundError } from '../lib/errors.js';

export const UPLOAD_CSP = "default-src 'none'; img-src 'self'; media-src 'self'; object-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'self'";

// One `bytes=` range (several are answered with the whole file, as RFC 9110 allows); null for none or a form
// we do not take. An unsatisfiable range is an error.
export function parseRange(header: string | undefined, size: number): ByteRange | null {
  const m = header && /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null;
  let start: number;
  let end: number;
  if (m[1] === '') {
    start = Math.max(0, size - Number(m[2]));
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  if (start >= size || start > end) {
    throw new ApiError('Requested range not satisfiable', 'BAD_REQUEST', 416, {}, { 'Content-Range': `bytes */${size}` });
  }
  return { start, end };
}

export interface FileMeta {
  fileName: string;
  contentType: string | null;
}

export async function sendUploadedFile(req: FastifyRequest, reply: FastifyReply, storage: ObjectStorage, key: string, meta: FileMeta): Promise<void> {
  const stat = await storage.stat(key);
  if (!stat) throw new NotFoundError('This file does not exist or has been deleted.');
  const range = parseRange(req.headers.range, stat.size);
  const inline = isInlineType(meta.contentType);
  const body = await storage.stream(key, range ?? undefined);
  if (!body) throw new NotFoundError('This file does not exist or has been deleted.');
  reply.headers({
    'Content-Type': inline ? meta.contentType! : 'application/octet-stream',
    'Content-Disposition': contentDisposition(inline ? 'inline' : 'attachment', meta.fileName),
    'Content-Length': String(range ? range.end - range.start + 1 : stat.size),
    'Accept-Ranges': 'bytes',
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': UPLOAD_CSP,
    // Access can be lost (a message deleted), so only the requester's own cache keeps a copy.
    'Cache-Control': 'private, max-age=86400',
  });
  if (range) reply.code(206).header('Content-Range', `bytes ${range.start}-${range.end}/${stat.size}`);
  reply.send(body);
  // The route layer answers for a handler that returns before its reply has ended; a streamed file ends later.
  await finished(reply.raw).catch(() => {});
}

// Custom emoji and avatar images: public, and never changed under their random names.
export function sendImmutableImage(reply: FastifyReply, data: Buffer, fileName: string): void {
  reply.headers({
    'Content-Type': MIME_BY_EXT[fileName.split('.').pop()!],
    'Cache-Control': 'public, max-age=31536000, immutable',
    'X-Content-Type-Options': 'nosniff',
  });
  reply.send(data);
}
