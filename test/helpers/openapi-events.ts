// Validates events (GET /events) against the reference server's published event schemas
// (../shared/reference/zulip-openapi-fl247.yaml), picking the schemas of the event's type and op. That file is of
// feature level 247: events added since (device, realm_emoji add/update_one, channel_folder, saved_snippets, …)
// are checked against NEWER_EVENTS below, written from the reference's current documentation of each.
// Properties added after feature level 247 pass; the types of the properties the schema knows are enforced.
import fs from 'node:fs';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import YAML from 'yaml';
import { OPENAPI_PATH, toJsonSchema } from './openapi-register.js';

type Json = Record<string, any>;

const int = { type: 'integer' };
const str = { type: 'string' };
const bool = { type: 'boolean' };
const ints = { type: 'array', items: int };
const obj = (properties: Json, required: string[] = Object.keys(properties)) => ({ type: 'object', properties, required });
const nullable = (s: Json) => ({ anyOf: [s, { type: 'null' }] });
const kind = (type: string, op?: string) => ({ type: { enum: [type] }, ...(op ? { op: { enum: [op] } } : {}), id: int });

const realmEmoji = obj({ id: str, name: str, source_url: str, deactivated: bool, author_id: nullable(int) }, ['id', 'name', 'source_url', 'deactivated']);
const savedSnippet = obj({ id: int, title: str, content: str, date_created: int });
const channelFolder = obj({ id: int, name: str, description: str, rendered_description: str, date_created: nullable(int), creator_id: nullable(int), is_archived: bool, order: int });

// type/op → schema, for events the feature-level-247 document does not describe.
export const NEWER_EVENTS: Record<string, Json> = {
  'realm_emoji/add': obj({ ...kind('realm_emoji', 'add'), emoji: realmEmoji }),
  'realm_emoji/update_one': obj({ ...kind('realm_emoji', 'update_one'), emoji_id: str, data: obj({ deactivated: bool }, []) }),
  'device/add': obj({ ...kind('device', 'add'), device_id: int }),
  'device/remove': obj({ ...kind('device', 'remove'), device_id: int }),
  'device/update': obj(
    {
      ...kind('device', 'update'), device_id: int, push_key_id: nullable(int), push_token_id: nullable(str), pending_push_token_id: nullable(str),
      push_token_last_updated_timestamp: nullable(int), push_registration_error_code: nullable(str),
    },
    ['id', 'type', 'op', 'device_id'],
  ),
  'saved_snippets/add': obj({ ...kind('saved_snippets', 'add'), saved_snippet: savedSnippet }),
  'saved_snippets/update': obj({ ...kind('saved_snippets', 'update'), saved_snippet: savedSnippet }),
  'saved_snippets/remove': obj({ ...kind('saved_snippets', 'remove'), saved_snippet_id: int }),
  'channel_folder/add': obj({ ...kind('channel_folder', 'add'), channel_folder: channelFolder }),
  'channel_folder/update': obj({ ...kind('channel_folder', 'update'), channel_folder_id: int, data: { type: 'object' } }),
  'channel_folder/reorder': obj({ ...kind('channel_folder', 'reorder'), order: ints }),
  'navigation_view/add': obj({ ...kind('navigation_view', 'add'), navigation_view: obj({ fragment: str, is_pinned: bool, name: nullable(str) }) }),
  'navigation_view/update': obj({ ...kind('navigation_view', 'update'), fragment: str, data: { type: 'object' } }),
  'navigation_view/remove': obj({ ...kind('navigation_view', 'remove'), fragment: str }),
  'reminders/add': obj({ ...kind('reminders', 'add'), reminders: { type: 'array', items: { type: 'object' } } }),
  'reminders/remove': obj({ ...kind('reminders', 'remove'), reminder_id: int }),
  'typing_edit_message/start': obj({ ...kind('typing_edit_message', 'start'), sender_id: int, message_id: int, recipient: { type: 'object' } }),
  'typing_edit_message/stop': obj({ ...kind('typing_edit_message', 'stop'), sender_id: int, message_id: int, recipient: { type: 'object' } }),
};

let compiled: { byKey: Map<string, ValidateFunction[]> } | undefined;

const keyOf = (type: string, op?: unknown) => (typeof op === 'string' ? `${type}/${op}` : type);

function load() {
  if (compiled) return compiled;
  const doc = YAML.parse(fs.readFileSync(OPENAPI_PATH, 'utf8')) as Json;
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema({ $id: 'components', $defs: toJsonSchema(doc.components.schemas) as object });
  const schema = doc.paths['/events'].get.responses['200'].content['application/json'].schema;
  const items = schema.allOf[1].properties.events.items.oneOf as Json[];
  const byKey = new Map<string, ValidateFunction[]>();
  const props = (node: Json): Json => {
    if (node.properties) return node.properties;
    const out: Json = {};
    for (const part of node.allOf ?? []) Object.assign(out, part.$ref ? props(doc.components.schemas[part.$ref.split('/').at(-1)]) : props(part));
    return out;
  };
  for (const item of items) {
    const p = props(item);
    const type = p.type.allOf ? p.type.allOf[1].enum[0] : p.type.enum[0];
    const ops: unknown[] = p.op?.enum ?? [undefined];
    // With additionalProperties no longer false, alternatives of a oneOf (such as the fields a realm_user update
    // may carry) can both match: any one of them is enough.
    const converted = JSON.parse(JSON.stringify(toJsonSchema(item)).replaceAll('"#/$defs/', '"components#/$defs/').replaceAll('"oneOf":', '"anyOf":'));
    const validate = ajv.compile(converted);
    for (const op of ops) {
      const list = byKey.get(keyOf(type, op)) ?? [];
      list.push(validate);
      byKey.set(keyOf(type, op), list);
    }
  }
  for (const [key, s] of Object.entries(NEWER_EVENTS)) {
    if (!byKey.has(key)) byKey.set(key, [ajv.compile(s)]);
  }
  compiled = { byKey };
  return compiled;
}

// The reference's key of an event: its type, and its op when the reference distinguishes events by it.
export function eventKey(event: Json): string {
  const { byKey } = load();
  const withOp = keyOf(event.type, event.op);
  return byKey.has(withOp) ? withOp : event.type;
}

// Readable error lines; an empty array means the event conforms to one of the schemas of its type and op.
export function validateEvent(event: Json): string[] {
  const { byKey } = load();
  const candidates = byKey.get(keyOf(event.type, event.op)) ?? byKey.get(event.type);
  if (!candidates) return [`no reference schema for an event of type ${keyOf(event.type, event.op)}`];
  let best: ErrorObject[] | null = null;
  for (const validate of candidates) {
    if (validate(event)) return [];
    if (!best || (validate.errors?.length ?? 0) < best.length) best = validate.errors ?? [];
  }
  return (best ?? []).map((e) => `${event.type}${event.op ? '/' + event.op : ''} ${e.instancePath || '(root)'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
}
