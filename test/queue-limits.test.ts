// Event queues that outlive their owner's rights: the "demoted user" column (a queue registered with rights of a
// role stops using them when the role goes), deactivation (a user's or bot's queues go at once and a parked poll
// is answered USER_DEACTIVATED), and the cap on one user's live queues (50), which holds across processes.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, PASSWORD, type TestServer } from './helpers/server.js';
import { assertError, assertSuccess } from './helpers/assertions.js';
import { Client, type Reply } from './helpers/client.js';
import { channelName, createChannel, sendToChannel, unique } from './helpers/messages.js';
import { withDb } from './helpers/direct-db.js';
import { eventually } from './helpers/events.js';

let server: TestServer;
let peer: TestServer;
let channel: number; // public, cordelia its only subscriber

before(async () => {
  server = await startTestServer();
  peer = await server.startPeer();
  channel = await createChannel(server, 'iago', ['cordelia']);
});
after(async () => {
  await peer?.stop('SIGKILL');
  await server?.close();
});

const CAP = 50;

async function newUser(role?: number): Promise<{ id: number; client: Client; email: string }> {
  const email = `${unique('user').replace(/\W/g, '')}@zulip.example.com`;
  const id = assertSuccess(await server.as('iago').post('/users', { email, password: PASSWORD, full_name: unique('User') })).user_id;
  if (role !== undefined) assertSuccess(await server.as('desdemona').patch(`/users/${id}`, { role }));
  const apiKey = assertSuccess(await server.anon().post('/fetch_api_key', { username: email, password: PASSWORD })).api_key;
  return { id, email, client: new Client(server.url, { email, apiKey }) };
}

const register = async (c: Client, params: Record<string, unknown> = {}) =>
  assertSuccess(await c.post('/register', { event_types: ['message'], fetch_event_types: [], ...params })).queue_id as string;
const poll = (c: Client, queue: string) => c.get('/events', { queue_id: queue, last_event_id: -1, dont_block: true });
const messages = async (c: Client, queue: string) => (assertSuccess(await poll(c, queue)).events as { type: string; message?: { content: string } }[]).filter((e) => e.type === 'message').map((e) => e.message!.content);
async function makeBot(owner: Client): Promise<{ id: number; client: Client }> {
  const made = assertSuccess(await owner.post('/bots', { full_name: unique('Bot'), short_name: unique('bot').replace(/\W/g, ''), bot_type: 1 }));
  const email = assertSuccess(await server.as('iago').get(`/users/${made.user_id}`)).user.email;
  return { id: made.user_id, client: new Client(server.url, { email, apiKey: made.api_key }) };
}
const queueRows = (userId: number) => withDb(server, async (db) => (await db.selectFrom('event_queues').select('id').where('user_id', '=', userId).execute()).map((r) => r.id));

