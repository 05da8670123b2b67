// PATCH /messages/{id} with prev_content_sha256 (feature level 379), as the mobile app edits: the edit is refused
// when the message no longer has the content the client edited.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { startTestServer, type TestServer } from './helpers/server.js';
import { assertError, assertSuccess } from './helpers/assertions.js';
import { createChannel, sendToChannel } from './helpers/messages.js';

let server: TestServer;
let denmark: number;
before(async () => {
  server = await startTestServer();
  denmark = await createChannel(server, 'iago', ['hamlet']);
});
after(() => server.close());

const sha = (s: string) => crypto.createHash('sha256').update(s, 'utf8').digest('hex');

test('an edit of the current content succeeds; one of a stale version is refused', async () => {
  const id = await sendToChannel(server, 'hamlet', denmark, 'edits', 'first version ✓');
  assertSuccess(await server.as('hamlet').patch(`/messages/${id}`, { content: 'second version', prev_content_sha256: sha('first version ✓') }));
  const stale = await server.as('hamlet').patch(`/messages/${id}`, { content: 'third version', prev_content_sha256: sha('first version ✓') });
  assertError(stale, 400, 'EXPECTATION_MISMATCH', "'prev_content_sha256' value does not match the expected value.");
  assert.equal((await server.as('hamlet').get(`/messages/${id}`)).body.raw_content, 'second version');
  assertSuccess(await server.as('hamlet').patch(`/messages/${id}`, { content: 'third version', prev_content_sha256: sha('second version') }));
  // Without it, any version is edited, as before.
  assertSuccess(await server.as('hamlet').patch(`/messages/${id}`, { content: 'fourth version' }));
});
