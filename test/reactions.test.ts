import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type SeedName, type TestServer } from './helpers/server.js';
import type { ParamValue } from './helpers/client.js';
import { Listeners } from './helpers/events.js';

let server: TestServer;
let channelMessage: number;
let dm: number;
let secret: number;

async function send(who: SeedName, params: Record<string, ParamValue>): Promise<number> {
  const res = await server.as(who).post('/messages', params);
  assert.equal(res.status, 200, res.text);
  return res.body.id;
}

const react = (who: SeedName, id: number, params: Record<string, ParamValue>) => server.as(who).post(`/messages/${id}/reactions`, params);
const unreact = (who: SeedName, id: number, params: Record<string, ParamValue>) => server.as(who).delete(`/messages/${id}/reactions`, params);

function assertError(res: { status: number; body: any; text: string }, msg: string, code = 'BAD_REQUEST') {
  assert.equal(res.status, 400, res.text);
  assert.deepEqual(res.body, { result: 'error', msg, code });
}

before(async () => {
  server = await startTestServer();
  for (const who of ['hamlet', 'cordelia'] as const) await server.as(who).post('/users/me/subscriptions', { subscriptions: [{ name: 'Denmark' }] });
  await server.as('hamlet').post('/users/me/subscriptions', { subscriptions: [{ name: 'Secret' }], invite_only: true });
  channelMessage = await send('hamlet', { type: 'stream', to: 'Denmark', topic: 'castle', content: 'to be or not' });
  dm = await send('hamlet', { type: 'private', to: [server.users.polonius.id], content: 'a word' });
  secret = await send('hamlet', { type: 'stream', to: 'Secret', topic: 'hush', content: 'psst' });
});
after(() => server.close());

test('adding by name: the reaction shows on the message and goes to everyone with a row for it', async () => {
  const l = await Listeners.open(server, ['hamlet', 'cordelia', 'iago']);
  const res = await react('cordelia', channelMessage, { emoji_name: 'octopus' });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body, { result: 'success', msg: '' });
  const expected = {
    type: 'reaction', op: 'add', message_id: channelMessage, emoji_name: 'octopus', emoji_code: '1f419', reaction_type: 'unicode_emoji',
    user_id: server.users.cordelia.id, user: { user_id: server.users.cordelia.id, email: server.users.cordelia.email, full_name: server.users.cordelia.fullName },
  };
  for (const who of ['hamlet', 'cordelia'] as const) {
    const [event] = await l.take(who, 'reaction');
    const { id: _id, ...rest } = event;
    assert.deepEqual(rest, expected);
  }
  assert.deepEqual(await l.take('iago', 'reaction'), []);

  const fetched = await server.as('hamlet').get(`/messages/${channelMessage}`);
  assert.deepEqual(fetched.body.message.reactions, [{
    emoji_name: 'octopus', emoji_code: '1f419', reaction_type: 'unicode_emoji', user_id: server.users.cordelia.id,
    user: { id: server.users.cordelia.id, email: server.users.cordelia.email, full_name: server.users.cordelia.fullName, is_mirror_dummy: false },
  }]);

  assertError(await react('cordelia', channelMessage, { emoji_name: 'octopus' }), 'Reaction already exists.', 'REACTION_ALREADY_EXISTS');
  assertError(await react('cordelia', channelMessage, { emoji_name: 'octopus', emoji_code: '1f419', reaction_type: 'unicode_emoji' }), 'Reaction already exists.', 'REACTION_ALREADY_EXISTS');
});

