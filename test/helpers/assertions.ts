// Assertions on the JSON envelope shared by every test file.
import assert from 'node:assert/strict';
import type { Reply } from './client.js';
import { assertMatchesSchema, referencePath } from './openapi.js';

export const BASIC_CHALLENGE = 'Basic realm="zulip"';

function isJson(reply: Reply): void {
  assert.match(String(reply.headers['content-type']), /^application\/json/, `not JSON: ${reply.status} ${reply.text}`);
  assert.ok(reply.body && typeof reply.body === 'object', `body is not a JSON object: ${reply.text}`);
}

// A success envelope: HTTP 200, result "success", msg "". Replies of the foundation endpoints are also
// validated against the reference OpenAPI description.
export function assertSuccess(reply: Reply): any {
  isJson(reply);
  assert.equal(reply.status, 200, reply.text);
  assert.equal(reply.body.result, 'success', reply.text);
  assert.equal(reply.body.msg, '', reply.text);
  const reference = reply.method && reply.path ? referencePath(reply.method, reply.path) : undefined;
  if (reference) assertMatchesSchema(reference, reply.method!, reply.body);
  return reply.body;
}

// An error envelope with exactly this status, code and message; `extra` fields must match too.
export function assertError(reply: Reply, status: number, code: string, msg: string | RegExp, extra: Record<string, unknown> = {}): any {
  isJson(reply);
  assert.equal(reply.status, status, reply.text);
  assert.equal(reply.body.result, 'error', reply.text);
  assert.equal(reply.body.code, code, reply.text);
  if (typeof msg === 'string') assert.equal(reply.body.msg, msg, reply.text);
  else assert.match(reply.body.msg, msg, reply.text);
  for (const [k, v] of Object.entries(extra)) assert.deepEqual(reply.body[k], v, `${k} in ${reply.text}`);
  return reply.body;
}

// Any error in the JSON envelope, with a 4xx status (never a 5xx).
export function assertClientError(reply: Reply): any {
  isJson(reply);
  assert.ok(reply.status >= 400 && reply.status < 500, `expected a 4xx, got ${reply.status}: ${reply.text}`);
  assert.equal(reply.body.result, 'error', reply.text);
  assert.equal(typeof reply.body.msg, 'string', reply.text);
  assert.ok(typeof reply.body.code === 'string' && reply.body.code.length > 0, reply.text);
  return reply.body;
}

export function assertUnauthorized(reply: Reply, msg: string): void {
  assertError(reply, 401, 'UNAUTHORIZED', msg);
  assert.equal(reply.headers['www-authenticate'], BASIC_CHALLENGE);
}
