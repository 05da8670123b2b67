// Reference endpoints the clients and the reference's example suite call about users: a user's status, a
// user's subscription to a channel, the organization's presence, onboarding steps and stop words in register.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { assertError, assertSuccess } from './helpers/assertions.js';
import { assertMatchesSchema } from './helpers/openapi.js';
import { validateRegisterResponse } from './helpers/openapi-register.js';
import { validateEvent } from './helpers/openapi-events.js';
import { Listeners } from './helpers/events.js';
import { createChannel } from './helpers/messages.js';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

test("GET /users/{user_id}/status: only what is set, through the user access rule", async () => {
  assertSuccess(await server.as('hamlet').post('/users/me/status', { status_text: 'To be', emoji_name: 'thinking' }));
  const body = assertSuccess(await server.as('cordelia').get(`/users/${server.users.hamlet.id}/status`));
  assert.deepEqual(Object.keys(body.status).sort(), ['emoji_code', 'emoji_name', 'reaction_type', 'status_text']);
  assert.equal(body.status.status_text, 'To be');
  assert.deepEqual(assertSuccess(await server.as('cordelia').get(`/users/${server.users.iago.id}/status`)).status, {});
  assertError(await server.as('cordelia').get('/users/999999/status'), 400, 'BAD_REQUEST', 'No such user');
  assertError(await server.as('cordelia').get(`/users/${server.users.lear.id}/status`), 400, 'BAD_REQUEST', 'No such user');
});

test('GET /users/{user_id}/subscriptions/{stream_id}', async () => {
  const open = await createChannel(server, 'iago', ['hamlet']);
  const secret = await createChannel(server, 'iago', ['iago'], { invite_only: true });
  const yes = assertSuccess(await server.as('cordelia').get(`/users/${server.users.hamlet.id}/subscriptions/${open}`));
  assertMatchesSchema('/users/{user_id}/subscriptions/{stream_id}', 'get', yes);
  assert.equal(yes.is_subscribed, true);
  assert.equal(assertSuccess(await server.as('cordelia').get(`/users/${server.users.cordelia.id}/subscriptions/${open}`)).is_subscribed, false);
  assert.equal(assertSuccess(await server.as('iago').get(`/users/${server.users.iago.id}/subscriptions/${secret}`)).is_subscribed, true);
  assertError(await server.as('cordelia').get(`/users/${server.users.iago.id}/subscriptions/${secret}`), 400, 'BAD_REQUEST', 'Invalid channel ID');
  assertError(await server.as('cordelia').get(`/users/${server.users.iago.id}/subscriptions/999999`), 400, 'BAD_REQUEST', 'Invalid channel ID');
  assertError(await server.as('cordelia').get(`/users/999999/subscriptions/${open}`), 400, 'BAD_REQUEST', 'No such user');
});

test('GET /realm/presence has no presence_last_update_id', async () => {
  assertSuccess(await server.as('hamlet').post('/users/me/presence', { status: 'active' }));
  const body = assertSuccess(await server.as('cordelia').get('/realm/presence'));
  assertMatchesSchema('/realm/presence', 'get', body);
  assert.ok(!('presence_last_update_id' in body));
  assert.ok(server.users.hamlet.email in body.presences);
});

test('register: onboarding_steps (dismissed with POST /users/me/onboarding_steps) and stop_words', async () => {
  const reg = assertSuccess(await server.as('hamlet').post('/register', { fetch_event_types: JSON.stringify(['onboarding_steps', 'stop_words']) }));
  assert.deepEqual(validateRegisterResponse(reg), []);
  assert.ok(reg.onboarding_steps.length > 0);
  for (const step of reg.onboarding_steps) assert.deepEqual(Object.keys(step).sort(), ['name', 'type']);
  assert.ok(reg.stop_words.includes('the') && reg.stop_words.includes('and'));
  const l = await Listeners.open(server, ['hamlet']);
  const step = reg.onboarding_steps[0].name;
  assertSuccess(await server.as('hamlet').post('/users/me/onboarding_steps', { onboarding_step: step }));
  const [event] = await l.waitFor('hamlet', 'onboarding_steps');
  assert.deepEqual(validateEvent(event), []);
  assert.ok(!event.onboarding_steps.some((s: { name: string }) => s.name === step));
  const again = assertSuccess(await server.as('hamlet').post('/register', { fetch_event_types: JSON.stringify(['onboarding_steps']) }));
  assert.equal(again.onboarding_steps.length, reg.onboarding_steps.length - 1);
  assertError(await server.as('hamlet').post('/users/me/onboarding_steps', { onboarding_step: 'no_such_step' }), 400, 'BAD_REQUEST', 'Unknown onboarding_step: no_such_step');
});
