// GET /messages/{message_id}/read_receipts, as the mobile app's read-receipts sheet calls it.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { assertError, assertSuccess } from './helpers/assertions.js';
import { assertMatchesSchema } from './helpers/openapi.js';
import { setRealmSettings } from './helpers/direct-db.js';
import { createChannel, sendToChannel } from './helpers/messages.js';

let server: TestServer;
let denmark: number;
let secret: number;
before(async () => {
  server = await startTestServer();
  denmark = await createChannel(server, 'iago', ['hamlet', 'cordelia', 'iago', 'shiva', 'polonius', 'desdemona']);
  secret = await createChannel(server, 'iago', ['iago'], { invite_only: true });
});
after(() => server.close());

const receipts = async (as: 'hamlet' | 'cordelia', id: number) => {
  const body = assertSuccess(await server.as(as).get(`/messages/${id}/read_receipts`));
  assertMatchesSchema('/messages/{message_id}/read_receipts', 'get', body);
  return body.user_ids as number[];
};
const read = async (who: 'cordelia' | 'iago' | 'shiva' | 'desdemona' | 'polonius' | 'hamlet', id: number) =>
  assertSuccess(await server.as(who).post('/messages/flags', { messages: [id], op: 'add', flag: 'read' }));

test('those who read it, without the sender, those who opted out, muters and the muted, the deactivated', async () => {
  const id = await sendToChannel(server, 'hamlet', denmark, 'receipts', 'have you read this?');
  assert.deepEqual(await receipts('hamlet', id), []);
  for (const who of ['cordelia', 'iago', 'shiva', 'polonius'] as const) await read(who, id);
  const { users } = server;
  assert.deepEqual(await receipts('hamlet', id), [users.iago.id, users.shiva.id, users.cordelia.id, users.polonius.id].sort((a, b) => a - b));
  // Marking it unread again takes the receipt back.
  assertSuccess(await server.as('polonius').post('/messages/flags', { messages: [id], op: 'remove', flag: 'read' }));
  assertSuccess(await server.as('iago').patch('/settings', { send_read_receipts: false }));
  assertSuccess(await server.as('shiva').post(`/users/me/muted_users/${users.hamlet.id}`));
  assertSuccess(await server.as('hamlet').post(`/users/me/muted_users/${users.cordelia.id}`));
  assert.deepEqual(await receipts('hamlet', id), []);
  assert.deepEqual(await receipts('cordelia', id), [users.shiva.id, users.cordelia.id], 'others still see them, themselves included');
  assertSuccess(await server.as('iago').patch('/settings', { send_read_receipts: true }));
  assert.ok((await receipts('cordelia', id)).includes(users.iago.id));
  assertSuccess(await server.as('desdemona').delete(`/users/${users.iago.id}`));
  assert.ok(!(await receipts('cordelia', id)).includes(users.iago.id), 'deactivated users are left out');
  assertSuccess(await server.as('desdemona').post(`/users/${users.iago.id}/reactivate`));
});

test('errors: a message the caller may not read, read receipts turned off', async () => {
  const hidden = await sendToChannel(server, 'iago', secret, 'secret', 'no');
  assertError(await server.as('hamlet').get(`/messages/${hidden}/read_receipts`), 400, 'BAD_REQUEST', 'Invalid message(s)');
  assertError(await server.as('hamlet').get('/messages/999999/read_receipts'), 400, 'BAD_REQUEST', 'Invalid message(s)');
  const id = await sendToChannel(server, 'cordelia', denmark, 'receipts', 'off');
  await setRealmSettings(server, { enable_read_receipts: false });
  try {
    assertError(await server.as('hamlet').get(`/messages/${id}/read_receipts`), 400, 'BAD_REQUEST', 'Read receipts are disabled in this organization.');
  } finally {
    await setRealmSettings(server, { enable_read_receipts: undefined });
  }
});
