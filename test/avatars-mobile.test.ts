// Avatars as the mobile app loads them: avatar_url of the reference's shape, whose `-medium.png` variant the app
// derives by replacing `.png` (lib/model/avatar_url.dart), served at 100 and 500 pixels, for uploaded avatars and
// for default avatars drawn by the server; the organization's icon; the server's bots in cross_realm_bots.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { startTestServer, type SeedName, type TestServer } from './helpers/server.js';
import { Listeners } from './helpers/events.js';
import { assertError, assertSuccess } from './helpers/assertions.js';
import { assertMatchesSchema } from './helpers/openapi.js';
import { validateEvent } from './helpers/openapi-events.js';
import { validateRegisterResponse } from './helpers/openapi-register.js';
import { fetchFile, multipart, postMultipart } from './helpers/uploads.js';
import { takeUntil } from './helpers/messages.js';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

// The app's rule for the larger variant of an uploaded avatar.
const mediumOf = (url: string) => {
  const u = new URL(url, 'http://realm.invalid');
  return u.pathname.replace(/(?:\.png)?$/, '-medium.png') + u.search;
};

// The image at `url` (relative to the server), fetched as the app does: with the account's credentials.
async function image(url: string, who: SeedName | null = 'hamlet') {
  const headers: Record<string, string> = who ? server.as(who).headers() : {};
  const res = await fetch(new URL(url, server.url), { headers, redirect: 'follow' });
  assert.equal(res.status, 200, `${url}: ${res.status}`);
  assert.equal(res.headers.get('content-type'), 'image/png', url);
  const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
  return [meta.width, meta.height, meta.format];
}

const me = async (who: SeedName) => assertSuccess(await server.as(who).get('/users/me'));

test('default avatars: drawn by the server at both sizes, for any client flavour', async () => {
  const hamlet = await me('hamlet');
  assertMatchesSchema('/users/me', 'get', hamlet);
  assert.match(hamlet.avatar_url, new RegExp(`^/user_avatars/\\d+/default/${hamlet.user_id}\\.png\\?version=\\d+$`));
  assert.deepEqual(await image(hamlet.avatar_url), [100, 100, 'png']);
  assert.deepEqual(await image(mediumOf(hamlet.avatar_url)), [500, 500, 'png']);
  assert.deepEqual(await image(hamlet.avatar_url, null), [100, 100, 'png'], 'served without credentials, as uploaded ones are');
  const reg = assertSuccess(await server.as('hamlet').post('/register', { fetch_event_types: ['realm_user'], client_gravatar: true }));
  assert.deepEqual(validateRegisterResponse(reg), []);
  assert.equal(reg.avatar_source, 'J');
  assert.equal(reg.avatar_url_medium, mediumOf(reg.avatar_url));
  const cordelia = reg.realm_users.find((u: { user_id: number }) => u.user_id === server.users.cordelia.id);
  assert.match(cordelia.avatar_url, /^\/user_avatars\//, 'never null: there is no outside avatar to compute');
  const optional = assertSuccess(await server.as('hamlet').post('/register', { fetch_event_types: ['realm_user'], client_capabilities: JSON.stringify({ user_avatar_url_field_optional: true }) }));
  assert.ok(!('avatar_url' in optional.realm_users.find((u: { user_id: number }) => u.user_id === server.users.cordelia.id)));
  // The app's fallback for an omitted avatar_url: /avatar/{id} and /avatar/{id}/medium.
  assert.deepEqual(await image(`/avatar/${server.users.cordelia.id}`), [100, 100, 'png']);
  assert.deepEqual(await image(`/avatar/${server.users.cordelia.id}/medium`), [500, 500, 'png']);
  assert.deepEqual(await image('/avatar/nobody@example.com'), [100, 100, 'png']);
});

test('an uploaded avatar: cropped square, stored at 100 and 500 pixels, announced with its new URLs', async () => {
  const photo = await sharp({ create: { width: 640, height: 360, channels: 3, background: { r: 200, g: 30, b: 60 } } }).jpeg().toBuffer();
  const l = await Listeners.open(server, ['cordelia'], { event_types: JSON.stringify(['realm_user']) });
  const res = await postMultipart(server, 'hamlet', '/api/v1/users/me/avatar', await multipart([{ name: 'me.jpg', data: photo }]));
  const body = assertSuccess(res);
  assert.match(body.avatar_url, /^\/user_avatars\/\d+\/[0-9a-f]{16}\.png\?version=\d+$/);
  assert.deepEqual(await image(body.avatar_url), [100, 100, 'png']);
  assert.deepEqual(await image(mediumOf(body.avatar_url)), [500, 500, 'png']);
  const [event] = await takeUntil(l, 'cordelia', 'realm_user');
  assert.deepEqual(validateEvent(event), []);
  assert.deepEqual(event.person, {
    user_id: server.users.hamlet.id, avatar_source: 'U', avatar_url: body.avatar_url, avatar_url_medium: mediumOf(body.avatar_url),
    avatar_version: Number(/version=(\d+)/.exec(body.avatar_url)![1]),
  });
  assert.equal((await me('hamlet')).avatar_url, body.avatar_url);
  const redirect = await fetchFile(server, 'cordelia', `/avatar/${server.users.hamlet.id}/medium`);
  assert.equal(redirect.status, 302);
  assert.equal(redirect.headers.location, mediumOf(body.avatar_url));
  // Going back to the default removes the images.
  const deleted = assertSuccess(await server.as('hamlet').delete('/users/me/avatar'));
  assert.match(deleted.avatar_url, /\/default\//);
  assert.equal((await fetch(new URL(body.avatar_url, server.url))).status, 404);
  const junk = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('not really a picture')]);
  assertError(await postMultipart(server, 'hamlet', '/api/v1/users/me/avatar', await multipart([{ name: 'x.png', data: junk }])), 400, 'BAD_IMAGE', 'Could not decode image; did you upload an image file?');
});

