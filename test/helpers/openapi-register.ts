// Validates a POST /register reply against the reference server's published response schema
// (../shared/reference/zulip-openapi-fl247.yaml). That file is older than the contract, so schemas are
// relaxed to allow properties it does not know; the types of the properties it does know are enforced.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import YAML from 'yaml';

const here = path.dirname(fileURLToPath(import.meta.url));
export const OPENAPI_PATH = path.resolve(here, '../../../shared/reference/zulip-openapi-fl247.yaml');

type Json = unknown;

// OpenAPI 3.0 to JSON Schema: `nullable` becomes a null alternative, component references point into $defs,
// and `additionalProperties: false` is dropped so fields added after feature level 247 pass.
export function toJsonSchema(node: Json): Json {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, Json> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'nullable' || key === 'example' || key === 'examples' || key.startsWith('x-')) continue;
    if (key === 'additionalProperties' && value === false) continue;
    if (key === '$ref' && typeof value === 'string') {
      out.$ref = value.replace('#/components/schemas/', '#/$defs/');
      continue;
    }
    out[key] = key === 'properties' && value && typeof value === 'object' ? schemaMap(value as Record<string, Json>) : toJsonSchema(value);
  }
  if ((node as Record<string, unknown>).nullable === true) {
    if (Array.isArray(out.enum)) out.enum = [...out.enum, null];
    if (typeof out.type === 'string') return { ...out, type: [out.type, 'null'] };
    return { anyOf: [out, { type: 'null' }] };
  }
  return out;
}

// A map from names to schemas, whose keys are property names and must not be read as keywords.
function schemaMap(map: Record<string, Json>): Record<string, Json> {
  return Object.fromEntries(Object.entries(map).map(([name, schema]) => [name, toJsonSchema(schema)]));
}

let cached: { validate: ValidateFunction; properties: Record<string, Json> } | undefined;

function load() {
  if (cached) return cached;
  const doc = YAML.parse(fs.readFileSync(OPENAPI_PATH, 'utf8'));
  const response = doc.paths['/register'].post.responses['200'].content['application/json'].schema;
  const schema = toJsonSchema(response) as Record<string, unknown>;
  const defs = schemaMap(doc.components.schemas);
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  const validate = ajv.compile({ ...schema, $defs: defs });
  const properties = (response.allOf as { properties?: Record<string, Json> }[]).reduce<Record<string, Json>>(
    (acc, part) => ({ ...acc, ...(part.properties ?? {}) }),
    {},
  );
  cached = { validate, properties };
  return cached;
}

// Keys the published schema describes (with their OpenAPI definitions, unconverted).
export function registerSchemaProperties(): Record<string, Json> {
  return load().properties;
}

// Returns readable error lines; an empty array means the reply conforms.
export function validateRegisterResponse(body: Record<string, unknown>): string[] {
  const { validate } = load();
  if (validate(body)) return [];
  return (validate.errors ?? []).map((e: ErrorObject) => `${e.instancePath || '(root)'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
}
