// Muted users (POST/DELETE /users/me/muted_users/{id}): the register block, the event, the errors, and the
// effects: messages from a muted user arrive read, their earlier unread messages become read, their typing does
// not reach the muter.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { Listeners } from './helpers/events.js';
import { assertError, assertSuccess } from './helpers/assertions.js';
import { validateEvent } from './helpers/openapi-events.js';
import { validateRegisterResponse } from './helpers/openapi-register.js';
import { setRealmSettings } from './helpers/direct-db.js';
import { createChannel, messageFlags, sendDm, sendToChannel, takeUntil } from './helpers/messages.js';

let server: TestServer;
let denmark: number;
before(async () => {
  server = await startTestServer();
  denmark = await createChannel(server, 'iago', ['hamlet', 'cordelia', 'iago']);
});
after(() => server.close());

const muted = async () => {
  const body = assertSuccess(await server.as('hamlet').post('/register', { fetch_event_types: ['muted_users'] }));
  assert.deepEqual(validateRegisterResponse(body), []);
  return body.muted_users as { id: number; timestamp: number }[];
};

test('muting: the register block, the event to the muter alone, then unmuting', async () => {
  const l = await Listeners.open(server, ['hamlet', 'cordelia']);
  assert.deepEqual(await muted(), []);
  const before = Math.floor(Date.now() / 1000);
  assertSuccess(await server.as('hamlet').post(`/users/me/muted_users/${server.users.cordelia.id}`));
  const list = await muted();
  assert.deepEqual(list.map((m) => m.id), [server.users.cordelia.id]);
  assert.ok(list[0].timestamp >= before && list[0].timestamp <= before + 5);
  const [event] = await l.waitFor('hamlet', 'muted_users');
  assert.deepEqual(validateEvent(event), []);
  assert.deepEqual(event.muted_users, list);
  assert.deepEqual(await l.take('cordelia', 'muted_users'), []);

  assertError(await server.as('hamlet').post(`/users/me/muted_users/${server.users.cordelia.id}`), 400, 'BAD_REQUEST', 'User already muted');
  assertSuccess(await server.as('hamlet').delete(`/users/me/muted_users/${server.users.cordelia.id}`));
  const [unmuted] = await l.waitFor('hamlet', 'muted_users');
  assert.deepEqual(unmuted.muted_users, []);
  assert.deepEqual(validateEvent(unmuted), []);
  assertError(await server.as('hamlet').delete(`/users/me/muted_users/${server.users.cordelia.id}`), 400, 'BAD_REQUEST', 'User is not muted');
});

test('errors: oneself, unknown users, other organizations, system bots, users a guest may not access', async () => {
  assertError(await server.as('hamlet').post(`/users/me/muted_users/${server.users.hamlet.id}`), 400, 'BAD_REQUEST', 'Cannot mute self');
  assertError(await server.as('hamlet').post('/users/me/muted_users/999999'), 400, 'BAD_REQUEST', 'No such user');
  assertError(await server.as('hamlet').post(`/users/me/muted_users/${server.users.lear.id}`), 400, 'BAD_REQUEST', 'No such user');
  assertError(await server.as('hamlet').delete('/users/me/muted_users/999999'), 400, 'BAD_REQUEST', 'No such user');
  assertError(await server.as('hamlet').post('/users/me/muted_users/abc'), 400, 'BAD_REQUEST', 'muted_user_id is not an integer');
  // The Notification Bot speaks for the server: it exists once a notice was posted.
  assertSuccess(await server.as('iago').post('/users/me/subscriptions', { subscriptions: [{ name: 'Announced' }] }));
  assertSuccess(await server.as('iago').post('/users/me/subscriptions', { subscriptions: [{ name: 'Announced' }], principals: [server.users.hamlet.id] }));
  const bots = (await server.as('hamlet').post('/register', { fetch_event_types: ['realm_user'] })).body;
  const systemBot = [...bots.cross_realm_bots, ...bots.realm_users].find((u: { email: string }) => u.email.startsWith('notification-bot@'));
  assert.ok(systemBot, 'the Notification Bot exists');
  assertError(await server.as('hamlet').post(`/users/me/muted_users/${systemBot.user_id}`), 400, 'BAD_REQUEST', 'No such user');
  // A guest limited to the users they know may not mute anyone else.
  await setRealmSettings(server, { can_access_all_users_group: 'role:members' });
  try {
    assertError(await server.as('polonius').post(`/users/me/muted_users/${server.users.shiva.id}`), 400, 'BAD_REQUEST', 'Insufficient permission');
    assertError(await server.as('polonius').delete(`/users/me/muted_users/${server.users.shiva.id}`), 400, 'BAD_REQUEST', 'Insufficient permission');
  } finally {
    await setRealmSettings(server, { can_access_all_users_group: undefined });
  }
});

