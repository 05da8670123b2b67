// The organization's icon uploaded and removed by administrators (POST/DELETE /realm/icon), and a person or bot
// replacing their own API key (POST /users/me/api_key/regenerate): the answers, errors and events of the
// reference's endpoints, and what the new icon and key then do.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { startTestServer, type TestServer } from './helpers/server.js';
import { Client } from './helpers/client.js';
import { Listeners } from './helpers/events.js';
import { assertError, assertSuccess } from './helpers/assertions.js';
import { validateEvent } from './helpers/openapi-events.js';
import { multipart, postMultipart } from './helpers/uploads.js';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

const png = (color: string, size = 64) => sharp({ create: { width: size, height: size, channels: 3, background: color } }).png().toBuffer();

async function pixel(url: string): Promise<[number, number, number, number]> {
  const res = await fetch(new URL(url, server.url));
  assert.equal(res.status, 200, url);
  const img = sharp(Buffer.from(await res.arrayBuffer()));
  const { width } = await img.metadata();
  const { data } = await img.raw().toBuffer({ resolveWithObject: true });
  return [width!, data[0], data[1], data[2]];
}

test('an administrator uploads the organization icon and removes it; everyone is told; others may not', async () => {
  const before = assertSuccess(await server.as('hamlet').post('/register', { fetch_event_types: ['realm'] }));
  assert.match(before.realm_icon_url, /\/realm\/icon\.png\?version=1$/);
  assert.equal(before.realm_icon_source, 'G');
  const l = await Listeners.open(server, ['hamlet', 'iago']);

  const icon = await multipart([{ name: 'icon.png', data: await png('#ff0000'), type: 'image/png' }]);
  const up = assertSuccess(await postMultipart(server, 'iago', '/api/v1/realm/icon', icon));
  assert.match(up.icon_url, /\/realm\/icon\.png\?version=2$/);
  assert.deepEqual(await pixel(up.icon_url), [100, 255, 0, 0], 'the upload, at 100 pixels');
  assert.deepEqual(await pixel(up.icon_url.replace('icon.png', 'icon-medium.png')), [500, 255, 0, 0]);
  for (const who of ['hamlet', 'iago'] as const) {
    const [event] = await l.take(who, 'realm');
    assert.deepEqual(event && { op: event.op, property: event.property, data: event.data }, { op: 'update_dict', property: 'icon', data: { icon_url: up.icon_url, icon_source: 'U' } });
    assert.deepEqual(validateEvent(event), []);
  }
  const after = assertSuccess(await server.as('hamlet').post('/register', { fetch_event_types: ['realm'] }));
  assert.deepEqual([after.realm_icon_url, after.realm_icon_source], [up.icon_url, 'U']);
  const settings = assertSuccess(await server.anon().get('/server_settings'));
  assert.ok(settings.realm_icon.endsWith(up.icon_url), settings.realm_icon);

  // Refusals: not an administrator, not exactly one file, not an image.
  assertError(await postMultipart(server, 'shiva', '/api/v1/realm/icon', icon), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
  assertError(await server.as('hamlet').delete('/realm/icon'), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
  const two = await multipart([{ name: 'a.png', data: await png('#00ff00'), type: 'image/png' }, { name: 'b.png', data: await png('#0000ff'), type: 'image/png' }]);
  assertError(await postMultipart(server, 'iago', '/api/v1/realm/icon', two), 400, 'BAD_REQUEST', 'You must upload exactly one icon.');
  const notImage = await multipart([{ name: 'icon.png', data: Buffer.from('not an image at all'), type: 'image/png' }]);
  assertError(await postMultipart(server, 'iago', '/api/v1/realm/icon', notImage), 400, 'BAD_IMAGE', 'Could not decode image; did you upload an image file?');
  assert.deepEqual(await l.take('hamlet', 'realm'), [], 'a refused change tells nobody');

  const removed = assertSuccess(await server.as('desdemona').delete('/realm/icon'));
  assert.match(removed.icon_url, /\/realm\/icon\.png\?version=3$/);
  const [width, r, g, b] = await pixel(removed.icon_url);
  assert.equal(width, 100);
  assert.notDeepEqual([r, g, b], [255, 0, 0], 'drawn again, not the upload');
  const [event] = await l.take('hamlet', 'realm');
  assert.deepEqual(event.data, { icon_url: removed.icon_url, icon_source: 'G' });
});

test('a person replaces their own API key: the old one stops working at once', async () => {
  const old = server.users.cordelia.apiKey;
  const { api_key: fresh } = assertSuccess(await server.as('cordelia').post('/users/me/api_key/regenerate'));
  assert.match(fresh, /^[A-Za-z0-9]{32}$/);
  assert.notEqual(fresh, old);
  const stale = new Client(server.url, { email: server.users.cordelia.email, apiKey: old });
  assert.equal((await stale.get('/users/me')).status, 401);
  server.users.cordelia.apiKey = fresh;
  assert.equal(assertSuccess(await server.as('cordelia').get('/users/me')).email, server.users.cordelia.email);
  const fetched = assertSuccess(await server.anon().post('/fetch_api_key', { username: server.users.cordelia.email, password: server.users.cordelia.password }));
  assert.equal(fetched.api_key, fresh);
});

test("a bot replacing its own key tells its owner, as the owner's own replacement does", async () => {
  const bot = assertSuccess(await server.as('hamlet').post('/bots', { full_name: 'Key Turner', short_name: 'keyturner' }));
  const l = await Listeners.open(server, ['hamlet', 'cordelia']);
  const botClient = new Client(server.url, { email: bot.email ?? `keyturner-bot@${new URL(server.url).hostname}`, apiKey: bot.api_key });
  const { api_key: fresh } = assertSuccess(await botClient.post('/users/me/api_key/regenerate'));
  assert.notEqual(fresh, bot.api_key);
  const [event] = await l.take('hamlet', 'realm_bot');
  assert.deepEqual(event.bot, { user_id: bot.user_id, api_key: fresh });
  assert.deepEqual(await l.take('cordelia', 'realm_bot'), [], 'nobody who may not see its secrets');
});
