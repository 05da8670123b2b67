// Avatars: upload, go back to the default, where GET /avatar/{user} leads, and the realm_user events.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { Listeners } from './helpers/events.js';
import { assertError, assertSuccess } from './helpers/assertions.js';
import { takeUntil } from './helpers/messages.js';
import { fetchFile, multipart, postMultipart, type FilePart } from './helpers/uploads.js';
import type { SeedName } from './helpers/server.js';
import { setRealmSettings } from './helpers/direct-db.js';
import sharp from 'sharp';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

// Real images: uploads are decoded and resized.
const picture = (r: number) => sharp({ create: { width: 120, height: 80, channels: 3, background: { r, g: 90, b: 40 } } });
let PNG: Buffer;
let JPEG: Buffer;
before(async () => {
  PNG = await picture(10).png().toBuffer();
  JPEG = await picture(200).jpeg().toBuffer();
});
const UPLOADED = (version: number, medium = '') => new RegExp(`^/user_avatars/\\d+/[0-9a-f]{16}${medium}\\.png\\?version=${version}$`);
const DEFAULT = (id: number, version: number | string, medium = '') => new RegExp(`^/user_avatars/\\d+/default/${id}${medium}\\.png\\?version=${version}$`);

const setAvatar = async (who: SeedName, files: FilePart[] = [{ name: 'me.png', data: PNG }]) =>
  postMultipart(server, who, '/api/v1/users/me/avatar', await multipart(files));

async function userObject(who: SeedName, id: number, clientGravatar = false) {
  return assertSuccess(await server.as(who).get(`/users/${id}`, { client_gravatar: clientGravatar })).user;
}

test('uploading an avatar: new URL and version, the event to every user of the organization, the image behind it', async () => {
  const hamlet = server.users.hamlet.id;
  const before = await userObject('cordelia', hamlet);
  const plain = await Listeners.open(server, ['cordelia', 'polonius', 'hamlet'], { event_types: ['realm_user'], client_gravatar: false });
  const gravatarClients = await Listeners.open(server, ['iago'], { event_types: ['realm_user'], client_gravatar: true });
  const lear = await Listeners.open(server, ['lear'], { event_types: ['realm_user'] });

  const body = assertSuccess(await setAvatar('hamlet'));
  const version = before.avatar_version + 1;
  assert.deepEqual(Object.keys(body).sort(), ['avatar_url', 'msg', 'result']);
  assert.match(body.avatar_url, UPLOADED(version));
  const person = { user_id: hamlet, avatar_source: 'U', avatar_url: body.avatar_url, avatar_url_medium: body.avatar_url.replace('.png', '-medium.png'), avatar_version: version };
  for (const who of ['cordelia', 'polonius', 'hamlet'] as const) {
    const events = await takeUntil(plain, who, 'realm_user');
    assert.deepEqual(events.map((e) => [e.op, e.person]), [['update', person]], who);
  }
  // Clients that compute outside avatars themselves get the same URLs.
  assert.deepEqual((await takeUntil(gravatarClients, 'iago', 'realm_user'))[0].person, person);
  assert.deepEqual(await lear.take('lear', 'realm_user'), []);

  const after = await userObject('cordelia', hamlet, true);
  assert.deepEqual([after.avatar_url, after.avatar_version], [body.avatar_url, version]);
  const reg = await server.as('hamlet').post('/register', { fetch_event_types: ['realm_user'] });
  assert.deepEqual([reg.body.avatar_source, reg.body.avatar_url, reg.body.avatar_url_medium], ['U', person.avatar_url, person.avatar_url_medium]);

  for (const path of [`/avatar/${server.users.hamlet.email}`, `/api/v1/avatar/${hamlet}`, `/avatar/${hamlet}/medium`]) {
    const redirect = await fetchFile(server, 'cordelia', path);
    assert.equal(redirect.status, 302, path);
    assert.equal(redirect.headers.location, path.endsWith('/medium') ? person.avatar_url_medium : body.avatar_url, path);
  }
  for (const url of [body.avatar_url, person.avatar_url_medium]) {
    const image = await fetchFile(server, null, url);
    assert.deepEqual([image.status, image.headers['content-type'], image.headers['x-content-type-options']], [200, 'image/png', 'nosniff'], url);
  }
});

test('a new upload replaces the image; deleting goes back to the default avatar', async () => {
  const cordelia = server.users.cordelia.id;
  assertSuccess(await setAvatar('cordelia'));
  const first = (await fetchFile(server, 'hamlet', `/avatar/${cordelia}`)).headers.location!;
  const l = await Listeners.open(server, ['hamlet'], { event_types: ['realm_user'], client_gravatar: false });
  const gravatarClients = await Listeners.open(server, ['iago'], { event_types: ['realm_user'], client_gravatar: true });
  assertSuccess(await setAvatar('cordelia', [{ name: 'me.jpg', data: JPEG, field: 'file' }]));
  const second = (await fetchFile(server, 'hamlet', `/avatar/${cordelia}`)).headers.location!;
  assert.notEqual(second, first);
  assert.equal((await fetchFile(server, null, first)).status, 404);
  assert.equal((await fetchFile(server, null, second)).headers['content-type'], 'image/png', 'stored as PNG whatever was uploaded');

  const version = (await userObject('hamlet', cordelia)).avatar_version;
  const body = assertSuccess(await server.as('cordelia').delete('/users/me/avatar'));
  assert.match(body.avatar_url, DEFAULT(cordelia, version + 1));
  assert.equal((await fetchFile(server, null, second)).status, 404);
  const generated = await fetchFile(server, 'hamlet', `/avatar/${cordelia}/medium`);
  assert.equal(generated.status, 302);
  assert.match(String(generated.headers.location), DEFAULT(cordelia, '\\d+', '-medium'));

  const events = await takeUntil(l, 'hamlet', 'realm_user', (e) => e.person.avatar_source === 'J');
  assert.deepEqual(events.at(-1)!.person, {
    user_id: cordelia, avatar_source: 'J', avatar_url: body.avatar_url, avatar_url_medium: body.avatar_url.replace('.png', '-medium.png'), avatar_version: version + 1,
  });
  // Drawn by the server: nothing for a client to compute, so the URL is there for every client.
  const forGravatarClients = await takeUntil(gravatarClients, 'iago', 'realm_user', (e) => e.person.avatar_source === 'J');
  assert.equal(forGravatarClients.at(-1)!.person.avatar_url, body.avatar_url);
});