test('a vote for an existing emoji keeps its name; reactions come oldest first', async () => {
  const id = await send('hamlet', { type: 'stream', to: 'Denmark', topic: 'votes', content: 'vote' });
  assert.equal((await react('cordelia', id, { emoji_name: 'thumbs_up', emoji_code: '1f44d', reaction_type: 'unicode_emoji' })).status, 200);
  assert.equal((await react('hamlet', id, { emoji_name: '+1' })).status, 200);
  assert.equal((await react('hamlet', id, { emoji_name: 'tada' })).status, 200);
  const reactions = (await server.as('cordelia').get('/messages', { anchor: id, num_before: 0, num_after: 0, narrow: [] })).body.messages[0].reactions;
  assert.deepEqual(reactions.map((r: any) => [r.user_id, r.emoji_name, r.emoji_code]), [
    [server.users.cordelia.id, 'thumbs_up', '1f44d'],
    [server.users.hamlet.id, 'thumbs_up', '1f44d'],
    [server.users.hamlet.id, 'tada', '1f389'],
  ]);
});

test('the extra emoji, also under its neutral type name', async () => {
  const id = await send('hamlet', { type: 'stream', to: 'Denmark', topic: 'extra', content: 'x' });
  assert.equal((await react('cordelia', id, { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'service_extra_emoji' })).status, 200);
  assert.equal((await react('hamlet', id, { emoji_name: 'zulip' })).status, 200);
  const reactions = (await server.as('hamlet').get(`/messages/${id}`)).body.message.reactions;
  assert.deepEqual(reactions.map((r: any) => [r.emoji_name, r.emoji_code, r.reaction_type]), [['zulip', 'zulip', 'zulip_extra_emoji'], ['zulip', 'zulip', 'zulip_extra_emoji']]);
  assertError(await react('iago', id, { emoji_name: 'zulip', emoji_code: 'other', reaction_type: 'zulip_extra_emoji' }), 'Invalid emoji code');
});

test('every error, with its exact message and code', async () => {
  const id = channelMessage;
  assertError(await react('hamlet', id, { emoji_name: 'octopus', emoji_code: 'ffff', reaction_type: 'unicode_emoji' }), 'Invalid emoji code');
  assertError(await react('hamlet', id, { emoji_name: 'smile', emoji_code: '1f600', reaction_type: 'unicode_emoji' }), 'Invalid emoji name');
  assertError(await react('hamlet', id, { emoji_name: 'no_such_emoji_at_all' }), "Emoji 'no_such_emoji_at_all' does not exist");
  assertError(await react('hamlet', id, { emoji_name: 'octopus', reaction_type: 'bogus' }), 'Invalid emoji type.');
  assertError(await react('hamlet', id, { emoji_name: 'octopus', emoji_code: '99', reaction_type: 'realm_emoji' }), 'Invalid custom emoji.');
  assertError(await react('hamlet', 999999, { emoji_name: 'octopus' }), 'Invalid message(s)');
  const missing = await react('hamlet', id, {});
  assert.equal(missing.status, 400);
  assert.deepEqual(missing.body, { result: 'error', msg: "Missing 'emoji_name' argument", code: 'REQUEST_VARIABLE_MISSING', var_name: 'emoji_name' });

  assertError(await unreact('hamlet', id, { emoji_name: 'octopus' }), "Reaction doesn't exist.", 'REACTION_DOES_NOT_EXIST');
  assertError(await unreact('hamlet', id, {}), 'At least one of the following arguments must be present: emoji_name, emoji_code');
  assertError(await unreact('hamlet', id, { emoji_name: 'no_such_emoji_at_all' }), "Emoji 'no_such_emoji_at_all' does not exist");
  assertError(await unreact('hamlet', 999999, { emoji_name: 'octopus' }), 'Invalid message(s)');
});

test('who may react: readers of the message, whatever their role', async () => {
  // Not received and not readable: a direct message between others, a private channel's message.
  for (const who of ['iago', 'shiva', 'cordelia', 'desdemona'] as const) {
    assertError(await react(who, dm, { emoji_name: 'heart' }), 'Invalid message(s)');
    assertError(await react(who, secret, { emoji_name: 'heart' }), 'Invalid message(s)');
  }
  // A guest not subscribed to a public channel cannot read its history.
  assertError(await react('polonius', channelMessage, { emoji_name: 'heart' }), 'Invalid message(s)');
  // A guest may react to a direct message sent to them; a bot likewise to what it may read.
  assert.equal((await react('polonius', dm, { emoji_name: 'heart' })).status, 200);
  assert.equal((await react('bot', channelMessage, { emoji_name: 'heart' })).status, 200);
  // Members, moderators, administrators and owners may react to a public channel's message without a subscription.
  for (const who of ['shiva', 'desdemona'] as const) assert.equal((await react(who, channelMessage, { emoji_name: 'heart' })).status, 200, who);
});

