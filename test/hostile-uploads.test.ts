// A member trying to make the server keep bytes the organization's quota does not count: unfinished resumable
// uploads staged past the quota, abandoned ones, ones left behind by a deactivated user, and custom emoji.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startTestServer, type TestServer } from './helpers/server.js';
import { Client, send, type Reply } from './helpers/client.js';
import { assertError, assertSuccess } from './helpers/assertions.js';
import { eventually } from './helpers/events.js';
import { upload } from './helpers/uploads.js';

const MIB = 1024 * 1024;
const QUOTA = "Upload would exceed your organization's upload quota.";
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

let server: TestServer;
before(async () => {
  server = await startTestServer({ env: { PARLANCE_MAX_FILE_UPLOAD_SIZE_MIB: '2', PARLANCE_REALM_UPLOAD_QUOTA_MIB: '4' } });
});
after(() => server.close());

const b64 = (s: string) => Buffer.from(s).toString('base64');

function tus(s: TestServer, client: Client, method: string, location: string, headers: Record<string, string> = {}, body?: Buffer | string): Promise<Reply> {
  return send(method, new URL(location, s.url), { 'tus-resumable': '1.0.0', ...client.headers(), ...headers }, body);
}

const start = (s: TestServer, client: Client, length: number) =>
  tus(s, client, 'POST', '/api/v1/tus', { 'upload-length': String(length), 'upload-metadata': `filename ${b64('big.bin')}` });

async function stage(s: TestServer, client: Client, length: number, sent = 0): Promise<string> {
  const res = await start(s, client, length);
  assert.equal(res.status, 201, res.text);
  const location = res.headers.location!;
  if (sent) {
    const part = await tus(s, client, 'PATCH', location, { 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }, Buffer.alloc(sent, 'x'));
    assert.equal(part.status, 204, part.text);
  }
  return location;
}

const idOf = (location: string) => location.split('/').pop()!;
const stagedFiles = (s: TestServer, location: string) =>
  [idOf(location), `${idOf(location)}.json`].filter((f) => fs.existsSync(path.join(s.db.dataDir, 'tus', f)));
const spaceUsed = async (s: TestServer) => (await s.as('iago').get('/attachments')).body.upload_space_used as number;

test('staging resumable uploads beyond the quota is refused, for resumable and ordinary uploads alike', async () => {
  const hamlet = server.as('hamlet');
  const a = await stage(server, hamlet, 2 * MIB - 1000, 1000);
  const b = await stage(server, hamlet, 2 * MIB - 1000);
  // Nothing is finished, yet the space is taken.
  assert.ok((await spaceUsed(server)) >= 4 * MIB - 2000);
  assertError(await start(server, hamlet, 4000), 413, 'REALM_UPLOAD_QUOTA', QUOTA);
  assertError(await start(server, server.as('cordelia'), 4000), 413, 'REALM_UPLOAD_QUOTA', QUOTA);
  assertError(await upload(server, 'cordelia', [{ name: 'small.bin', data: Buffer.alloc(4000) }]), 400, 'REALM_UPLOAD_QUOTA', QUOTA);

  // Cancelling one gives its space back at once.
  assert.equal((await tus(server, hamlet, 'DELETE', a)).status, 204);
  assert.deepEqual(stagedFiles(server, a), []);
  const c = await stage(server, server.as('cordelia'), 4000);
  for (const [who, location] of [[hamlet, b], [server.as('cordelia'), c]] as const) assert.equal((await tus(server, who, 'DELETE', location)).status, 204);
  assert.equal(await spaceUsed(server), 0);
});

test('a finished resumable upload takes its space once, not twice', async () => {
  const hamlet = server.as('hamlet');
  const location = await stage(server, hamlet, 3 * MIB / 2);
  const last = await tus(server, hamlet, 'PATCH', location, { 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }, Buffer.alloc(3 * MIB / 2));
  assert.equal(last.status, 200, last.text);
  assert.equal(await spaceUsed(server), 3 * MIB / 2);
  assert.deepEqual(stagedFiles(server, location), []);
  const [attachment] = (await hamlet.get('/attachments')).body.attachments as { id: number }[];
  assertSuccess(await hamlet.delete(`/attachments/${attachment.id}`));
  assert.equal(await spaceUsed(server), 0);
});

test('a user may hold only so many unfinished uploads', async () => {
  const shiva = server.as('shiva');
  const locations: string[] = [];
  for (let i = 0; i < 100; i++) locations.push(await stage(server, shiva, 10));
  assertError(await start(server, shiva, 10), 400, 'BAD_REQUEST', 'You have too many unfinished uploads; finish or cancel some first.');
  assert.equal((await tus(server, shiva, 'DELETE', locations.pop()!)).status, 204);
  locations.push(await stage(server, shiva, 10));
  for (const location of locations) assert.equal((await tus(server, shiva, 'DELETE', location)).status, 204);
});

