// Default channels (POST/DELETE /default_streams) and default channel groups, with their register blocks and
// events, as the reference's example suite calls them.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { assertError, assertSuccess } from './helpers/assertions.js';
import { validateEvent } from './helpers/openapi-events.js';
import { validateRegisterResponse } from './helpers/openapi-register.js';
import { Listeners } from './helpers/events.js';
import { createChannel } from './helpers/messages.js';

let server: TestServer;
let denmark: number;
let norway: number;
let secret: number;
before(async () => {
  server = await startTestServer();
  denmark = await createChannel(server, 'iago', ['iago'], {}, 'Denmark');
  norway = await createChannel(server, 'iago', ['iago'], {}, 'Norway');
  secret = await createChannel(server, 'iago', ['iago'], { invite_only: true }, 'Secret');
});
after(() => server.close());

const state = async (who: 'hamlet' | 'polonius') => {
  const body = assertSuccess(await server.as(who).post('/register', { fetch_event_types: JSON.stringify(['default_streams', 'default_stream_groups']) }));
  assert.deepEqual(validateRegisterResponse(body), []);
  return body;
};

test('default channels: added and removed by administrators, told to all but guests', async () => {
  const l = await Listeners.open(server, ['hamlet', 'polonius']);
  assertSuccess(await server.as('iago').post('/default_streams', { stream_id: denmark }));
  const [event] = await l.waitFor('hamlet', 'default_streams');
  assert.deepEqual(validateEvent(event), []);
  assert.deepEqual(event.default_streams.map((s: { stream_id: number }) => s.stream_id), [denmark]);
  assert.deepEqual(await l.take('polonius', 'default_streams'), []);
  assert.deepEqual((await state('hamlet')).realm_default_streams.map((s: { stream_id: number }) => s.stream_id), [denmark]);
  assertError(await server.as('iago').post('/default_streams', { stream_id: secret }), 400, 'BAD_REQUEST', 'Private channels cannot be made default.');
  assertError(await server.as('iago').post('/default_streams', { stream_id: 999999 }), 400, 'BAD_REQUEST', 'Invalid channel ID');
  assertError(await server.as('hamlet').post('/default_streams', { stream_id: norway }), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
  assertSuccess(await server.as('iago').delete('/default_streams', { stream_id: denmark }));
  assert.deepEqual((await state('hamlet')).realm_default_streams, []);
});

test('default channel groups: created, renamed, described, channels added and removed, deleted', async () => {
  const l = await Listeners.open(server, ['hamlet']);
  assertSuccess(await server.as('iago').post('/default_stream_groups/create', { group_name: 'Scandinavia', description: 'The north', stream_names: JSON.stringify(['Denmark']) }));
  const [created] = await l.waitFor('hamlet', 'default_stream_groups');
  assert.deepEqual(validateEvent(created), []);
  const [group] = created.default_stream_groups;
  assert.deepEqual([group.name, group.description, group.streams.map((s: { stream_id: number }) => s.stream_id)], ['Scandinavia', 'The north', [denmark]]);
  assertSuccess(await server.as('iago').patch(`/default_stream_groups/${group.id}/streams`, { op: 'add', stream_names: JSON.stringify(['Norway']) }));
  assertSuccess(await server.as('iago').patch(`/default_stream_groups/${group.id}`, { new_group_name: 'Nordic', new_description: 'Further north' }));
  let [now] = (await state('hamlet')).realm_default_stream_groups;
  assert.deepEqual([now.name, now.description, now.streams.map((s: { stream_id: number }) => s.stream_id)], ['Nordic', 'Further north', [denmark, norway]]);
  assertSuccess(await server.as('iago').patch(`/default_stream_groups/${group.id}/streams`, { op: 'remove', stream_names: JSON.stringify(['Denmark']) }));
  [now] = (await state('hamlet')).realm_default_stream_groups;
  assert.deepEqual(now.streams.map((s: { stream_id: number }) => s.stream_id), [norway]);
  assert.deepEqual((await state('polonius')).realm_default_stream_groups, [], 'not for guests');

  const errors: [Promise<any>, string][] = [
    [server.as('iago').post('/default_stream_groups/create', { group_name: 'Nordic', description: '', stream_names: '[]' }), "Default channel group 'Nordic' already exists"],
    [server.as('iago').post('/default_stream_groups/create', { group_name: ' ', description: '', stream_names: '[]' }), "Invalid default channel group name ' '"],
    [server.as('iago').post('/default_stream_groups/create', { group_name: 'x'.repeat(61), description: '', stream_names: '[]' }), 'Default channel group name too long (limit: 60 characters)'],
    [server.as('iago').patch(`/default_stream_groups/${group.id}/streams`, { op: 'add', stream_names: JSON.stringify(['Norway']) }), "Channel 'Norway' is already present in default channel group 'Nordic'"],
    [server.as('iago').patch(`/default_stream_groups/${group.id}/streams`, { op: 'remove', stream_names: JSON.stringify(['Denmark']) }), "Channel 'Denmark' is not present in default channel group 'Nordic'"],
    [server.as('iago').patch(`/default_stream_groups/${group.id}/streams`, { op: 'swap', stream_names: '[]' }), 'Invalid value for "op". Specify one of "add" or "remove".'],
    [server.as('iago').patch(`/default_stream_groups/${group.id}`, {}), 'You must pass "new_description" or "new_group_name".'],
    [server.as('iago').patch(`/default_stream_groups/${group.id}`, { new_group_name: 'Nordic' }), "This default channel group is already named 'Nordic'"],
    [server.as('iago').delete('/default_stream_groups/999999'), "Default channel group with id '999999' does not exist."],
    [server.as('iago').post('/default_stream_groups/create', { group_name: 'Hidden', description: '', stream_names: JSON.stringify(['Nowhere']) }), "Invalid channel name 'Nowhere'"],
  ];
  for (const [reply, msg] of errors) assertError(await reply, 400, 'BAD_REQUEST', msg);
  assertSuccess(await server.as('iago').post('/default_streams', { stream_id: denmark }));
  assertError(await server.as('iago').patch(`/default_stream_groups/${group.id}/streams`, { op: 'add', stream_names: JSON.stringify(['Denmark']) }), 400, 'BAD_REQUEST', "'Denmark' is a default channel and cannot be added to 'Nordic'");
  assertSuccess(await server.as('iago').delete(`/default_stream_groups/${group.id}`));
  assert.deepEqual((await state('hamlet')).realm_default_stream_groups, []);
});