test('errors: not exactly one image, not an image, too large, changes disabled', async () => {
  assertError(await setAvatar('hamlet', []), 400, 'BAD_REQUEST', 'You must upload exactly one avatar.');
  assertError(await setAvatar('hamlet', [{ name: 'a.png', data: PNG }, { name: 'b.png', data: PNG }]), 400, 'BAD_REQUEST', 'You must upload exactly one avatar.');
  assertError(await setAvatar('hamlet', [{ name: 'x.svg', data: '<svg onload="alert(1)"/>' }]), 400, 'BAD_IMAGE', 'Could not decode image; did you upload an image file?');
  const big = Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]);
  assertError(await setAvatar('hamlet', [{ name: 'big.png', data: big }]), 400, 'BAD_REQUEST', 'Uploaded file is larger than the allowed limit of 5 MiB');
  assertError(await server.anon().delete('/users/me/avatar'), 401, 'UNAUTHORIZED', 'Not logged in: API authentication or user session required');

  assertSuccess(await server.as('desdemona').patch('/realm', { avatar_changes_disabled: true }));
  try {
    assertError(await setAvatar('hamlet'), 400, 'BAD_REQUEST', 'Avatar changes are disabled in this organization.');
    assertError(await server.as('hamlet').delete('/users/me/avatar'), 400, 'BAD_REQUEST', 'Avatar changes are disabled in this organization.');
    assertSuccess(await setAvatar('iago'));
  } finally {
    assertSuccess(await server.as('desdemona').patch('/realm', { avatar_changes_disabled: false }));
  }
});

test('GET /avatar: unknown users, other organizations, spectators, and the query carried over', async () => {
  const unknown = await fetchFile(server, 'hamlet', '/avatar/nobody@example.com?s=50');
  assert.equal(unknown.status, 302);
  assert.equal(unknown.headers.location, '/static/images/unknown-user-avatar.png?s=50');
  // Another organization's user is unknown here.
  const iagoFromLear = await fetchFile(server, 'lear', `/avatar/${server.users.iago.id}`);
  assert.doesNotMatch(String(iagoFromLear.headers.location), /user_avatars/);

  assertError(await fetchFile(server, null, `/avatar/${server.users.iago.id}`), 401, 'UNAUTHORIZED', 'Not logged in: API authentication or user session required');
  assertSuccess(await server.as('desdemona').patch('/realm', { enable_spectator_access: true }));
  try {
    const spectator = await fetchFile(server, null, `/avatar/${server.users.iago.id}`);
    assert.equal(spectator.status, 302);
    assert.match(String(spectator.headers.location), /^\/user_avatars\//);
    assertError(await fetchFile(server, null, `/avatar/${server.users.iago.email}`), 401, 'UNAUTHORIZED', 'Not logged in: API authentication or user session required');
  } finally {
    assertSuccess(await server.as('desdemona').patch('/realm', { enable_spectator_access: false }));
  }
  assert.equal((await fetchFile(server, null, '/user_avatars/1/avatars/..%2F..%2Fparlance.sqlite3')).status, 404);
});

test('an address hidden from the viewer finds nobody; a guest limited to some users gets the placeholder for the others', async () => {
  const { polonius, shiva } = server.users;
  assert.equal((await setAvatar('shiva')).status, 200);
  const location = async (who: SeedName, key: string | number) => String((await fetchFile(server, who, `/avatar/${key}`)).headers.location);
  assertSuccess(await server.as('shiva').patch('/settings', { email_address_visibility: 3 }));
  try {
    assert.match(await location('iago', shiva.email), /^\/user_avatars\//, 'administrators see the address');
    assert.equal(await location('hamlet', shiva.email), '/static/images/unknown-user-avatar.png', 'as for an unknown address');
    assert.match(await location('hamlet', shiva.id), /^\/user_avatars\//, 'by id');
  } finally {
    assertSuccess(await server.as('shiva').patch('/settings', { email_address_visibility: 1 }));
  }

  await setRealmSettings(server, { can_access_all_users_group: 'role:members' });
  try {
    const l = await Listeners.open(server, ['polonius', 'hamlet'], { event_types: ['realm_user'] });
    assert.equal((await setAvatar('shiva', [{ name: 'me.jpg', data: JPEG }])).status, 200);
    await takeUntil(l, 'hamlet', 'realm_user');
    assert.deepEqual(await l.take('polonius', 'realm_user'), [], 'no avatar events about users the guest may not access');
    assert.equal(await location('polonius', shiva.id), '/static/images/unknown-user-avatar.png');
    assert.notEqual(await location('polonius', polonius.id), '/static/images/unknown-user-avatar.png', 'themselves');
    assert.match(await location('hamlet', shiva.id), /^\/user_avatars\//, 'members are not limited');
  } finally {
    await setRealmSettings(server, { can_access_all_users_group: undefined });
  }
});
