// E-mail visibility (feature level 163): delivery_email per viewer, the stand-in API e-mail while an address is
// not public, realm_user delivery_email / new_email updates to exactly the users whose view changes.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type SeedName, type TestServer } from './helpers/server.js';
import { assertError, assertSuccess } from './helpers/assertions.js';
import { Listeners } from './helpers/events.js';
import { Client, type ParamValue } from './helpers/client.js';

let server: TestServer;
before(async () => {
  server = await startTestServer({ env: { PARLANCE_LOG_LEVEL: 'info' } });
});
after(() => server?.close());

const EVERYONE: SeedName[] = ['desdemona', 'iago', 'shiva', 'hamlet', 'cordelia', 'polonius', 'bot'];
const fake = (name: SeedName) => `user${server.users[name].id}@parlance.invalid`;
const seenBy = async (viewer: SeedName, target: SeedName, params: Record<string, ParamValue> = {}) =>
  assertSuccess(await server.as(viewer).get(`/users/${server.users[target].id}`, params)).user;

// What each listener was told about `target`: its realm_user person updates.
async function told(l: Listeners, names: SeedName[], target: SeedName) {
  await new Promise((r) => setTimeout(r, 100));
  const out: Partial<Record<SeedName, Record<string, unknown>[]>> = {};
  for (const name of names) {
    const people = (await l.take(name, 'realm_user')).map((e) => e.person).filter((p) => p.user_id === server.users[target].id);
    out[name] = people.map(({ user_id: _u, ...rest }) => rest);
  }
  return out;
}

test('everyone sees public addresses; the API e-mail is the address', async () => {
  const u = await seenBy('polonius', 'hamlet');
  assert.deepEqual([u.email, u.delivery_email], [server.users.hamlet.email, server.users.hamlet.email]);
});

