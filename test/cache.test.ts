// The server answers credentials, permissions, channels and subscribers from memory (src/store/cache.ts). Every
// change must count from the very next request: changes made through the API, and changes made by another
// process over the same database (here the test process, as the command line does), which the server learns of
// only from the database.
import { test, after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { App } from '../src/app.js';
import { doChangeUser, doSetActive } from '../src/actions/user-roles.js';
import { doSubscribe } from '../src/actions/subscriptions.js';
import { randomToken } from '../src/lib/secrets.js';
import { findRealmBySubdomain, updateRealm, type Realm } from '../src/store/realms.js';
import { findStream, updateStream } from '../src/store/streams.js';
import { findUser, ROLE, updateUser, type User } from '../src/store/users.js';
import { Client } from './helpers/client.js';
import { Listeners } from './helpers/events.js';
import { createChannel, unique } from './helpers/messages.js';
import { startTestServer, type TestServer } from './helpers/server.js';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

// Runs `fn` in another process's view of the database, with the organization and its owner loaded there.
function elsewhere<T>(fn: (app: App, realm: Realm, owner: User) => Promise<T>): Promise<T> {
  return server.withApp(async (app) => {
    const realm = (await findRealmBySubdomain(app.db, ''))!;
    return fn(app, realm, (await findUser(app.db, realm.id, server.users.desdemona.id))!);
  });
}

async function newMember(): Promise<{ id: number; client: (key?: string, email?: string) => Client; email: string; apiKey: string }> {
  const email = `${unique('member').replace(/\W/g, '')}@zulip.example.com`;
  const res = await server.as('iago').post('/users', { email, password: 'secret123', full_name: 'Cache Test' });
  assert.equal(res.status, 200, res.text);
  const apiKey = await elsewhere(async (app, realm) => (await findUser(app.db, realm.id, res.body.user_id))!.apiKey);
  return { id: res.body.user_id, email, apiKey, client: (key = apiKey, e = email) => new Client(server.url, { email: e, apiKey: key }) };
}

describe('credentials', () => {
  test('a user deactivated by another process is refused on the next request, and let in again when reactivated', async () => {
    const u = await newMember();
    assert.equal((await u.client().get('/users/me')).status, 200);
    await elsewhere((app, realm, owner) => doSetActive(app, realm, owner, u.id, false));
    const refused = await u.client().get('/users/me');
    assert.deepEqual([refused.status, refused.body.code], [401, 'USER_DEACTIVATED']);
    await elsewhere((app, realm, owner) => doSetActive(app, realm, owner, u.id, true));
    assert.equal((await u.client().get('/users/me')).status, 200);
  });

  test('an API key changed by another process: the old key is refused at once, the new one works', async () => {
    const u = await newMember();
    assert.equal((await u.client().get('/users/me')).status, 200);
    const fresh = randomToken(32);
    // A bare statement outside any transaction, as a maintenance script might run.
    await server.withApp((app) => app.db.updateTable('users').set({ api_key: fresh }).where('id', '=', u.id).execute());
    const old = await u.client().get('/users/me');
    assert.deepEqual([old.status, old.body.msg], [401, 'Invalid API key']);
    assert.equal((await u.client(fresh).get('/users/me')).status, 200);
  });

  test('an e-mail changed by another process: the old address no longer authenticates, the new one does', async () => {
    const u = await newMember();
    assert.equal((await u.client().get('/users/me')).status, 200);
    const email = `${unique('moved').replace(/\W/g, '')}@zulip.example.com`;
    await server.withApp((app) => updateUser(app.db, u.id, { email }));
    assert.equal((await u.client().get('/users/me')).status, 401);
    const moved = await u.client(u.apiKey, email).get('/users/me');
    assert.equal(moved.status, 200, moved.text);
    assert.equal(moved.body.email, email);
  });

  test('an organization deactivated by another process refuses its users at once', async () => {
    assert.equal((await server.as('lear').get('/users/me')).status, 200);
    const learRealm = await server.withApp(async (app) => (await findRealmBySubdomain(app.db, 'lear'))!.id);
    await server.withApp((app) => updateRealm(app.db, learRealm, { deactivated: true }));
    try {
      const refused = await server.as('lear').get('/users/me');
      assert.deepEqual([refused.status, refused.body.code], [401, 'REALM_DEACTIVATED']);
    } finally {
      await server.withApp((app) => updateRealm(app.db, learRealm, { deactivated: false }));
    }
    assert.equal((await server.as('lear').get('/users/me')).status, 200);
  });
});

describe('roles and groups', () => {
  test('a role changed through the API counts on the next request', async () => {
    const u = await newMember();
    const create = (c: Client) => c.post('/users', { email: `${unique('x').replace(/\W/g, '')}@zulip.example.com`, password: 'secret123', full_name: 'Xavier' });
    assert.equal((await create(u.client())).body.msg, 'Must be an organization administrator');
    assert.equal((await server.as('desdemona').patch(`/users/${u.id}`, { role: ROLE.administrator })).status, 200);
    assert.equal((await create(u.client())).status, 200);
    assert.equal((await server.as('desdemona').patch(`/users/${u.id}`, { role: ROLE.member })).status, 200);
    assert.equal((await create(u.client())).body.msg, 'Must be an organization administrator');
  });

  test('a role changed by another process: the role and the role groups count on the next request', async () => {
    const u = await newMember();
    const createChannelAs = (c: Client) => c.post('/users/me/subscriptions', { subscriptions: [{ name: unique('Guest made') }] });
    assert.equal((await createChannelAs(u.client())).status, 200);
    await elsewhere((app, realm, owner) => doChangeUser(app, realm, owner, u.id, { role: ROLE.guest }));
    assert.equal((await u.client().get('/users/me')).body.role, ROLE.guest);
    // Guests may not subscribe at all, let alone create channels.
    assert.equal((await createChannelAs(u.client())).body.msg, 'Not allowed for guest users');
    await elsewhere((app, realm, owner) => doChangeUser(app, realm, owner, u.id, { role: ROLE.member }));
    assert.equal((await createChannelAs(u.client())).status, 200);
  });
});

describe('channels and subscribers', () => {
  test('a subscriber added through the API receives the next message', async () => {
    const channel = await createChannel(server, 'iago', ['iago', 'hamlet']);
    const send = (n: number) => server.as('hamlet').post('/messages', { type: 'stream', to: channel, topic: 'cache', content: `message ${n}` });
    assert.equal((await send(1)).status, 200);
    const l = await Listeners.open(server, ['cordelia'], { event_types: ['message'] });
    const name = (await server.as('iago').get(`/streams/${channel}`)).body.stream.name;
    assert.equal((await server.as('iago').post('/users/me/subscriptions', { subscriptions: [{ name }], principals: [server.users.cordelia.id] })).status, 200);
    const sent = await send(2);
    // Cordelia also gets the Notification Bot's direct message telling her she was subscribed.
    const got = (await l.take('cordelia', 'message')).filter((e) => e.message.type === 'stream');
    assert.deepEqual(got.map((e) => e.message.id), [sent.body.id]);
  });

  test('a subscriber added by another process receives the next message; one removed does not', async () => {
    const channel = await createChannel(server, 'iago', ['iago', 'hamlet']);
    const send = (n: number) => server.as('hamlet').post('/messages', { type: 'stream', to: channel, topic: 'cache', content: `message ${n}` });
    assert.equal((await send(1)).status, 200);
    const l = await Listeners.open(server, ['shiva'], { event_types: ['message'] });
    await elsewhere(async (app, realm, owner) => {
      const stream = (await findStream(app.db, realm.id, channel))!;
      await doSubscribe(app, realm, owner, {
        subscriptions: [{ name: stream.name }], principals: [server.users.shiva.id], authorizationErrorsFatal: true,
        isDefaultStream: false, inviteOnly: false, isWebPublic: false, topicsPolicy: 'inherit', groupSettings: {},
        announce: false, sendNewSubscriptionMessages: false,
      }, server.url);
    });
    const second = await send(2);
    assert.deepEqual((await l.take('shiva', 'message')).map((e) => e.message.id), [second.body.id]);
    await server.withApp((app) => app.db.updateTable('subscriptions').set({ active: 0 }).where('user_id', '=', server.users.shiva.id).where('stream_id', '=', channel).execute());
    assert.equal((await send(3)).status, 200);
    assert.deepEqual(await l.take('shiva', 'message'), []);
  });

  test('a channel renamed by another process is found by its new name only', async () => {
    const channel = await createChannel(server, 'iago', ['iago', 'hamlet']);
    const old = (await server.as('iago').get(`/streams/${channel}`)).body.stream.name;
    const send = (to: string) => server.as('hamlet').post('/messages', { type: 'stream', to, topic: 'cache', content: 'renamed?' });
    assert.equal((await send(old)).status, 200);
    assert.equal((await send(old)).status, 200); // the first message changed the channel (first_message_id)
    const renamed = unique('Renamed');
    await server.withApp((app) => updateStream(app.db, channel, { name: renamed }));
    assert.equal((await send(old)).body.code, 'STREAM_DOES_NOT_EXIST');
    assert.equal((await send(renamed)).status, 200);
  });
});
