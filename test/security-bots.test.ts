// What a bot may do, and who may hold its secrets: incoming-webhook bots only send messages (refused everywhere
// else by the authentication layer); a bot's API key is seen and replaced only by those who administer it and
// whose role is not below the bot's; role and owner changes follow the reference server's rules.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { allRoutes } from '../src/routes/index.js';
import { fullPath } from '../src/http/route.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { assertError, assertSuccess, assertUnauthorized } from './helpers/assertions.js';
import { Client } from './helpers/client.js';
import { Listeners } from './helpers/events.js';
import { channelName, createChannel } from './helpers/messages.js';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server?.close());

// A bot created by `owner`, with the client that acts as it.
async function makeBot(owner: 'hamlet' | 'iago' | 'desdemona' | 'cordelia', shortName: string, params: Record<string, unknown> = {}) {
  const res = assertSuccess(await server.as(owner).post('/bots', { full_name: `Bot ${shortName}`, short_name: shortName, ...params }));
  const { bots } = assertSuccess(await server.as(owner).get('/bots'));
  const email = bots.find((b: { api_key: string }) => b.api_key === res.api_key).username as string;
  return { id: res.user_id as number, email, apiKey: res.api_key as string, client: new Client(server.url, { email, apiKey: res.api_key }) };
}

test('an incoming-webhook bot may send messages and nothing else: every other endpoint answers 401', async () => {
  const hook = await makeBot('hamlet', 'hook', { bot_type: 2 });
  const sent = assertSuccess(await hook.client.post('/messages', { type: 'private', to: [server.users.hamlet.id], content: 'from the hook' }));
  assert.ok(sent.id > 0);

  const refused: string[] = [];
  for (const r of allRoutes()) {
    if (r.auth !== 'user' && r.auth !== 'optional') continue; // those take no credentials
    if (r.allowIncomingWebhooks) continue; // POST /messages, and the incoming webhooks themselves
    const path = fullPath(r).replace(/\{\w+\*?\}/g, '1');
    const reply = await hook.client.request(r.method, path, {}, { root: true });
    if (r.method === 'HEAD' || r.method === 'OPTIONS') {
      if (reply.status !== 401) refused.push(`${r.method} ${path}: ${reply.status}`);
      continue;
    }
    try {
      assertUnauthorized(reply, 'This API is not available to incoming webhook bots.');
    } catch {
      refused.push(`${r.method} ${path}: ${reply.status} ${reply.text.slice(0, 120)}`);
    }
  }
  assert.deepEqual(refused, [], 'endpoints an incoming-webhook bot reached');
  // A generic bot of the same owner is not affected.
  const generic = await makeBot('hamlet', 'plain');
  assertSuccess(await generic.client.get('/users/me'));
});

const register = async (who: 'desdemona' | 'iago' | 'shiva' | 'hamlet' | 'cordelia' | 'polonius') =>
  assertSuccess(await server.as(who).post('/register', { fetch_event_types: ['realm_bot'] })).realm_bots as Record<string, any>[];
const entry = async (who: Parameters<typeof register>[0], botId: number) => (await register(who)).find((b) => b.user_id === botId) as Record<string, any>;

