// Validates replies of the message endpoints against the reference server's published response schemas
// (../shared/reference/zulip-openapi-fl247.yaml), relaxed as in openapi-register.ts: properties added after
// feature level 247 pass, the types of the properties it knows are enforced.
import fs from 'node:fs';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import YAML from 'yaml';
import { OPENAPI_PATH, toJsonSchema } from './openapi-register.js';

type Endpoint = 'GET /messages' | 'GET /messages/{message_id}' | 'GET /messages/matches_narrow' | 'POST /messages/flags' | 'POST /messages/flags/narrow' | 'POST /messages';

let doc: Record<string, any> | undefined;
let ajv: Ajv | undefined;
const validators = new Map<Endpoint, ValidateFunction>();

function validator(endpoint: Endpoint): ValidateFunction {
  let validate = validators.get(endpoint);
  if (validate) return validate;
  doc ??= YAML.parse(fs.readFileSync(OPENAPI_PATH, 'utf8')) as Record<string, any>;
  if (!ajv) {
    ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
    ajv.addSchema({ $id: 'components', $defs: toJsonSchema(doc.components.schemas) as object });
  }
  const [method, path] = endpoint.split(' ');
  const response = doc.paths[path][method.toLowerCase()].responses['200'].content['application/json'].schema;
  const schema = JSON.parse(JSON.stringify(toJsonSchema(response)).replaceAll('"#/$defs/', '"components#/$defs/'));
  validate = ajv.compile(schema);
  validators.set(endpoint, validate);
  return validate;
}

// Readable error lines; an empty array means the reply conforms.
export function validateResponse(endpoint: Endpoint, body: Record<string, unknown>): string[] {
  const validate = validator(endpoint);
  if (validate(body)) return [];
  return (validate.errors ?? []).map((e: ErrorObject) => `${e.instancePath || '(root)'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
}