test('bots and deactivated users may be muted', async () => {
  assertSuccess(await server.as('cordelia').post(`/users/me/muted_users/${server.users.bot.id}`));
  const created = assertSuccess(await server.as('iago').post('/users', { email: 'yorick@zulip.example.com', password: 'alas poor yorick', full_name: 'Yorick' }));
  assertSuccess(await server.as('iago').delete(`/users/${created.user_id}`));
  assertSuccess(await server.as('cordelia').post(`/users/me/muted_users/${created.user_id}`));
  const list = (await server.as('cordelia').post('/register', { fetch_event_types: ['muted_users'] })).body.muted_users as { id: number }[];
  assert.deepEqual(list.map((m) => m.id).sort(), [server.users.bot.id, created.user_id].sort());
});

test("a muted user's messages arrive read, the earlier ones become read, and their typing is not heard", async () => {
  const earlierDm = await sendDm(server, 'shiva', ['hamlet'], 'before the mute');
  const earlierChannel = await sendToChannel(server, 'shiva', denmark, 'mute', 'before the mute, in a channel');
  assertSuccess(await server.as('iago').post('/users/me/subscriptions', { subscriptions: [{ name: (await server.as('iago').get(`/streams/${denmark}`)).body.stream.name }], principals: [server.users.shiva.id] }));
  const l = await Listeners.open(server, ['hamlet', 'cordelia'], { client_capabilities: JSON.stringify({ stream_typing_notifications: true }) });
  assertSuccess(await server.as('hamlet').post(`/users/me/muted_users/${server.users.shiva.id}`));
  const flagEvents = await takeUntil(l, 'hamlet', 'update_message_flags');
  assert.equal(flagEvents.length, 1);
  assert.deepEqual(validateEvent(flagEvents[0]), []);
  assert.deepEqual([flagEvents[0].op, flagEvents[0].flag, flagEvents[0].messages], ['add', 'read', [earlierDm, earlierChannel].sort((a, b) => a - b)]);
  assert.ok((await messageFlags(server, 'hamlet', earlierDm)).includes('read'));

  const dm = await sendDm(server, 'shiva', ['hamlet', 'cordelia'], 'after the mute');
  const inChannel = await sendToChannel(server, 'shiva', denmark, 'mute', 'after the mute, in a channel');
  const messages = await takeUntil(l, 'hamlet', 'message', (e) => e.message.id === inChannel);
  for (const e of messages) assert.ok(e.flags.includes('read'), `${e.message.id} arrives read for the muter`);
  const others = await takeUntil(l, 'cordelia', 'message', (e) => e.message.id === inChannel);
  for (const e of others) assert.ok(!e.flags.includes('read'), `${e.message.id} arrives unread for the others`);
  assert.ok((await messageFlags(server, 'hamlet', dm)).includes('read'));
  const unread = (await server.as('hamlet').post('/register', { fetch_event_types: ['message', 'update_message_flags'] })).body.unread_msgs;
  assert.ok(!unread.pms.some((p: { other_user_id: number }) => p.other_user_id === server.users.shiva.id), 'no unread conversation with the muted user');

  for (const params of [{ to: JSON.stringify([server.users.hamlet.id, server.users.cordelia.id]) }, { type: 'stream', stream_id: denmark, topic: 'mute' }]) {
    assertSuccess(await server.as('shiva').post('/typing', { op: 'start', ...params }));
    const heard = await takeUntil(l, 'cordelia', 'typing');
    assert.equal(heard.length, 1, 'the others hear it');
    assert.deepEqual(await l.take('hamlet', 'typing'), [], 'the muter does not');
  }

  assertSuccess(await server.as('hamlet').delete(`/users/me/muted_users/${server.users.shiva.id}`));
  const after = await sendDm(server, 'shiva', ['hamlet'], 'after unmuting');
  assert.ok(!(await messageFlags(server, 'hamlet', after)).includes('read'));
});