test('hiding an address from all but administrators', async () => {
  const l = await Listeners.open(server, EVERYONE, { event_types: ['realm_user'] });
  assertSuccess(await server.as('hamlet').patch('/settings', { email_address_visibility: 3 }));
  const news = await told(l, EVERYONE, 'hamlet');
  for (const name of ['desdemona', 'iago', 'hamlet'] as SeedName[]) assert.deepEqual(news[name], [{ new_email: fake('hamlet') }], name);
  for (const name of ['shiva', 'cordelia', 'polonius', 'bot'] as SeedName[]) {
    assert.deepEqual(news[name], [{ delivery_email: null }, { new_email: fake('hamlet') }], name);
  }

  for (const viewer of ['cordelia', 'shiva', 'polonius'] as SeedName[]) {
    const u = await seenBy(viewer, 'hamlet');
    assert.deepEqual([u.email, u.delivery_email], [fake('hamlet'), null], viewer);
    // The avatar is drawn by the server from the user's id, never derived from the address.
    assert.match(u.avatar_url, /^\/user_avatars\/\d+\/default\//, viewer);
  }
  for (const viewer of ['iago', 'desdemona', 'hamlet'] as SeedName[]) {
    const u = await seenBy(viewer, 'hamlet');
    assert.deepEqual([u.email, u.delivery_email], [fake('hamlet'), server.users.hamlet.email], viewer);
    assert.match(u.avatar_url, /^\/user_avatars\/\d+\/default\//, viewer);
  }
  const me = assertSuccess(await server.as('hamlet').get('/users/me'));
  assert.deepEqual([me.email, me.delivery_email], [fake('hamlet'), server.users.hamlet.email]);
  const reg = assertSuccess(await server.as('hamlet').post('/register', { fetch_event_types: ['realm_user'] }));
  assert.deepEqual([reg.email, reg.delivery_email], [fake('hamlet'), server.users.hamlet.email]);
  const theirs = assertSuccess(await server.as('cordelia').post('/register', { fetch_event_types: ['realm_user'] }));
  const listed = theirs.realm_users.find((p: { user_id: number }) => p.user_id === server.users.hamlet.id);
  assert.deepEqual([listed.email, listed.delivery_email], [fake('hamlet'), null]);

  // The stand-in address finds the user; the hidden one only for those who may see it.
  assert.equal(assertSuccess(await server.as('cordelia').get(`/users/${fake('hamlet')}`)).user.user_id, server.users.hamlet.id);
  assertError(await server.as('cordelia').get(`/users/${server.users.hamlet.email}`), 400, 'BAD_REQUEST', 'No such user');
  assert.equal(assertSuccess(await server.as('iago').get(`/users/${server.users.hamlet.email}`)).user.user_id, server.users.hamlet.id);
  // It works wherever API e-mails do; the real address still logs in.
  const dm = assertSuccess(await server.as('cordelia').post('/messages', { type: 'direct', to: [fake('hamlet')], content: 'hello' }));
  assert.ok(dm.id);
  assertSuccess(await server.anon().post('/fetch_api_key', { username: server.users.hamlet.email, password: server.users.hamlet.password }));
});

test('widening and narrowing between restricted levels tells only those whose view changes', async () => {
  const l = await Listeners.open(server, EVERYONE, { event_types: ['realm_user'] });
  assertSuccess(await server.as('hamlet').patch('/settings', { email_address_visibility: 5 }));
  let news = await told(l, EVERYONE, 'hamlet');
  assert.deepEqual(news.shiva, [{ delivery_email: server.users.hamlet.email }]);
  for (const name of ['desdemona', 'iago', 'hamlet', 'cordelia', 'polonius', 'bot'] as SeedName[]) assert.deepEqual(news[name], [], name);
  assert.equal((await seenBy('shiva', 'hamlet')).delivery_email, server.users.hamlet.email);

  assertSuccess(await server.as('hamlet').patch('/settings', { email_address_visibility: 2 }));
  news = await told(l, EVERYONE, 'hamlet');
  for (const name of ['cordelia', 'bot'] as SeedName[]) assert.deepEqual(news[name], [{ delivery_email: server.users.hamlet.email }], name);
  for (const name of ['desdemona', 'iago', 'shiva', 'hamlet', 'polonius'] as SeedName[]) assert.deepEqual(news[name], [], name);
  assert.equal((await seenBy('polonius', 'hamlet')).delivery_email, null, 'guests are not members');

  assertSuccess(await server.as('hamlet').patch('/settings', { email_address_visibility: 4 }));
  news = await told(l, EVERYONE, 'hamlet');
  for (const name of ['desdemona', 'iago', 'shiva', 'cordelia', 'bot'] as SeedName[]) assert.deepEqual(news[name], [{ delivery_email: null }], name);
  assert.deepEqual(news.hamlet, []);
  assert.equal((await seenBy('desdemona', 'hamlet')).delivery_email, null, 'nobody means owners too');

  assertSuccess(await server.as('hamlet').patch('/settings', { email_address_visibility: 1 }));
  news = await told(l, EVERYONE, 'hamlet');
  assert.deepEqual(news.hamlet, [{ new_email: server.users.hamlet.email }]);
  for (const name of ['desdemona', 'iago', 'shiva', 'cordelia', 'polonius', 'bot'] as SeedName[]) {
    assert.deepEqual(news[name], [{ delivery_email: server.users.hamlet.email }, { new_email: server.users.hamlet.email }], name);
  }
  const u = await seenBy('polonius', 'hamlet');
  assert.deepEqual([u.email, u.delivery_email], [server.users.hamlet.email, server.users.hamlet.email]);
});

test('administrators setting visibility in bulk; a new role shows or hides addresses', async () => {
  const l = await Listeners.open(server, ['cordelia', 'iago'], { event_types: ['realm_user'] });
  assertSuccess(await server.as('iago').patch('/settings', { email_address_visibility: 3, target_users: { user_ids: [server.users.shiva.id] } }));
  assert.deepEqual((await told(l, ['cordelia'], 'shiva')).cordelia, [{ delivery_email: null }, { new_email: fake('shiva') }]);
  assert.equal((await seenBy('cordelia', 'shiva')).delivery_email, null);

  assertSuccess(await server.as('iago').patch(`/users/${server.users.cordelia.id}`, { role: 200 }));
  const news = await told(l, ['cordelia'], 'shiva');
  assert.deepEqual(news.cordelia, [{ delivery_email: server.users.shiva.email }]);
  assert.equal((await seenBy('cordelia', 'shiva')).delivery_email, server.users.shiva.email);
  assertSuccess(await server.as('iago').patch(`/users/${server.users.cordelia.id}`, { role: 400 }));
  assert.deepEqual((await told(l, ['cordelia'], 'shiva')).cordelia, [{ delivery_email: null }]);
  assertSuccess(await server.as('shiva').patch('/settings', { email_address_visibility: 1 }));
});

test('a confirmed new address goes to those who may see it; the API e-mail follows only a public one', async () => {
  const created = assertSuccess(await server.as('iago').post('/users', { email: 'mover@zulip.example.com', password: 'secret123', full_name: 'Mover' }));
  const { api_key } = assertSuccess(await server.anon().post('/fetch_api_key', { username: 'mover@zulip.example.com', password: 'secret123' }));
  const mover = new Client(server.url, { email: 'mover@zulip.example.com', apiKey: api_key });
  assertSuccess(await mover.patch('/settings', { email_address_visibility: 3 }));
  const l = await Listeners.open(server, ['cordelia', 'iago'], { event_types: ['realm_user'] });
  const confirm = async (email: string) => {
    assertSuccess(await new Client(server.url, { email: 'mover@zulip.example.com', apiKey: api_key }).patch('/settings', { email }));
    await new Promise((r) => setTimeout(r, 200));
    const paths = [...server.stdout.matchAll(/"path":"(\/accounts\/confirm_new_email\/[A-Za-z0-9]+)"/g)];
    assert.equal((await server.anon().get(paths.at(-1)![1], {}, { root: true })).status, 200);
  };
  await confirm('moved@zulip.example.com');
  await new Promise((r) => setTimeout(r, 100));
  const person = async (who: SeedName) => (await l.take(who, 'realm_user')).map((e) => e.person).filter((p) => p.user_id === created.user_id);
  assert.deepEqual(await person('iago'), [{ user_id: created.user_id, delivery_email: 'moved@zulip.example.com' }]);
  assert.deepEqual(await person('cordelia'), [], 'neither the hidden address nor the unchanged API e-mail');
  const moved = new Client(server.url, { email: 'moved@zulip.example.com', apiKey: api_key });
  assertSuccess(await moved.patch('/settings', { email_address_visibility: 1 }));
  await l.clear();
  assert.ok(mover);
});

test('a new user whose organization hides addresses by default gets a stand-in API e-mail', async () => {
  assertSuccess(await server.as('iago').patch('/realm/user_settings_defaults', { email_address_visibility: 4 }));
  const l = await Listeners.open(server, ['iago', 'polonius'], { event_types: ['realm_user'] });
  const created = assertSuccess(await server.as('iago').post('/users', { email: 'quiet@zulip.example.com', password: 'secret123', full_name: 'Quiet' }));
  await new Promise((r) => setTimeout(r, 100));
  for (const who of ['iago', 'polonius'] as SeedName[]) {
    const [add] = (await l.take(who, 'realm_user')).filter((e) => e.op === 'add');
    assert.deepEqual([add.person.email, add.person.delivery_email], [`user${created.user_id}@parlance.invalid`, null], who);
    assert.equal(typeof add.person.avatar_url, 'string', 'an avatar clients cannot compute is sent');
  }
  const { api_key } = assertSuccess(await server.anon().post('/fetch_api_key', { username: 'quiet@zulip.example.com', password: 'secret123' }));
  const me = assertSuccess(await new Client(server.url, { email: 'quiet@zulip.example.com', apiKey: api_key }).get('/users/me'));
  assert.deepEqual([me.email, me.delivery_email], [`user${created.user_id}@parlance.invalid`, 'quiet@zulip.example.com']);
  assertSuccess(await server.as('iago').patch('/realm/user_settings_defaults', { email_address_visibility: 1 }));
});
