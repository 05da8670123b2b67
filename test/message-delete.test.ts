import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type SeedName, type TestServer } from './helpers/server.js';
import { Listeners } from './helpers/events.js';
import { Client } from './helpers/client.js';
import { ageMessages, setRealmSettings, withApp } from './helpers/direct-db.js';

let server: TestServer;
let denmark: number;
before(async () => {
  server = await startTestServer();
  denmark = await channel('Denmark', ['hamlet', 'cordelia', 'iago', 'shiva']);
});
after(() => server.close());

async function channel(name: string, members: SeedName[], extra: Record<string, unknown> = {}): Promise<number> {
  const res = await server.as('iago').post('/users/me/subscriptions', { subscriptions: [{ name }], principals: members.map((m) => server.users[m].id), ...extra });
  assert.equal(res.status, 200, res.text);
  return (await server.as('iago').get('/get_stream_id', { stream: name })).body.stream_id;
}

async function send(who: SeedName, topic = 'd', to: number | string = 'Denmark'): Promise<number> {
  const res = await server.as(who).post('/messages', { type: 'stream', to, topic, content: 'doomed' });
  assert.equal(res.status, 200, res.text);
  return res.body.id;
}

const del = (who: SeedName, id: number) => server.as(who).delete(`/messages/${id}`);
const NO = "You don't have permission to delete this message";
const only = (who: string[]) => JSON.stringify({ direct_members: who.map((w) => server.users[w as SeedName].id), direct_subgroups: [] });

function assertError(res: { status: number; body: any; text: string }, msg: string) {
  assert.equal(res.status, 400, res.text);
  assert.deepEqual([res.body.msg, res.body.code], [msg, 'BAD_REQUEST']);
}

test('deleting one\'s own message: gone for everyone, in bulk or single form by capability', async () => {
  const first = await send('hamlet');
  const l = await Listeners.open(server, ['hamlet', 'polonius'], { client_capabilities: JSON.stringify({ bulk_message_deletion: true }) });
  const single = await Listeners.open(server, ['cordelia']);
  const id = await send('hamlet');
  await l.clear();
  await single.clear();
  const res = await del('hamlet', id);
  assert.equal(res.status, 200, res.text);
  assert.deepEqual((await l.take('hamlet')).map((e) => ({ ...e, id: 0 })), [
    { type: 'delete_message', id: 0, message_ids: [id], message_type: 'stream', stream_id: denmark, topic: 'd' },
  ]);
  assert.deepEqual((await single.take('cordelia')).map((e) => ({ ...e, id: 0 })), [
    { type: 'delete_message', id: 0, message_id: id, message_type: 'stream', stream_id: denmark, topic: 'd' },
  ]);
  assert.deepEqual(await l.take('polonius'), []);
  assertError(await server.as('hamlet').get(`/messages/${id}`), 'Invalid message(s)');
  assertError(await del('hamlet', id), 'Invalid message(s)');
  assertError(await del('hamlet', 999999), 'Invalid message(s)');

  // Deleting a channel's first message moves its first_message_id on.
  assert.equal((await del('hamlet', first)).status, 200);
  const [update] = (await l.take('hamlet', 'stream')).filter((e) => e.property === 'first_message_id');
  assert.deepEqual([update.stream_id, update.value], [denmark, null]);
});

test('direct messages: the participants are told', async () => {
  const l = await Listeners.open(server, ['hamlet', 'cordelia', 'iago']);
  const id = (await server.as('hamlet').post('/messages', { type: 'private', to: [server.users.cordelia.id], content: 'oops' })).body.id;
  await l.clear();
  assertError(await del('cordelia', id), NO);
  assert.equal((await del('hamlet', id)).status, 200);
  for (const who of ['hamlet', 'cordelia'] as const) {
    assert.deepEqual((await l.take(who)).map((e) => ({ ...e, id: 0 })), [{ type: 'delete_message', id: 0, message_id: id, message_type: 'private' }]);
  }
  assert.deepEqual(await l.take('iago'), []);
});

test('others\' messages: administrators by default, and whoever the settings name', async () => {
  const id = await send('hamlet');
  assertError(await del('cordelia', id), NO);
  assertError(await del('shiva', id), NO);
  assert.equal((await del('iago', id)).status, 200);

  await setRealmSettings(server, { can_delete_any_message_group: 'role:moderators' });
  try {
    assert.equal((await del('shiva', await send('hamlet'))).status, 200);
  } finally {
    await setRealmSettings(server, { can_delete_any_message_group: undefined });
  }
  const moat = await channel('Moat', ['hamlet', 'cordelia'], { can_delete_any_message_group: only(['cordelia']) });
  assert.equal((await del('cordelia', await send('hamlet', 't', moat))).status, 200);
  assertError(await del('cordelia', await send('hamlet')), NO);
});

test('one\'s own messages: the organization\'s or the channel\'s setting, within the time limit', async () => {
  const tower = await channel('Tower', ['hamlet', 'cordelia'], { can_delete_own_message_group: only(['hamlet']) });
  await setRealmSettings(server, { can_delete_own_message_group: 'role:administrators' });
  try {
    assertError(await del('hamlet', await send('hamlet')), NO);
    const dm = (await server.as('hamlet').post('/messages', { type: 'private', to: [server.users.cordelia.id], content: 'x' })).body.id;
    assertError(await del('hamlet', dm), NO);
    assert.equal((await del('hamlet', await send('hamlet', 't', tower))).status, 200);
    assertError(await del('cordelia', await send('cordelia', 't', tower)), NO);
  } finally {
    await setRealmSettings(server, { can_delete_own_message_group: undefined });
  }

  const old = await send('hamlet');
  await ageMessages(server, [old], 700);
  assertError(await del('hamlet', old), 'The time limit for deleting this message has passed');
  await setRealmSettings(server, { message_content_delete_limit_seconds: null });
  try {
    assert.equal((await del('hamlet', old)).status, 200);
  } finally {
    await setRealmSettings(server, { message_content_delete_limit_seconds: undefined });
  }
  const older = await send('hamlet');
  await ageMessages(server, [older], 100_000);
  assert.equal((await del('iago', older)).status, 200, 'no time limit for those who may delete any message');
});

test('a bot\'s messages may be deleted by its owner', async () => {
  const bot = await withApp(server, async (app) => {
    const { doCreateUser } = await import('../src/actions/users.js');
    const { findRealmBySubdomain } = await import('../src/store/realms.js');
    const realm = (await findRealmBySubdomain(app.db, ''))!;
    return doCreateUser(app, realm, { email: 'hamletbot@zulip.example.com', fullName: 'Hamlet Bot', password: null, role: 400, isBot: true, botType: 1, botOwnerId: server.users.hamlet.id });
  });
  await server.as('iago').post('/users/me/subscriptions', { subscriptions: [{ name: 'Denmark' }], principals: [bot.id] });
  const client = new Client(server.url, { email: bot.email, apiKey: bot.apiKey });
  const id = (await client.post('/messages', { type: 'stream', to: 'Denmark', topic: 'bots', content: 'beep' })).body.id;
  assertError(await del('cordelia', id), NO);
  assert.equal((await del('hamlet', id)).status, 200);
});
