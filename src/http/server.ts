import { STATUS_CODES } from 'node:http';
// Fastify set-up: body parsers, the route adapter (credentials, rate limits, parameters, envelope) and the one
// error handler that writes {result: "error", msg, code, ...}.
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import type { App } from '../app.js';
import { authenticateUser, authenticateWebhook, basicCredentials, resolveRealm } from './auth.js';
import { ApiError, RateLimitedError, UnauthorizedError } from '../lib/errors.js';
import { parseParams } from './params.js';
import { collectValues, keepsRawBody, rawBodies, webhookValues } from './request-values.js';
import { capConnectionsPerAddress } from './connections.js';
import { idleTimeoutSeconds } from '../config.js';
import { fastifyPath, jsonFastifyPath, pathValues, type AnyRoute, type Method } from './route.js';
import { sendPage } from './html.js';
import { problemPage } from '../format/pages.js';
import { checkCsrf, cookies, SESSION_COOKIE, sessionOf, SessionRequiredError } from './session.js';
import type { Session } from '../store/sessions.js';
import type { User } from '../store/users.js';
import type { Realm } from '../store/realms.js';
import { syncCaches } from '../store/cache.js';
import { serializeBody } from '../lib/json-text.js';
import { sendJsonText } from './large-body.js';
import type { RequestTracker } from './loop-monitor.js';

const METHODS: Method[] = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'];
// Where a route was reached: under /api/v1/, under /json/ (the web app), or at its own root path.
type Via = 'api' | 'json' | 'root';

function envelope(err: ApiError) {
  return { result: 'error', msg: err.message, code: err.code, ...err.extra };
}

function sendError(reply: FastifyReply, err: ApiError): FastifyReply {
  reply.headers(err.headers).code(err.status).type('application/json; charset=utf-8');
  return reply.send(envelope(err));
}

// Fastify's own 4xx errors (body limits, content types, malformed JSON bodies) in our envelope.
function frameworkError(err: { statusCode?: number; code?: string; message: string }, req: FastifyRequest): ApiError | null {
  const status = err.statusCode;
  if (!status || status < 400 || status >= 500) return null;
  if (status === 413) return new ApiError('Request body is too large', 'BAD_REQUEST', 413);
  if (status === 415) {
    return new ApiError(`Unsupported content type: ${req.headers['content-type'] ?? ''}`.trim(), 'BAD_REQUEST', 415);
  }
  if (err.code?.startsWith('FST_ERR_CTP') && /json/i.test(req.headers['content-type'] ?? '')) {
    return new ApiError('Malformed JSON', 'INVALID_JSON', 400);
  }
  return new ApiError(err.message || 'Bad request', 'BAD_REQUEST', status);
}

// What is parsed as text — JSON and form bodies, multipart's fields other than files — is held to a few megabytes
// whatever the upload size: it is parsed on the event loop before the request is authenticated, and 25 MB of JSON
// takes 100–250 ms to parse. No API call needs more (a message is 10,000 characters; 50,000 user ids are 350 KB).
const TEXT_BODY_LIMIT = 2.5 * 1024 * 1024;