test("an administrator neither sees nor replaces the key or token of a bot whose role is owner", async () => {
  const l = await Listeners.open(server, ['desdemona', 'iago'], { event_types: ['realm_bot'] });
  const bot = await makeBot('desdemona', 'ownerhook', { bot_type: 3, payload_url: JSON.stringify('https://hooks.example.com/owner') });
  assertSuccess(await server.as('desdemona').patch(`/bots/${bot.id}`, { role: 100 }));
  // Administrators saw its key while its role was member: it is replaced.
  assertUnauthorized(await bot.client.get('/users/me'), 'Invalid API key');
  const own = await entry('desdemona', bot.id);
  assert.match(own.api_key, /^\S{32}$/, 'its owner sees the key');
  const token = own.services[0].token as string;
  assert.match(token, /^\S{32}$/);

  const seen = await entry('iago', bot.id);
  assert.ok(seen, 'administrators still list every bot');
  assert.equal(seen.api_key, '');
  assert.deepEqual(seen.services, [{ base_url: 'https://hooks.example.com/owner', interface: 1, token: '' }]);
  assertError(await server.as('iago').post(`/bots/${bot.id}/api_key/regenerate`), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');

  // Events: the new key and token reach the owner only.
  const { api_key: fresh } = assertSuccess(await server.as('desdemona').post(`/bots/${bot.id}/api_key/regenerate`));
  assertSuccess(await server.as('desdemona').patch(`/bots/${bot.id}`, { service_payload_url: JSON.stringify('https://hooks.example.com/v2') }));
  const iagoText = JSON.stringify(await l.take('iago'));
  for (const secret of [own.api_key, fresh, token]) assert.ok(!iagoText.includes(secret), `the administrator received ${secret}`);
  const desdemonaText = JSON.stringify(await l.take('desdemona'));
  assert.ok(desdemonaText.includes(fresh) && desdemonaText.includes(token));
  // Role changes to and from owner need an owner, as on the reference server.
  assertError(await server.as('iago').patch(`/bots/${bot.id}`, { role: 400 }), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
  const other = await makeBot('iago', 'iagobot');
  assertError(await server.as('iago').patch(`/bots/${other.id}`, { role: 100 }), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
});

test("a bot raised above its owner's role: the owner loses its key, which is replaced", async () => {
  const bot = await makeBot('hamlet', 'raised');
  assertSuccess(await bot.client.get('/users/me'));
  const l = await Listeners.open(server, ['hamlet', 'iago'], { event_types: ['realm_bot'] });
  assertSuccess(await server.as('iago').patch(`/bots/${bot.id}`, { role: 200 }));
  assertUnauthorized(await bot.client.get('/users/me'), 'Invalid API key');
  const { bots } = assertSuccess(await server.as('hamlet').get('/bots'));
  assert.equal(bots.find((b: { username: string }) => b.username === bot.email).api_key, '');
  assert.equal((await entry('hamlet', bot.id)).api_key, '');
  const key = (await entry('iago', bot.id)).api_key as string;
  assert.match(key, /^\S{32}$/);
  assert.notEqual(key, bot.apiKey);
  assert.ok(!JSON.stringify(await l.take('hamlet')).includes(key), 'the owner heard the new key');
  assert.ok(JSON.stringify(await l.take('iago')).includes(key));
  assertError(await server.as('hamlet').post(`/bots/${bot.id}/api_key/regenerate`), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
  // Handing such a bot to a member: the new owner's add event carries no key.
  await l.clear();
  assertSuccess(await server.as('iago').patch(`/bots/${bot.id}`, { bot_owner_id: server.users.cordelia.id }));
  assert.equal((await entry('cordelia', bot.id)).api_key, '');
  // Lowered again to the owner's role, the owner may see and replace it.
  assertSuccess(await server.as('iago').patch(`/bots/${bot.id}`, { role: 400 }));
  assert.equal((await entry('cordelia', bot.id)).api_key, key, 'lowering a role replaces no key');
  assertSuccess(await server.as('cordelia').post(`/bots/${bot.id}/api_key/regenerate`));
});

test("a bot given to a new owner leaves the private channels its new owner is not in (as on the reference server)", async () => {
  const bot = await makeBot('hamlet', 'mover');
  const secret = await createChannel(server, 'hamlet', ['hamlet'], { invite_only: true });
  const open = await createChannel(server, 'hamlet', ['hamlet']);
  const shared = await createChannel(server, 'hamlet', ['hamlet', 'cordelia'], { invite_only: true });
  for (const id of [secret, open, shared]) {
    assertSuccess(await server.as('hamlet').post('/users/me/subscriptions', { subscriptions: [{ name: await channelName(server, id) }], principals: [bot.id] }));
  }
  const l = await Listeners.open(server, ['hamlet'], { event_types: ['subscription'] });
  assertSuccess(await server.as('hamlet').patch(`/bots/${bot.id}`, { bot_owner_id: server.users.cordelia.id }));
  const subs = assertSuccess(await bot.client.get('/users/me/subscriptions')).subscriptions.map((s: { stream_id: number }) => s.stream_id).sort();
  assert.deepEqual(subs, [open, shared].sort());
  const peers = (await l.take('hamlet', 'subscription')).filter((e) => e.op === 'peer_remove');
  assert.deepEqual(peers.map((e) => [e.stream_ids, e.user_ids]), [[[secret], [bot.id]]]);
});