test('deactivating the uploader removes their unfinished uploads, and those of the bots they own', async () => {
  const email = 'stager@zulip.example.com';
  const created = assertSuccess(await server.as('iago').post('/users', { email, password: 'a long password 42', full_name: 'Stager' }));
  const key = assertSuccess(await server.anon().post('/fetch_api_key', { username: email, password: 'a long password 42' })).api_key;
  const stager = new Client(server.url, { email, apiKey: key });
  const bot = assertSuccess(await stager.post('/bots', { full_name: 'Stager bot', short_name: 'stager-bot', bot_type: 1 }));
  const botEmail = ((await stager.get('/bots')).body.bots as { username: string }[])[0].username;
  const botClient = new Client(server.url, { email: botEmail, apiKey: bot.api_key });

  const mine = [await stage(server, stager, MIB, 1000), await stage(server, stager, 1000)];
  const bots = [await stage(server, botClient, MIB / 2, 10)];
  assert.ok((await spaceUsed(server)) >= MIB * 1.5);
  for (const location of [...mine, ...bots]) assert.notDeepEqual(stagedFiles(server, location), []);

  assertSuccess(await server.as('iago').delete(`/users/${created.user_id}`));
  for (const location of [...mine, ...bots]) assert.deepEqual(stagedFiles(server, location), [], location);
  assert.equal(await spaceUsed(server), 0);
});

test('custom emoji take space from the quota, and deleting one frees it', async () => {
  const emoji = async (name: string, size: number) => {
    const form = new FormData();
    form.append('f', new Blob([new Uint8Array(Buffer.concat([PNG, Buffer.alloc(size - PNG.length)]))], { type: 'image/png' }), 'e.png');
    const request = new Request('http://x/', { method: 'POST', body: form });
    const headers = server.as('hamlet').headers({ 'content-type': request.headers.get('content-type')! });
    return send('POST', new URL(`/api/v1/realm/emoji/${name}`, server.url), headers, Buffer.from(await request.arrayBuffer()));
  };
  assertSuccess(await emoji('weighty', 3 * MIB / 2));
  assert.equal(await spaceUsed(server), 3 * MIB / 2);
  const file = await upload(server, 'cordelia', [{ name: 'two.bin', data: Buffer.alloc(2 * MIB) }]);
  assert.equal(file.status, 200, file.text);
  // 3.5 MiB used of 4: neither another file nor another emoji of 1 MiB fits.
  assertError(await upload(server, 'cordelia', [{ name: 'one.bin', data: Buffer.alloc(MIB) }]), 400, 'REALM_UPLOAD_QUOTA', QUOTA);
  assertError(await emoji('heavier', MIB), 400, 'REALM_UPLOAD_QUOTA', QUOTA);

  const sourceUrl = (Object.values((await server.as('hamlet').get('/realm/emoji')).body.emoji) as { name: string; source_url: string }[])
    .find((e) => e.name === 'weighty')!.source_url;
  assert.equal((await send('GET', new URL(sourceUrl, server.url), {})).status, 200);
  assertSuccess(await server.as('hamlet').delete('/realm/emoji/weighty'));
  assert.equal(await spaceUsed(server), 2 * MIB);
  assert.equal((await send('GET', new URL(sourceUrl, server.url), {})).status, 404);
  assert.equal((await upload(server, 'cordelia', [{ name: 'one.bin', data: Buffer.alloc(MIB) }])).status, 200);
});

test('an abandoned resumable upload is removed after the expiry period, by either of two server processes', async () => {
  const short = await startTestServer({ env: { PARLANCE_RESUMABLE_UPLOAD_EXPIRY_SECONDS: '2', PARLANCE_STORAGE_SWEEP_SECONDS: '1' } });
  const peer = await short.startPeer();
  try {
    const hamlet = short.as('hamlet');
    const started = await start(short, hamlet, 1000);
    assert.equal(started.status, 201, started.text);
    // tus tells the client when the upload expires.
    const expires = Date.parse(String(started.headers['upload-expires']));
    assert.ok(expires > Date.now() - 2000 && expires < Date.now() + 5000, String(started.headers['upload-expires']));
    const location = started.headers.location!;
    assert.equal((await tus(short, hamlet, 'PATCH', location, { 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }, 'x')).status, 204);
    assert.equal(await spaceUsed(short), 1000);
    assert.equal(stagedFiles(short, location).length, 2);
    // Leftovers no upload accounts for (an older server's, a crash's) go too once they are old.
    const stray = path.join(short.db.dataDir, 'tus', `${short.users.hamlet.id}-${'s'.repeat(32)}`);
    fs.writeFileSync(stray, 'left behind');
    const old = new Date(Date.now() - 3600_000);
    fs.utimesSync(stray, old, old);

    await eventually(async () => (stagedFiles(short, location).length === 0 && !fs.existsSync(stray) ? true : undefined), 20_000);
    assert.equal(await spaceUsed(short), 0);
    assert.ok([404, 410].includes((await tus(short, hamlet, 'HEAD', location)).status));
    // Both swept the same rows and directory; neither stumbled over the other.
    for (const s of [short, peer]) assert.doesNotMatch(s.stderr, /background job failed/);
  } finally {
    await peer.stop();
    await short.close();
  }
});
