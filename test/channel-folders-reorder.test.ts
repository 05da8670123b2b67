// PATCH /channel_folders (feature level 414): reordering every folder, the channel_folder reorder event.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { assertError, assertSuccess } from './helpers/assertions.js';
import { Listeners } from './helpers/events.js';
import { validateEvent } from './helpers/openapi-events.js';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

test('administrators reorder every folder, archived ones included; everyone is told', async () => {
  const create = async (name: string) => assertSuccess(await server.as('iago').post('/channel_folders/create', { name })).channel_folder_id as number;
  const [a, b, c] = [await create('Alpha'), await create('Beta'), await create('Gamma')];
  assertSuccess(await server.as('iago').patch(`/channel_folders/${c}`, { is_archived: true }));
  const l = await Listeners.open(server, ['hamlet']);
  assertSuccess(await server.as('iago').patch('/channel_folders', { order: JSON.stringify([c, a, b]) }));
  const [event] = await l.waitFor('hamlet', 'channel_folder');
  assert.deepEqual([event.op, event.order], ['reorder', [c, a, b]]);
  assert.deepEqual(validateEvent(event), []);
  const listed = assertSuccess(await server.as('hamlet').get('/channel_folders', { include_archived: true })).channel_folders as { id: number; order: number }[];
  assert.deepEqual(listed.map((f) => f.id), [c, a, b]);
  assertError(await server.as('iago').patch('/channel_folders', { order: JSON.stringify([a, b]) }), 400, 'BAD_REQUEST', 'Invalid order mapping.');
  assertError(await server.as('iago').patch('/channel_folders', { order: JSON.stringify([a, a, b]) }), 400, 'BAD_REQUEST', 'Invalid order mapping.');
  assertError(await server.as('hamlet').patch('/channel_folders', { order: JSON.stringify([a, b, c]) }), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
});
