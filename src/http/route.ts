// A route is declared once: method, path, who may call it, its parameters and a handler that calls an action
// and shapes the JSON. Registration, parsing and the OpenAPI document are derived from these declarations.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../app.js';
import type { Realm } from '../store/realms.js';
import type { User } from '../store/users.js';
import type { Session } from '../store/sessions.js';
import { paramSchema, type ParamDecl, type Params } from './params.js';
import type { UploadedFile } from '../lib/uploaded-file.js';

// HEAD and OPTIONS are for protocols with their own semantics (tus); a GET route answers HEAD by itself.
export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE' | 'HEAD' | 'OPTIONS';
// user: credentials required; optional: credentials used when present; none: no credentials, but the
// organization is resolved from the host; bare: neither (health checks, the API description).
export type AuthMode = 'user' | 'optional' | 'none' | 'bare';

type UserFor<A extends AuthMode> = A extends 'user' ? User : A extends 'optional' ? User | null : null;
type RealmFor<A extends AuthMode> = A extends 'bare' ? null : Realm;

export interface Ctx<P, A extends AuthMode> {
  app: App;
  realm: RealmFor<A>;
  user: UserFor<A>;
  // The browser session the request came with (web app requests under /json/), else null.
  session: Session | null;
  params: P;
  files: UploadedFile[];
  req: FastifyRequest;
  reply: FastifyReply;
}

export interface RouteDef<D extends ParamDecl, A extends AuthMode> {
  method: Method;
  path: string; // relative to /api/v1 unless `root`; `{name}` marks a path parameter
  root?: boolean;
  auth: A;
  // Incoming-webhook bots may call only the routes that say so (the reference server's allow_incoming_webhooks).
  allowIncomingWebhooks?: true;
  // An incoming webhook's endpoint (/api/v1/external/...): the caller is named by `api_key` (src/http/auth.ts
  // authenticateWebhook), and the body is the tool's payload, not parameters: parameters come from the URL and
  // a form's fields only.
  webhook?: true;
  // Its body may be as large as an upload (PUT /bot_storage: the reference stores up to 10,000,000 characters),
  // where other routes' text bodies stop at a few megabytes; the caller is authenticated before it is read.
  largeBody?: true;
  // The web app's pages and forms (src/routes/login.ts, web-app.ts): they answer people in HTML, errors
  // included, and are no part of the API's description.
  page?: true;
  summary: string;
  params: D;
  // Returns the fields to add to the success envelope, or nothing when it wrote the reply itself.
  handler(ctx: Ctx<Params<D>, A>): Promise<Record<string, unknown> | void> | Record<string, unknown> | void;
}

export type AnyRoute = RouteDef<ParamDecl, AuthMode>;

export function route<D extends ParamDecl, A extends AuthMode>(def: RouteDef<D, A>): AnyRoute {
  return def as unknown as AnyRoute;
}

// `{name}` is one path segment; a final `{name*}` is the rest of the path, slashes included (navigation-view
// fragments such as narrow/is/starred).
export const fullPath = (r: AnyRoute) => (r.root ? r.path : `/api/v1${r.path}`);
const toFastify = (path: string) => path.replace(/\{\w+\*\}$/, '*').replace(/\{(\w+)\}/g, ':$1');
export const fastifyPath = (r: AnyRoute) => toFastify(fullPath(r));
// The same API for the web app, authenticated by its session (src/http/session.ts).
export const jsonFastifyPath = (r: AnyRoute) => toFastify(`/json${r.path}`);
const documentedPath = (r: AnyRoute) => fullPath(r).replace(/\{(\w+)\*\}$/, '{$1}');

// The path parameters of a request by their declared names.
export function pathValues(r: AnyRoute, raw: Record<string, string>): Record<string, string> {
  const rest = /\{(\w+)\*\}$/.exec(r.path)?.[1];
  if (!rest || raw['*'] === undefined) return raw;
  const { '*': value, ...named } = raw;
  return { ...named, [rest]: value };
}

export function openApiDocument(routes: AnyRoute[], version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes.filter((x) => !x.page)) {
    const inPath = new Set([...r.path.matchAll(/\{(\w+)\*?\}/g)].map((m) => m[1]));
    const parameters = Object.entries(r.params).map(([name, p]) => ({
      name,
      in: inPath.has(name) ? 'path' : 'query',
      required: inPath.has(name) || p.def.required,
      schema: paramSchema(p),
      ...(p.def.description ? { description: p.def.description } : {}),
      ...(p.def.aliases.length ? { 'x-aliases': p.def.aliases } : {}),
    }));
    (paths[documentedPath(r)] ??= {})[r.method.toLowerCase()] = {
      summary: r.summary,
      security: r.auth === 'user' ? [{ basicAuth: [] }] : [],
      parameters,
      responses: { '200': { description: 'Success' }, default: { description: 'Error envelope' } },
    };
  }
  return {
    openapi: '3.0.3',
    info: { title: 'Parlance API', version },
    components: { securitySchemes: { basicAuth: { type: 'http', scheme: 'basic' } } },
    paths,
  };
}