test('demoted user: a queue registered with all_public_streams or a narrow stops receiving public channels once its owner is a guest', async () => {
  const demo = await newUser(200); // an administrator
  const name = await channelName(server, channel);
  const all = await register(demo.client, { all_public_streams: true });
  const narrowed = await register(demo.client, { narrow: [['channel', name]] });
  const onPeer = await register(new Client(peer.url, demo.client.auth), { all_public_streams: true });
  await sendToChannel(server, 'cordelia', channel, 'before', 'while an administrator');
  assert.deepEqual(await messages(demo.client, all), ['while an administrator']);
  assert.deepEqual(await messages(demo.client, narrowed), ['while an administrator']);
  const peerClient = new Client(peer.url, demo.client.auth);
  await eventually(async () => ((await messages(peerClient, onPeer)).length ? true : undefined)); // it reads the log
  assertSuccess(await demo.client.get('/invites'));

  assertSuccess(await server.as('desdemona').patch(`/users/${demo.id}`, { role: 600 }));
  await sendToChannel(server, 'cordelia', channel, 'after', 'once a guest');
  assertSuccess(await server.as('iago').post('/invites/multiuse', { invite_as: 400 }));
  const later = await register(demo.client, { all_public_streams: true, event_types: ['message', 'invites_changed'] });
  await sendToChannel(server, 'cordelia', channel, 'after', 'still a guest');
  assert.deepEqual(await messages(demo.client, all), ['while an administrator']);
  assert.deepEqual(await messages(demo.client, narrowed), ['while an administrator']);
  assert.deepEqual(await messages(demo.client, later), []);
  // The other process's copy learns it from the log, and so would one that takes the queue up from its row.
  await new Promise((r) => setTimeout(r, 500)); // two reads of the log
  assert.deepEqual(await messages(peerClient, onPeer), ['while an administrator']);
  const options = await withDb(server, async (db) => (await db.selectFrom('event_queues').select('options').where('user_id', '=', demo.id).execute()).map((r) => JSON.parse(r.options).readsPublicChannels));
  assert.deepEqual(options, [false, false, false, false]);
  // Rights of the old role are gone with it.
  assertError(await demo.client.get('/invites'), 400, 'BAD_REQUEST', 'Not allowed for guest users');
  assertError(await demo.client.post('/users', { email: 'x@zulip.example.com', password: PASSWORD, full_name: 'X' }), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');

  // Promoted again, the same queues read public channels again.
  assertSuccess(await server.as('desdemona').patch(`/users/${demo.id}`, { role: 400 }));
  await sendToChannel(server, 'cordelia', channel, 'after', 'a member again');
  assert.deepEqual(await messages(demo.client, all), ['while an administrator', 'a member again']);
});

// Answers within `ms` or says it did not.
const within = (p: Promise<Reply>, ms: number) => Promise.race([p, new Promise<null>((r) => setTimeout(() => r(null), ms))]);

test("deactivating a user deletes their queues at once; a parked poll is answered USER_DEACTIVATED", async () => {
  const leaving = await newUser();
  const parkedQueue = await register(leaving.client);
  const peerQueue = await register(new Client(peer.url, leaving.client.auth));
  await register(leaving.client, { event_types: null });
  assert.equal((await queueRows(leaving.id)).length, 3);
  const parked = leaving.client.get('/events', { queue_id: parkedQueue, last_event_id: -1 });
  const parkedOnPeer = new Client(peer.url, leaving.client.auth).get('/events', { queue_id: peerQueue, last_event_id: -1 });
  await new Promise((r) => setTimeout(r, 200));
  assertSuccess(await server.as('iago').delete(`/users/${leaving.id}`));
  for (const reply of [await within(parked, 5000), await within(parkedOnPeer, 5000)]) {
    assert.ok(reply, 'the parked poll was answered');
    assertError(reply, 401, 'USER_DEACTIVATED', 'Account is deactivated');
  }
  assert.deepEqual(await queueRows(leaving.id), []);
});

test("deactivating a bot (or its owner) deletes the bot's queues", async () => {
  const owner = await newUser();
  const made = await makeBot(owner.client);
  const q = await register(made.client);
  const parked = made.client.get('/events', { queue_id: q, last_event_id: -1 });
  await new Promise((r) => setTimeout(r, 200));
  assertSuccess(await owner.client.delete(`/bots/${made.id}`));
  const reply = await within(parked, 5000);
  assert.ok(reply, 'the parked poll was answered');
  assertError(reply, 401, 'USER_DEACTIVATED', 'Account is deactivated');
  assert.deepEqual(await queueRows(made.id), []);

  const second = await makeBot(owner.client);
  await register(second.client);
  assertSuccess(await server.as('iago').delete(`/users/${owner.id}`));
  assert.deepEqual(await queueRows(second.id), []);
});

test(`one user keeps at most ${CAP} live queues, over both processes; the least recently polled go first`, async () => {
  const u = await newUser();
  const peerClient = new Client(peer.url, u.client.auth);
  const first = await register(u.client);
  const early: string[] = [];
  for (let i = 0; i < CAP - 1; i++) early.push(await register(i % 2 ? peerClient : u.client));
  await new Promise((r) => setTimeout(r, 1100)); // polls now come a second after the registrations
  assertSuccess(await poll(u.client, first));
  const late: string[] = [];
  for (let i = 0; i < 20; i++) late.push(await register(i % 2 ? peerClient : u.client));
  const rows = new Set(await queueRows(u.id));
  assert.equal(rows.size, CAP);
  assert.ok(rows.has(first), 'the queue polled recently stays');
  for (const q of late) assert.ok(rows.has(q), 'new queues stay');
  const gone = early.filter((q) => !rows.has(q));
  assert.equal(gone.length, 20);
  // A collected queue answers as an unknown one, on either process (the other drops its copy when it next
  // compares its queues with the rows, within seconds).
  for (const [client, q] of [[u.client, gone[0]], [peerClient, gone[1]]] as const) {
    const reply = await eventually(async () => {
      const r = await poll(client, q);
      return r.status === 400 ? r : undefined;
    });
    assertError(reply, 400, 'BAD_EVENT_QUEUE_ID', `Bad event queue ID: ${q}`);
  }
  assertSuccess(await poll(peerClient, late[0]));
});