test("the organization's icon is a real image, in server_settings and register", async () => {
  const settings = assertSuccess(await server.anon().get('/server_settings'));
  assertMatchesSchema('/server_settings', 'get', settings);
  assert.match(settings.realm_icon, /^http:\/\/.+\/user_avatars\/\d+\/realm\/icon\.png\?version=\d+$/);
  assert.deepEqual(await image(settings.realm_icon, null), [100, 100, 'png']);
  const reg = assertSuccess(await server.as('hamlet').post('/register', { fetch_event_types: ['realm'] }));
  assert.deepEqual(await image(reg.realm_icon_url, null), [100, 100, 'png']);
});

test('the Notification Bot and the Welcome Bot are cross_realm_bots, not users of the organization', async () => {
  assertSuccess(await server.as('iago').post('/users/me/subscriptions', { subscriptions: JSON.stringify([{ name: 'Bots' }]) }));
  assertSuccess(await server.as('iago').post('/users/me/subscriptions', { subscriptions: JSON.stringify([{ name: 'Bots' }]), principals: JSON.stringify([server.users.cordelia.id]) }));
  const reg = assertSuccess(await server.as('cordelia').post('/register', { fetch_event_types: ['realm_user'] }));
  assert.deepEqual(validateRegisterResponse(reg), []);
  const emails = (list: { email: string }[]) => list.map((u) => u.email);
  assert.ok(!emails(reg.realm_users).some((e) => e.startsWith('notification-bot@')));
  const bot = reg.cross_realm_bots.find((u: { email: string }) => u.email.startsWith('notification-bot@'));
  assert.ok(bot, JSON.stringify(reg.cross_realm_bots));
  assert.deepEqual([bot.is_system_bot, bot.is_bot, bot.full_name], [true, true, 'Notification Bot']);
  const users = assertSuccess(await server.as('cordelia').get('/users'));
  assert.ok(!emails(users.members).some((e) => e.startsWith('notification-bot@')));
});

test('GET /users/me: bot_type only for bots', async () => {
  assert.ok(!('bot_type' in (await me('hamlet'))));
  assert.equal((await me('bot')).bot_type, 1);
});
