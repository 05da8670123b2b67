// POST /channels/create (feature level 417): a channel with exactly the subscribers named, its settings, events,
// and the reference's 409 for a name in use.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { assertError, assertSuccess } from './helpers/assertions.js';
import { validateEvent } from './helpers/openapi-events.js';
import { Listeners } from './helpers/events.js';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

test('creates the channel with the subscribers named, the creator only if named', async () => {
  const l = await Listeners.open(server, ['hamlet', 'cordelia', 'iago']);
  const body = assertSuccess(await server.as('iago').post('/channels/create', {
    name: 'Music', description: 'All things **music**', subscribers: JSON.stringify([server.users.hamlet.id, server.users.cordelia.id]), invite_only: true,
  }));
  assert.ok(Number.isInteger(body.id));
  const stream = assertSuccess(await server.as('iago').get(`/streams/${body.id}`)).stream;
  assert.deepEqual([stream.name, stream.invite_only, stream.rendered_description], ['Music', true, '<p>All things <strong>music</strong></p>']);
  const subs = assertSuccess(await server.as('iago').get(`/streams/${body.id}/members`)).subscribers;
  assert.deepEqual([...subs].sort(), [server.users.hamlet.id, server.users.cordelia.id].sort());
  const [added] = await l.waitFor('hamlet', 'subscription');
  assert.deepEqual(validateEvent(added), []);
  assert.equal(added.subscriptions[0].stream_id, body.id);
  assert.ok((await l.take('iago', 'stream')).some((e) => e.op === 'create'), 'the creator, an administrator, is told of the private channel');

  const empty = assertSuccess(await server.as('hamlet').post('/channels/create', { name: 'Quiet', subscribers: '[]' }));
  assert.deepEqual(assertSuccess(await server.as('hamlet').get(`/streams/${empty.id}/members`)).subscribers, []);
});

test('errors', async () => {
  assertSuccess(await server.as('iago').post('/channels/create', { name: 'Taken', subscribers: '[]' }));
  assertError(await server.as('hamlet').post('/channels/create', { name: 'taken', subscribers: '[]' }), 409, 'CHANNEL_ALREADY_EXISTS', "Channel 'taken' already exists", { channel_name: 'taken' });
  assertError(await server.as('hamlet').post('/channels/create', { name: 'Music 2' }), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'subscribers' argument");
  assertError(await server.as('polonius').post('/channels/create', { name: 'Guests', subscribers: '[]' }), 400, 'BAD_REQUEST', 'Not allowed for guest users');
  assertError(await server.as('hamlet').post('/channels/create', { name: 'Default', subscribers: '[]', is_default_stream: true }), 400, 'BAD_REQUEST', 'Insufficient permission');
});
