// Browser requests: the session cookie (`sessionid`, HttpOnly) names the user, and every request that may change
// something carries the session's CSRF token in an X-CSRFToken header, which the app reads from the `csrftoken`
// cookie (readable by the app's own script, never sent by another site's form: SameSite=Lax, and a page of
// another origin cannot read it).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../app.js';
import { accessSession } from '../actions/sessions.js';
import { constantTimeEqual } from '../lib/secrets.js';
import type { Realm } from '../store/realms.js';
import type { Session } from '../store/sessions.js';
import type { User } from '../store/users.js';
import { ApiError, UnauthorizedError } from '../lib/errors.js';

export const SESSION_COOKIE = 'sessionid';
export const CSRF_COOKIE = 'csrftoken';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export const isSafeMethod = (method: string) => SAFE_METHODS.has(method);

export function cookies(req: FastifyRequest): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    // The first of two cookies with one name wins, as browsers send the most specific path first.
    if (name && !(name in out)) out[name] = part.slice(eq + 1).trim();
  }
  return out;
}

// A browser only keeps a Secure cookie over https: behind a TLS-terminating proxy (PARLANCE_TRUST_PROXY) the
// request's protocol says so, and so does an https PARLANCE_EXTERNAL_URL.
function secure(app: App, req: FastifyRequest): boolean {
  return req.protocol === 'https' || (app.config.externalUrl?.startsWith('https:') ?? false);
}

export function setSessionCookies(app: App, req: FastifyRequest, reply: FastifyReply, token: string, csrf: string, maxAge: number): void {
  const attrs = `Path=/; Max-Age=${maxAge}; SameSite=Lax${secure(app, req) ? '; Secure' : ''}`;
  reply.header('Set-Cookie', [`${SESSION_COOKIE}=${token}; ${attrs}; HttpOnly`, `${CSRF_COOKIE}=${csrf}; ${attrs}`]);
}

export function clearSessionCookies(app: App, req: FastifyRequest, reply: FastifyReply): void {
  const attrs = `Path=/; Max-Age=0; SameSite=Lax${secure(app, req) ? '; Secure' : ''}`;
  reply.header('Set-Cookie', [`${SESSION_COOKIE}=; ${attrs}; HttpOnly`, `${CSRF_COOKIE}=; ${attrs}`]);
}

export async function sessionOf(app: App, realm: Realm, req: FastifyRequest): Promise<{ session: Session; user: User } | null> {
  const token = cookies(req)[SESSION_COOKIE];
  return token ? accessSession(app, realm, token) : null;
}

// The reference's answer (Django's reasons) when a write lacks the token or carries another.
export class CsrfError extends ApiError {
  constructor(reason: string) {
    super(`CSRF error: ${reason}`, 'CSRF_FAILED', 403, { reason });
  }
}

// Without a session (a login form, say) the token must match the csrftoken cookie, which another site can
// neither read nor set.
export function checkCsrf(req: FastifyRequest, session: Session | null, formToken?: string): void {
  if (isSafeMethod(req.method)) return;
  const header = req.headers['x-csrftoken'];
  const sent = (Array.isArray(header) ? header[0] : header) ?? formToken;
  const expected = session?.csrfToken ?? cookies(req)[CSRF_COOKIE];
  if (!expected) throw new CsrfError('CSRF cookie not set.');
  if (!sent) throw new CsrfError('CSRF token missing.');
  if (!constantTimeEqual(sent, expected)) throw new CsrfError('CSRF token incorrect.');
}

// Browsers answer a Basic challenge with a password dialog; requests made with a session get none.
export class SessionRequiredError extends ApiError {
  constructor() {
    super(new UnauthorizedError().message, 'UNAUTHORIZED', 401, {}, { 'WWW-Authenticate': 'Session realm="zulip"' });
  }
}
