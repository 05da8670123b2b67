// Who is calling: the organization comes from the host name, the user from HTTP Basic credentials
// (API e-mail and API key).
import type { FastifyRequest } from 'fastify';
import type { App } from '../app.js';
import { BOT_TYPE } from '../format/bots.js';
import { realmFakeEmailDomain } from '../format/users.js';
import { constantTimeEqual } from '../lib/secrets.js';
import { syncCaches } from '../store/cache.js';
import { countRealms, findRealmBySubdomain, type Realm } from '../store/realms.js';
import { findUserByApiKey, findUserForLogin, type User } from '../store/users.js';
import { ApiError, MissingArgumentError, UnauthorizedError, UserDeactivatedError } from '../lib/errors.js';

const IPV4 = /^\d+\.\d+\.\d+\.\d+$/;

// The first label of a host name picks an organization with that subdomain; any other host reaches the
// default organization (empty subdomain).
export async function resolveRealm(app: App, req: FastifyRequest): Promise<Realm> {
  const hostname = (req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
  const labels = hostname.split('.');
  if (labels.length > 1 && !IPV4.test(hostname) && !hostname.startsWith('[')) {
    const realm = await findRealmBySubdomain(app.db, labels[0]);
    if (realm) return realm;
  }
  const fallback = await findRealmBySubdomain(app.db, '');
  if (!fallback) {
    throw new ApiError('There is no organization at this address.', 'NONEXISTENT_SUBDOMAIN', 404);
  }
  return fallback;
}

// The organization of a request, or null while the server has none at all (its first start, when the front
// page offers to create one).
export async function resolveRealmIfAny(app: App, req: FastifyRequest): Promise<Realm | null> {
  await syncCaches(app.db);
  try {
    return await resolveRealm(app, req);
  } catch (err) {
    if (err instanceof ApiError && err.code === 'NONEXISTENT_SUBDOMAIN' && (await countRealms(app.db)) === 0) return null;
    throw err;
  }
}

export interface BasicCredentials {
  username: string;
  password: string;
}

// As the reference server reads the header: a scheme other than Basic is a plain 400; a Basic header that does not
// decode to exactly one "user:key" pair in UTF-8 is a 401 with the Basic challenge.
export function basicCredentials(req: FastifyRequest): BasicCredentials | null {
  const header = req.headers.authorization;
  if (header === undefined) return null;
  const parts = header.trim().split(/\s+/);
  if (parts.length === 2 && parts[0].toLowerCase() !== 'basic') throw new ApiError('This endpoint requires HTTP basic authentication.');
  const invalid = () => new UnauthorizedError('Invalid authorization header for basic auth');
  if (parts.length !== 2) throw invalid();
  let decoded: string;
  try {
    decoded = utf8.decode(Buffer.from(parts[1], 'base64'));
  } catch {
    throw invalid();
  }
  const pair = decoded.split(':');
  if (pair.length !== 2) throw invalid();
  // No e-mail or key contains NUL, and PostgreSQL refuses it in text: such credentials match nobody.
  if (decoded.includes('\u0000')) throw new UnauthorizedError('Invalid API key');
  return { username: pair[0], password: pair[1] };
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

// `allowIncomingWebhooks`: the route is one of the few an incoming-webhook bot may call (sending messages).
export async function authenticateUser(app: App, realm: Realm, creds: BasicCredentials, allowIncomingWebhooks = false): Promise<User> {
  const user = await findUserForLogin(app.db, realm.id, creds.username, realmFakeEmailDomain(app, realm));
  // Compare even when there is no such user, so that timing does not reveal which e-mails exist.
  const keyMatches = constantTimeEqual(user?.apiKey ?? '-'.repeat(32), creds.password);
  if (!user || !keyMatches) throw new UnauthorizedError('Invalid API key');
  if (!user.isActive) throw new UserDeactivatedError();
  if (realm.deactivated) {
    throw new ApiError('This organization has been deactivated', 'REALM_DEACTIVATED', 401, {}, challenge);
  }
  if (user.isBot && user.botType === BOT_TYPE.incomingWebhook && !allowIncomingWebhooks) {
    throw new UnauthorizedError('This API is not available to incoming webhook bots.');
  }
  return user;
}

const challenge = { 'WWW-Authenticate': 'Basic realm="zulip"' };

// Incoming webhooks (/api/v1/external/...): the tool names the bot by its key alone, `api_key` in the URL (or the
// form), as the reference's webhook views read it, with its errors raised directly (INVALID_API_KEY, no Basic
// challenge); failing that, HTTP Basic credentials as on every other route.
export async function authenticateWebhook(app: App, realm: Realm, req: FastifyRequest): Promise<User> {
  const query = (req.query ?? {}) as Record<string, unknown>;
  const fromQuery = Array.isArray(query.api_key) ? query.api_key[query.api_key.length - 1] : query.api_key;
  const fromForm = req.body instanceof URLSearchParams ? req.body.get('api_key') : null;
  const key = typeof fromQuery === 'string' ? fromQuery : fromForm;
  if (key === null || key === undefined) {
    const creds = basicCredentials(req);
    if (!creds) throw new MissingArgumentError('api_key');
    return authenticateUser(app, realm, creds, true);
  }
  const user = await findUserByApiKey(app.db, realm.id, key);
  if (!user) throw new ApiError('Invalid API key', 'INVALID_API_KEY', 401);
  if (!user.isActive) throw new ApiError('Account is deactivated', 'USER_DEACTIVATED', 401);
  if (realm.deactivated) throw new ApiError('This organization has been deactivated', 'REALM_DEACTIVATED', 401);
  return user;
}
