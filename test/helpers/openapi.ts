// Validates our success responses against the reference server's published OpenAPI description (Zulip, feature
// level 247). That document is older than the contract, so it is loosened: every `additionalProperties: false`
// is dropped (newer fields are allowed), and fields the contract removed since (is_billing_admin, §9.6) are
// never required. OpenAPI 3.0 `nullable` becomes a JSON-Schema type union.
import fs from 'node:fs';
import path from 'node:path';
import assert from 'node:assert/strict';
import { Ajv, type ValidateFunction } from 'ajv';
import YAML from 'yaml';
import { ROOT } from './server.js';

const NAME = 'reference/zulip-openapi-fl247.yaml';
export const OPENAPI_FILE =
  [path.resolve(ROOT, '../shared', NAME), path.join('/work/shared', NAME)].find((f) => fs.existsSync(f)) ??
  path.resolve(ROOT, '../shared', NAME);

const REMOVED_FIELDS = new Set(['is_billing_admin']);

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Obj = { [k: string]: Json };

let doc: Obj | undefined;
function document(): Obj {
  doc ??= YAML.parse(fs.readFileSync(OPENAPI_FILE, 'utf8'), { maxAliasCount: -1 }) as Obj;
  return doc;
}

function isObj(v: Json | undefined): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function lookup(pointer: string): Json {
  assert.ok(pointer.startsWith('#/'), `only local $refs are supported: ${pointer}`);
  let node: Json = document();
  for (const raw of pointer.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    assert.ok(isObj(node) && key in node, `unresolvable $ref ${pointer}`);
    node = node[key];
  }
  return node;
}

// Inlines every $ref (the schemas we use are not recursive; a depth guard catches it if one ever is) and
// rewrites the OpenAPI dialect into plain JSON Schema.
function convert(node: Json, depth = 0): Json {
  assert.ok(depth < 64, 'schema nesting too deep (recursive $ref?)');
  if (Array.isArray(node)) return node.map((n) => convert(n, depth + 1));
  if (!isObj(node)) return node;
  if (typeof node.$ref === 'string') return convert(lookup(node.$ref), depth + 1);
  const out: Obj = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'additionalProperties' && value === false) continue;
    if (key === 'nullable' || key === 'example' || key === 'examples' || key === 'description' || key === 'deprecated') continue;
    if (key.startsWith('x-')) continue;
    if (key === 'properties' && isObj(value)) {
      // Property names are data here, not keywords: convert each value but keep every name.
      out.properties = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, convert(v, depth + 1)]));
      continue;
    }
    if (key === 'required' && Array.isArray(value)) {
      out.required = value.filter((name) => typeof name !== 'string' || !REMOVED_FIELDS.has(name));
      continue;
    }
    out[key] = convert(value, depth + 1);
  }
  if (node.nullable === true) {
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  }
  return out;
}

const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
const cache = new Map<string, ValidateFunction>();

// The JSON Schema of the 200 response of `method path` (path as written in the reference document, e.g.
// "/users/{user_id}").
export function responseSchema(apiPath: string, method: string): Obj {
  const paths = document().paths;
  assert.ok(isObj(paths) && isObj(paths[apiPath]), `no path ${apiPath} in the reference OpenAPI document`);
  const op = paths[apiPath][method.toLowerCase()];
  assert.ok(isObj(op) && isObj(op.responses), `no ${method} ${apiPath} in the reference OpenAPI document`);
  let response = op.responses['200'];
  if (isObj(response) && typeof response.$ref === 'string') response = lookup(response.$ref);
  assert.ok(isObj(response) && isObj(response.content), `no 200 response for ${method} ${apiPath}`);
  const media = response.content['application/json'];
  assert.ok(isObj(media) && isObj(media.schema), `no JSON schema for the 200 response of ${method} ${apiPath}`);
  return convert(media.schema) as Obj;
}

function validator(apiPath: string, method: string): ValidateFunction {
  const key = `${method.toUpperCase()} ${apiPath}`;
  let v = cache.get(key);
  if (!v) {
    v = ajv.compile(responseSchema(apiPath, method));
    cache.set(key, v);
  }
  return v;
}

// Asserts that `body` is a success response that the reference description accepts.
export function assertMatchesSchema(apiPath: string, method: string, body: unknown): void {
  assert.equal((body as { result?: unknown })?.result, 'success', `not a success response: ${JSON.stringify(body)}`);
  const validate = validator(apiPath, method);
  if (!validate(body)) {
    assert.fail(
      `${method.toUpperCase()} ${apiPath} response does not match the reference schema:\n` +
        `${ajv.errorsText(validate.errors, { separator: '\n' })}\nbody: ${JSON.stringify(body).slice(0, 2000)}`,
    );
  }
}

// The foundation endpoints by their paths on our server, with the reference path each is described under.
const KNOWN: [string, RegExp, string][] = [
  ['GET', /^\/api\/v1\/server_settings\/?$/, '/server_settings'],
  ['GET', /^\/api\/v1\/users\/me\/?$/, '/users/me'],
  ['GET', /^\/api\/v1\/users\/?$/, '/users'],
  ['POST', /^\/api\/v1\/users\/?$/, '/users'],
  ['GET', /^\/api\/v1\/users\/\d+\/?$/, '/users/{user_id}'],
  ['GET', /^\/api\/v1\/users\/[^/]+\/?$/, '/users/{email}'],
  ['POST', /^\/api\/v1\/fetch_api_key\/?$/, '/fetch_api_key'],
];

// The reference path describing `method path` on our server, if it is one of the foundation endpoints.
export function referencePath(method: string, path: string): string | undefined {
  return KNOWN.find(([m, re]) => m === method.toUpperCase() && re.test(path))?.[2];
}
