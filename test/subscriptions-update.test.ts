// PATCH /users/me/subscriptions (issue 23, conformance): `add` and `delete` in one call, as the reference server's
// update_subscriptions_backend takes them: both applied in one transaction, for the same principals, and
// answered with both results merged.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type SeedName, type TestServer } from './helpers/server.js';
import { assertError, assertSuccess } from './helpers/assertions.js';
import { assertMatchesSchema } from './helpers/openapi.js';
import { unique } from './helpers/messages.js';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server?.close());

const subscribed = async (who: SeedName) =>
  (assertSuccess(await server.as(who).get('/users/me/subscriptions')).subscriptions as { name: string }[]).map((s) => s.name);

test('add and delete in one call: the new channel is created and joined, the other one left', async () => {
  const old = unique('Old');
  const fresh = unique('Fresh');
  assertSuccess(await server.as('hamlet').post('/users/me/subscriptions', { subscriptions: [{ name: old }] }));
  const body = assertSuccess(await server.as('hamlet').patch('/users/me/subscriptions', { add: [{ name: fresh, description: 'new' }], delete: [old] }));
  assertMatchesSchema('/users/me/subscriptions', 'patch', body);
  const me = String(server.users.hamlet.id);
  assert.deepEqual({ subscribed: body.subscribed, already_subscribed: body.already_subscribed, removed: body.removed, not_removed: body.not_removed },
    { subscribed: { [me]: [fresh] }, already_subscribed: {}, removed: [old], not_removed: [] });
  const now = await subscribed('hamlet');
  assert.ok(now.includes(fresh) && !now.includes(old), JSON.stringify(now));
});

test('either list may be empty, but not both', async () => {
  const name = unique('Only add');
  const added = assertSuccess(await server.as('cordelia').patch('/users/me/subscriptions', { add: [{ name }] }));
  assert.deepEqual({ removed: added.removed, not_removed: added.not_removed }, { removed: [], not_removed: [] });
  const removed = assertSuccess(await server.as('cordelia').patch('/users/me/subscriptions', { delete: [name] }));
  assert.deepEqual({ subscribed: removed.subscribed, already_subscribed: removed.already_subscribed, removed: removed.removed }, { subscribed: {}, already_subscribed: {}, removed: [name] });
  const nothing = 'Nothing to do. Specify at least one of "add" or "delete".';
  assertError(await server.as('cordelia').patch('/users/me/subscriptions', {}), 400, 'BAD_REQUEST', nothing);
  assertError(await server.as('cordelia').patch('/users/me/subscriptions', { add: [], delete: [] }), 400, 'BAD_REQUEST', nothing);
});

test('principals apply to both lists; a failure in either undoes both', async () => {
  const { hamlet, cordelia } = server.users;
  const a = unique('For both A');
  const b = unique('For both B');
  assertSuccess(await server.as('iago').post('/users/me/subscriptions', { subscriptions: [{ name: a }], principals: [hamlet.id, cordelia.id] }));
  const body = assertSuccess(await server.as('iago').patch('/users/me/subscriptions', { add: [{ name: b }], delete: [a], principals: [hamlet.id, cordelia.id] }));
  assert.deepEqual(body.subscribed, { [hamlet.id]: [b], [cordelia.id]: [b] });
  assert.deepEqual(body.removed, [a]);
  for (const who of ['hamlet', 'cordelia'] as SeedName[]) {
    const now = await subscribed(who);
    assert.ok(now.includes(b) && !now.includes(a), `${who}: ${JSON.stringify(now)}`);
  }
  // Deleting an unknown channel fails the call, and the channel it would have created does not exist.
  const c = unique('Never');
  assertError(await server.as('hamlet').patch('/users/me/subscriptions', { add: [{ name: c }], delete: [unique('Unknown')] }), 400, 'STREAM_DOES_NOT_EXIST', /^Channel\(s\) \(Unknown .*\) do not exist$/);
  assertError(await server.as('hamlet').get('/get_stream_id', { stream: c }), 400, 'BAD_REQUEST', `Invalid channel name '${c}'`);
  assert.ok(!(await subscribed('hamlet')).includes(c));
});

test('guests are refused, as the reference server refuses its subscribe view to them', async () => {
  assertError(await server.as('polonius').patch('/users/me/subscriptions', { delete: ['anything'] }), 400, 'BAD_REQUEST', 'Not allowed for guest users');
});
