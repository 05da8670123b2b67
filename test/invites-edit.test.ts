// PATCH /invites/multiuse/{invite_id} and POST /realm/test_welcome_bot_custom_message.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { assertError, assertSuccess } from './helpers/assertions.js';
import { Listeners } from './helpers/events.js';
import { validateEvent } from './helpers/openapi-events.js';
import { createChannel } from './helpers/messages.js';

let server: TestServer;
let denmark: number;
before(async () => {
  server = await startTestServer();
  denmark = await createChannel(server, 'iago', ['iago']);
});
after(() => server.close());

const links = async () => assertSuccess(await server.as('iago').get('/invites')).invites as { id: number; invited_as: number; link_url: string }[];

test('a link changed by whoever may revoke it, under the rules of making one', async () => {
  assertSuccess(await server.as('iago').post('/invites/multiuse', { invite_as: 400, stream_ids: '[]' }));
  const [link] = await links();
  const l = await Listeners.open(server, ['iago']);
  assertSuccess(await server.as('iago').patch(`/invites/multiuse/${link.id}`, { invite_as: 600, stream_ids: JSON.stringify([denmark]) }));
  const [event] = await l.waitFor('iago', 'invites_changed');
  assert.deepEqual(validateEvent(event), []);
  assert.equal((await links()).find((i) => i.id === link.id)!.invited_as, 600);
  assertError(await server.as('iago').patch(`/invites/multiuse/${link.id}`, {}), 400, 'BAD_REQUEST', 'Nothing to change');
  assertError(await server.as('iago').patch(`/invites/multiuse/${link.id}`, { stream_ids: '[999999]' }), 400, 'BAD_REQUEST', 'Invalid channel ID 999999. No invites were sent.');
  assertError(await server.as('iago').patch(`/invites/multiuse/${link.id}`, { invite_as: 7 }), 400, 'BAD_REQUEST', 'Invalid invite_as');
  assertError(await server.as('hamlet').patch(`/invites/multiuse/${link.id}`, { invite_as: 400 }), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
  assertError(await server.as('iago').patch('/invites/multiuse/999999', { invite_as: 400 }), 400, 'BAD_REQUEST', 'No such invitation');
  assertSuccess(await server.as('iago').delete(`/invites/multiuse/${link.id}`));
  assertError(await server.as('iago').patch(`/invites/multiuse/${link.id}`, { invite_as: 400 }), 400, 'BAD_REQUEST', 'Invitation has already been revoked');
});

test('the Welcome Bot sends an administrator the custom text to preview', async () => {
  const body = assertSuccess(await server.as('iago').post('/realm/test_welcome_bot_custom_message', { welcome_message_custom_text: 'Welcome to **Elsinore**!' }));
  const message = assertSuccess(await server.as('iago').get(`/messages/${body.message_id}`)).message;
  assert.deepEqual([message.sender_full_name, message.type, message.content], ['Welcome Bot', 'private', '<p>Welcome to <strong>Elsinore</strong>!</p>']);
  assertError(await server.as('hamlet').post('/realm/test_welcome_bot_custom_message', { welcome_message_custom_text: 'Hi' }), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
  assertError(await server.as('iago').post('/realm/test_welcome_bot_custom_message', { welcome_message_custom_text: 'x'.repeat(8001) }), 400, 'BAD_REQUEST', 'welcome_message_custom_text is too long (limit: 8000 characters)');
  assertError(await server.as('iago').post('/realm/test_welcome_bot_custom_message', { welcome_message_custom_text: '  ' }), 400, 'BAD_REQUEST', 'Message must not be empty');
});
