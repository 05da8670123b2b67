// First start in the browser: on an empty database the server prints where to go, and GET / offers to create the
// organization and its owner; the form (same-site only) creates both and lands the owner in the web app, logged
// in. Once an organization exists the page is gone.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from './helpers/client.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { assertSuccess } from './helpers/assertions.js';
import { form, SessionClient, setCookies } from './helpers/session.js';

let server: TestServer;
before(async () => {
  server = await startTestServer({ seed: false });
});
after(async () => {
  await server.close();
});

const at = (path: string) => new URL(path, server.url);
const owner = { realm_name: 'Elsinore', full_name: 'Horatio', email: 'horatio@elsinore.example', password: 'a truant disposition' };

test('an empty server: the page to create the organization, then the owner logged in, then no such page', async () => {
  assert.match(server.stdout, /to create your organization/);
  assert.doesNotMatch(server.stdout, /Created the organization/);
  const offer = await form('GET', at('/'));
  assert.equal(offer.status, 200, offer.text);
  assert.match(offer.text, /<form method="post" action="\/new\/"/);
  assert.match(offer.headers['content-security-policy'] as string, /default-src 'none'.*form-action 'self'/);
  assert.equal(offer.headers['x-frame-options'], 'DENY');

  const foreign = await form('POST', at('/new/'), owner, { origin: 'https://evil.example' });
  assert.equal(foreign.status, 403);
  const weak = await form('POST', at('/new/'), { ...owner, password: 'x' });
  assert.equal(weak.status, 400);
  assert.match(weak.text, /The password is too weak/);
  assert.match(weak.text, /value="horatio@elsinore.example"/);
  assert.equal((await form('GET', at('/'))).status, 200, 'still empty');

  const made = await form('POST', at('/new/'), owner);
  assert.equal(made.status, 303, made.text);
  assert.equal(made.headers.location, '/');
  const cookies = setCookies(made);
  const browser = new SessionClient(server.url, cookies.get('sessionid')!.value, cookies.get('csrftoken')!.value);
  const me = assertSuccess(await browser.get('/users/me'));
  assert.deepEqual([me.email, me.full_name, me.role], [owner.email, 'Horatio', 100]);
  const realm = assertSuccess(await browser.get('/server_settings'));
  assert.equal(realm.realm_name, 'Elsinore');

  // The API works with the password too.
  const apiKey = assertSuccess(await server.anon().post('/fetch_api_key', { username: owner.email, password: owner.password })).api_key;
  assertSuccess(await new Client(server.url, { email: owner.email, apiKey }).get('/users/me'));

  // Now the organization exists: the front page is the app's (the login page without a session), and no second
  // organization can be made this way.
  const front = await form('GET', at('/'));
  assert.equal(front.status, 302);
  assert.equal(front.headers.location, '/login/');
  const again = await form('POST', at('/new/'), { ...owner, email: 'intruder@elsinore.example' });
  assert.equal(again.status, 403, again.text);
  assert.equal((await server.anon().post('/fetch_api_key', { username: 'intruder@elsinore.example', password: owner.password })).status, 401);
  assert.equal((await form('GET', at('/new/'))).status, 302);
});
