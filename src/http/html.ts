// Server-rendered pages (joining, logging in): HTML with no inline script, never framed, forms only to this
// site, and no address of ours leaking to another site as a referrer ('same-origin' rather than 'no-referrer',
// with which browsers send a form's Origin as null).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { escapeHtml } from '../lib/text.js';

const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

// `script`: the page loads scripts of this site (the login page's, which keeps the app's view across the login).
export async function sendPage(reply: FastifyReply, status: number, html: string, script = false): Promise<void> {
  reply.headers({
    'Content-Security-Policy': script ? `${PAGE_CSP}; script-src 'self'` : PAGE_CSP,
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'same-origin',
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  });
  await reply.code(status).type('text/html; charset=utf-8').send(html);
}

// A form posts to its own site: a browser sending it from elsewhere says so in Origin.
export function crossSite(req: FastifyRequest): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return false;
  try {
    return new URL(origin).host !== req.headers.host;
  } catch {
    return true;
  }
}

// Where to go after logging in: a path of this site only (never `//host` or `/\host`, which browsers read as
// another site), its fragment (the app's view) kept.
export function safeNext(next: string | undefined): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\') || /[\u0000-\u001f\\]/.test(next)) return '/';
  return next;
}

// A redirect that is also a page (with a link), as a person may see it for a moment.
export async function redirectPage(reply: FastifyReply, status: 302 | 303, location: string): Promise<void> {
  reply.headers({
    Location: location,
    'Content-Security-Policy': PAGE_CSP,
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'same-origin',
    'Cache-Control': 'no-store',
  });
  await reply.code(status).type('text/html; charset=utf-8').send(`<!DOCTYPE html>\n<title>Redirecting</title>\n<a href="${escapeHtml(location)}">Continue</a>\n`);
}