test('reacting to a channel message never received gives the reactor a row, so they follow later changes', async () => {
  const id = await send('hamlet', { type: 'stream', to: 'Denmark', topic: 'history', content: 'old news' });
  const l = await Listeners.open(server, ['iago', 'hamlet']);
  assert.equal((await react('iago', id, { emoji_name: 'eyes' })).status, 200);
  assert.equal((await l.take('iago', 'reaction')).length, 1);
  assert.equal((await l.take('hamlet', 'reaction')).length, 1);
  const flags = (await server.as('iago').get(`/messages/${id}`)).body.message.flags;
  assert.deepEqual([...flags].sort(), ['historical', 'read']);
  assert.equal((await react('hamlet', id, { emoji_name: 'eyes' })).status, 200);
  const [event] = await l.take('iago', 'reaction');
  assert.equal(event.user_id, server.users.hamlet.id);
});

test('removing: by name, by code and type, by code alone; events to the same recipients', async () => {
  const id = await send('hamlet', { type: 'stream', to: 'Denmark', topic: 'remove', content: 'x' });
  for (const name of ['octopus', 'tada', 'heart']) assert.equal((await react('cordelia', id, { emoji_name: name })).status, 200);
  const l = await Listeners.open(server, ['hamlet', 'cordelia', 'shiva']);

  const byName = await unreact('cordelia', id, { emoji_name: 'octopus' });
  assert.equal(byName.status, 200, byName.text);
  const [event] = await l.take('hamlet', 'reaction');
  assert.deepEqual([event.op, event.emoji_name, event.emoji_code, event.reaction_type, event.user_id], ['remove', 'octopus', '1f419', 'unicode_emoji', server.users.cordelia.id]);
  assert.equal((await l.take('cordelia', 'reaction')).length, 1);
  assert.deepEqual(await l.take('shiva', 'reaction'), []);

  assert.equal((await unreact('cordelia', id, { emoji_code: '1f389', reaction_type: 'unicode_emoji' })).status, 200);
  assert.equal((await unreact('cordelia', id, { emoji_code: '2764' })).status, 200);
  assert.deepEqual((await server.as('hamlet').get(`/messages/${id}`)).body.message.reactions, []);
  assertError(await unreact('cordelia', id, { emoji_code: '2764' }), "Reaction doesn't exist.", 'REACTION_DOES_NOT_EXIST');
  // Another user's reaction is not yours to remove.
  assert.equal((await react('cordelia', id, { emoji_name: 'octopus' })).status, 200);
  assertError(await unreact('hamlet', id, { emoji_name: 'octopus' }), "Reaction doesn't exist.", 'REACTION_DOES_NOT_EXIST');
});

test('what the JavaScript client sends: multipart, and message_id repeated beside the path', async () => {
  const id = await send('hamlet', { type: 'stream', to: 'Denmark', topic: 'js', content: 'x' });
  const js = server.as('cordelia', 'multipart');
  const added = await js.post(`/messages/${id}/reactions`, { message_id: id, emoji_name: 'smile' });
  assert.equal(added.status, 200, added.text);
  assert.deepEqual(added.body.ignored_parameters_unsupported, ['message_id']);
  const removed = await server.as('cordelia').request('DELETE', `/messages/${id}/reactions`, { message_id: id, emoji_name: 'smile' }, { encoding: 'query' });
  assert.equal(removed.status, 200, removed.text);
});