export async function buildHttp(app: App, routes: AnyRoute[], tracker?: RequestTracker): Promise<FastifyInstance> {
  const bodyLimit = (app.config.maxFileUploadMib + 1) * 1024 * 1024;
  const textLimit = Math.min(bodyLimit, TEXT_BODY_LIMIT);
  const requestTimeout = app.config.requestTimeoutSeconds * 1000;
  // Node wants the headers limit within the request limit.
  const headersTimeout = requestTimeout > 0 ? Math.min(app.config.headersTimeoutSeconds * 1000, requestTimeout) : app.config.headersTimeoutSeconds * 1000;
  // The cast keeps the plain HTTP/1 server types that a custom logger instance otherwise widens.
  const http = Fastify({
    loggerInstance: app.log,
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit,
    return503OnClosing: true,
    keepAliveTimeout: 65_000,
    // Slow clients: the whole request must arrive in time (a parked long-poll has long arrived: not cut), and a
    // silent connection is closed, but never before a parked poll's heartbeat.
    requestTimeout,
    connectionTimeout: idleTimeoutSeconds(app.config) * 1000,
    // Node checks those limits periodically (every 30 s by default): often enough for the shortest one.
    http: { headersTimeout, requestTimeout, connectionsCheckingInterval: Math.min(30_000, Math.max(250, Math.min(headersTimeout, requestTimeout || headersTimeout) / 4)) },
    routerOptions: { ignoreTrailingSlash: true },
    trustProxy: trustedProxies(app.config.trustProxy),
    // Malformed HTTP (oversized headers, bad request lines) never reaches a route; answer in our envelope too.
    clientErrorHandler: (err, socket) => {
      const code = (err as { code?: string }).code;
      const status = code === 'HPE_HEADER_OVERFLOW' ? 431 : code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
      const body = JSON.stringify({ result: 'error', msg: STATUS_CODES[status] ?? 'Bad Request', code: 'BAD_REQUEST' });
      if (!socket.writable) return socket.destroy();
      // The answer to a HEAD request carries no body (its length is still announced).
      const head = (err as unknown as { rawPacket?: Buffer }).rawPacket?.subarray(0, 5).toString('latin1') === 'HEAD ';
      socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${head ? '' : body}`);
    },
    // A malformed path never reaches a handler; answer it in our envelope.
    frameworkErrors: (err, _req, reply) => {
      void sendError(reply as unknown as FastifyReply, new ApiError(err.message || 'Bad request', 'BAD_REQUEST', 400));
    },
  }) as unknown as FastifyInstance;
  capConnectionsPerAddress(http.server, app.config.maxConnectionsPerIp);
  tracker?.install(http);
  // Once shutting down, requests still in flight are answered with `Connection: close`, so that their kept-alive
  // connections do not hold the close (and the process) open after the last response.
  let closing = false;
  http.addHook('preClose', async () => {
    closing = true;
  });
  // A callback hook: an async one costs promises on every response, and each poll answer is one.
  http.addHook('onSend', (_req, reply, payload, done) => {
    if (closing) reply.header('Connection', 'close');
    done(null, payload);
  });

  // Parameters may come in a body whatever the method, GET included.
  http.addHttpMethod('GET', { hasBody: true, overrideExisting: true });
  http.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: textLimit }, (req, body, done) => {
    if (keepsRawBody(req.url)) rawBodies.set(req, body as string);
    done(null, new URLSearchParams(body as string));
  });
  // An empty body that names a JSON type (some clients label every request so) carries no parameters.
  const parseJson = http.getDefaultJsonParser('error', 'error');
  http.removeContentTypeParser('application/json');
  http.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: textLimit }, (req, body, done) => {
    if (keepsRawBody(req.url)) rawBodies.set(req, body as string);
    if (body === '') done(null, undefined);
    else parseJson(req, body as string, done);
  });
  // Resumable-upload chunks are streamed by the handler (src/actions/tus.ts), not read here.
  http.addContentTypeParser('application/offset+octet-stream', (_req, _payload, done) => done(null));
  // A file may exceed the upload limit by up to the body limit, so that its endpoint can refuse it with its own
  // message; anything larger is cut off as too large.
  await http.register(multipart, {
    limits: { fileSize: bodyLimit, fieldSize: textLimit, fields: 10_000, files: 20, parts: 10_020 },
  });

  http.setErrorHandler((err, req, reply) => {
    if (err instanceof ApiError) return sendError(reply, err);
    // An id beyond PostgreSQL's 32-bit columns names nothing that exists: a client error, not a failure.
    if ((err as { code?: string }).code === '22003') return sendError(reply, new ApiError('A number in the request is out of range'));
    const mapped = frameworkError(err as Parameters<typeof frameworkError>[0], req);
    if (mapped) return sendError(reply, mapped);
    req.log.error({ err, url: req.url, method: req.method }, 'request failed');
    return sendError(reply, new ApiError('Internal server error', 'INTERNAL_SERVER_ERROR', 500));
  });
  http.setNotFoundHandler((_req, reply) => sendError(reply, new ApiError('Not Found', 'BAD_REQUEST', 404)));

  const byPath = new Map<string, Set<Method>>();
  const mount = (r: AnyRoute, via: Via, url: string) => {
    const handler = r.page ? pageHandler(app, r, via, tracker) : (req: FastifyRequest, reply: FastifyReply) => handle(app, r, via, req, reply, tracker);
    http.route({ method: r.method, url, handler, ...(r.largeBody ? { bodyLimit, preParsing: identifiedFirst(app, r, via) } : {}) });
    const methods = byPath.get(url) ?? new Set();
    methods.add(r.method);
    byPath.set(url, methods);
  };
  // Every API route also answers under /json/ for the web app, authenticated by its session.
  for (const r of routes) {
    if (r.root) mount(r, 'root', fastifyPath(r));
    else {
      mount(r, 'api', fastifyPath(r));
      mount(r, 'json', jsonFastifyPath(r));
    }
  }
  for (const [url, methods] of byPath) {
    const allowed = [...methods].join(', ');
    for (const method of METHODS.filter((m) => !methods.has(m))) {
      http.route({
        method,
        url,
        handler: async () => {
          throw new ApiError('Method Not Allowed', 'BAD_REQUEST', 405, { allowed_methods: [...methods] }, { Allow: allowed });
        },
      });
    }
  }
  return http;
}

async function limit(app: App, reply: FastifyReply, key: string, perMinute: number, headers: boolean): Promise<void> {
  if (perMinute <= 0) return;
  const v = await app.limiter.hit(key, perMinute);
  if (headers) {
    reply.headers({ 'X-RateLimit-Limit': v.limit, 'X-RateLimit-Remaining': v.remaining, 'X-RateLimit-Reset': v.resetAt });
  }
  if (!v.allowed) throw new RateLimitedError(Math.round(v.retryAfter * 1000) / 1000);
}

async function handle(app: App, r: AnyRoute, via: Via, req: FastifyRequest, reply: FastifyReply, tracker: RequestTracker | undefined) {
  let realm: Realm | null = null;
  let user: User | null = null;
  let session: Session | null = null;
  if (r.auth !== 'bare') {
    // Changes committed by other processes (the command line) before this request count for it.
    await syncCaches(app.db);
    realm = await resolveRealm(app, req);
    const perMinute = app.config.rateLimitPerMinute;
    const byAddress = () => (perMinute > 0 ? limit(app, reply, `ip:${req.ip}`, app.config.rateLimitIpPerMinute, false) : undefined);
    try {
      ({ user, session } = await identify(app, r, via, realm, req));
    } catch (err) {
      // A request whose credentials fail is an unauthenticated request: it counts against its address, which
      // once over the limit is answered 429 instead.
      await byAddress();
      throw err;
    }
    if (user) await limit(app, reply, `user:${user.id}`, perMinute, true);
    else await byAddress();
  }
  if (user) tracker?.noteUser(req, user.id);
  const { values, files } = r.webhook ? webhookValues(req) : await collectValues(req);
  const parsed = parseParams(r.params, values, pathValues(r, req.params as Record<string, string>));
  const result = await r.handler({ app, realm, user, session, params: parsed.values, files, req, reply } as never);
  if (reply.sent) return reply;
  const body = {
    result: 'success',
    msg: '',
    ...(result ?? {}),
    ...(parsed.ignored.length ? { ignored_parameters_unsupported: parsed.ignored } : {}),
  };
  const text = serializeBody(body);
  if (text === null) return body;
  return sendJsonText(reply, await text);
}

// A large body is read only for a caller who is who they say: parsing megabytes holds the event loop.
function identifiedFirst(app: App, r: AnyRoute, via: Via) {
  return async (req: FastifyRequest, _reply: FastifyReply, payload: NodeJS.ReadableStream) => {
    await identify(app, r, via, await resolveRealm(app, req), req);
    return payload;
  };
}

// Pages answer people: their failures (bad form values, a missing CSRF token) are pages too.
function pageHandler(app: App, r: AnyRoute, via: Via, tracker: RequestTracker | undefined) {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    try {
      return await handle(app, r, via, req, reply, tracker);
    } catch (err) {
      if (!(err instanceof ApiError) || reply.sent) throw err;
      reply.headers(err.headers);
      return sendPage(reply, err.status, problemPage(err.status === 404 ? 'Not found' : 'Something is wrong with this request', err.message));
    }
  };
}

// Who calls: under /api/v1/ HTTP Basic credentials; under /json/ the browser's session, with its CSRF token on
// every write; other paths (files, avatars) either, the session only where the request has no credentials.
async function identify(app: App, r: AnyRoute, via: Via, realm: Realm, req: FastifyRequest): Promise<{ user: User | null; session: Session | null }> {
  if (r.webhook) return { user: await authenticateWebhook(app, realm, req), session: null };
  const fromCookie = via === 'json' || (via === 'root' && r.auth !== 'none' && !req.headers.authorization && SESSION_COOKIE in cookies(req));
  if (fromCookie) {
    const found = await sessionOf(app, realm, req);
    checkCsrf(req, found?.session ?? null);
    if (r.auth === 'none') return { user: null, session: null };
    if (!found && r.auth === 'user') throw new SessionRequiredError();
    return { user: found?.user ?? null, session: found?.session ?? null };
  }
  const creds = r.auth === 'none' ? null : basicCredentials(req);
  if (creds) return { user: await authenticateUser(app, realm, creds, r.allowIncomingWebhooks), session: null };
  if (r.auth === 'user') throw new UnauthorizedError();
  return { user: null, session: null };
}

// Behind a reverse proxy every connection comes from the proxy: the client's address is the one the trusted
// proxy adds to X-Forwarded-For.
function trustedProxies(setting: string | undefined): boolean | string[] {
  if (!setting || setting === 'false') return false;
  if (setting === 'true') return true;
  return setting.split(',').map((s) => s.trim()).filter(Boolean);
}
