// Resumable uploads (/api/v1/tus): create, resume, finish as an attachment; limits; other users and no
// credentials; protocol errors in the JSON envelope.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type SeedName, type TestServer } from './helpers/server.js';
import { send, type Reply } from './helpers/client.js';
import { Listeners } from './helpers/events.js';
import { assertError } from './helpers/assertions.js';
import { takeUntil } from './helpers/messages.js';
import { fetchFile } from './helpers/uploads.js';

let server: TestServer;
const MIB = 1024 * 1024;
before(async () => {
  server = await startTestServer({ env: { PARLANCE_MAX_FILE_UPLOAD_SIZE_MIB: '2', PARLANCE_REALM_UPLOAD_QUOTA_MIB: '4' } });
});
after(() => server.close());

const b64 = (s: string) => Buffer.from(s).toString('base64');

function tus(who: SeedName | null, method: string, path: string, headers: Record<string, string> = {}, body?: Buffer | string): Promise<Reply> {
  const base = who ? server.as(who).headers() : {};
  return send(method, new URL(path, server.url), { 'tus-resumable': '1.0.0', ...base, ...headers }, body);
}

async function create(who: SeedName, length: number, name = 'big.txt', type = 'text/plain'): Promise<string> {
  const res = await tus(who, 'POST', '/api/v1/tus', { 'upload-length': String(length), 'upload-metadata': `filename ${b64(name)},filetype ${b64(type)}` });
  assert.equal(res.status, 201, res.text);
  assert.match(String(res.headers.location), /^\/api\/v1\/tus\/\d+-[A-Za-z0-9]{32}$/);
  return res.headers.location!;
}

const patch = (who: SeedName, location: string, offset: number, chunk: Buffer | string) =>
  tus(who, 'PATCH', location, { 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' }, chunk);

test('OPTIONS describes the server without credentials', async () => {
  const res = await tus(null, 'OPTIONS', '/api/v1/tus');
  assert.equal(res.status, 204);
  assert.equal(res.headers['tus-version'], '1.0.0');
  assert.match(String(res.headers['tus-extension']), /creation/);
  assert.equal(res.headers['tus-max-size'], String(2 * MIB));
});

test('create, resume, finish: the last part answers the URL, and the file is an attachment like any upload', async () => {
  const l = await Listeners.open(server, ['hamlet', 'cordelia'], { event_types: ['attachment'] });
  const content = Buffer.from('x'.repeat(100_000) + 'end');
  const location = await create('hamlet', content.length, 'résumé notes.txt');

  const head = await tus('hamlet', 'HEAD', location);
  assert.deepEqual([head.status, head.headers['upload-offset'], head.headers['upload-length']], [200, '0', String(content.length)]);

  const first = await patch('hamlet', location, 0, content.subarray(0, 60_000));
  assert.deepEqual([first.status, first.headers['upload-offset']], [204, '60000']);
  assert.equal((await tus('hamlet', 'HEAD', location)).headers['upload-offset'], '60000');

  const conflict = await patch('hamlet', location, 10, content.subarray(10));
  assert.equal(conflict.status, 409);
  assert.equal(conflict.body.result, 'error');

  const last = await patch('hamlet', location, 60_000, content.subarray(60_000));
  assert.equal(last.status, 200, last.text);
  assert.deepEqual(Object.keys(last.body).sort(), ['filename', 'url']);
  assert.equal(last.body.filename, 'résumé notes.txt');
  assert.match(last.body.url, /^\/user_uploads\/\d+\/[0-9a-f]{2}\/[A-Za-z0-9]{24}\/résumé-notes\.txt$/);

  const file = await fetchFile(server, 'hamlet', last.body.url);
  assert.deepEqual([file.status, file.headers['content-type'], file.text], [200, 'text/plain; charset=utf-8', content.toString()]);
  assert.equal((await fetchFile(server, 'cordelia', last.body.url)).status, 404);
  const [event] = await takeUntil(l, 'hamlet', 'attachment');
  assert.deepEqual([event.op, event.attachment.name, event.attachment.size], ['add', 'résumé notes.txt', content.length]);
  assert.deepEqual(await l.take('cordelia', 'attachment'), []);
  // Finished uploads are no longer resumable.
  assert.equal((await tus('hamlet', 'HEAD', location)).status, 404);
});

test('creation with upload, and empty files', async () => {
  const res = await tus('hamlet', 'POST', '/api/v1/tus', {
    'upload-length': '5', 'upload-metadata': `filename ${b64('once.bin')}`, 'content-type': 'application/offset+octet-stream',
  }, 'hello');
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.filename, 'once.bin');
  const file = await fetchFile(server, 'hamlet', res.body.url);
  assert.deepEqual([file.headers['content-type'], file.text], ['application/octet-stream', 'hello']);

  const empty = await tus('hamlet', 'POST', '/api/v1/tus', { 'upload-length': '0' });
  assert.equal(empty.status, 200, empty.text);
  assert.equal(empty.body.filename, 'uploaded-file');
});

test('credentials: none, wrong, or another user’s upload', async () => {
  const location = await create('hamlet', 10);
  assertError(await tus(null, 'POST', '/api/v1/tus', { 'upload-length': '10' }), 401, 'UNAUTHORIZED', 'Not logged in: API authentication or user session required');
  assertError(await tus(null, 'PATCH', location, { 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }, '0123456789'), 401, 'UNAUTHORIZED', 'Not logged in: API authentication or user session required');
  const wrong = { authorization: 'Basic ' + Buffer.from(`${server.users.hamlet.email}:nope`).toString('base64') };
  assert.equal((await tus(null, 'HEAD', location, wrong)).status, 401);
  assertError(await tus(null, 'PATCH', location, { ...wrong, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }, '0123456789'), 401, 'UNAUTHORIZED', 'Invalid API key');
  for (const other of ['cordelia', 'iago'] as const) {
    assert.equal((await tus(other, 'HEAD', location)).status, 404);
    assertError(await patch(other, location, 0, '0123456789'), 404, 'BAD_REQUEST', 'The file for this url was not found');
    assertError(await tus(other, 'DELETE', location), 404, 'BAD_REQUEST', 'The file for this url was not found');
  }
  // Ids that are not ids of this user's uploads, traversal included, are missing uploads too.
  assertError(await patch('hamlet', '/api/v1/tus/..%2F..%2Fparlance.sqlite3', 0, 'x'), 404, 'BAD_REQUEST', 'The file for this url was not found');
  // The method is the route's, whatever a header says.
  const override = await tus(null, 'OPTIONS', location, { 'x-http-method-override': 'DELETE' });
  assert.equal(override.status, 204);
  assert.equal((await tus('hamlet', 'HEAD', location)).status, 200);
});

test('limits: size, quota, deferred length; protocol errors in the envelope', async () => {
  assertError(await tus('hamlet', 'POST', '/api/v1/tus', { 'upload-length': String(2 * MIB + 1) }), 413, 'BAD_REQUEST', "File is larger than this server's configured maximum upload size (2 MiB).");
  assertError(await tus('hamlet', 'POST', '/api/v1/tus', { 'upload-defer-length': '1' }), 411, 'BAD_REQUEST', 'SizeIsDeferred is not supported');
  assertError(await tus('hamlet', 'POST', '/api/v1/tus', {}), 400, 'BAD_REQUEST', 'Upload-Length or Upload-Defer-Length header required');
  const noVersion = await send('POST', new URL('/api/v1/tus', server.url), server.as('hamlet').headers({ 'upload-length': '1' }));
  assertError(noVersion, 412, 'BAD_REQUEST', 'Tus-Resumable Required');
  const location = await create('hamlet', 4);
  assertError(await patch('hamlet', location, 0, 'too long'), 413, 'BAD_REQUEST', /exceed/i);

  // An unfinished upload holds its declared length against the 4 MiB quota: a second 2 MiB upload cannot start
  // while the first is under way (hostile-uploads.test.ts has more).
  const a = await create('cordelia', 2 * MIB - 10);
  assertError(await tus('cordelia', 'POST', '/api/v1/tus', { 'upload-length': String(2 * MIB - 10) }), 413, 'REALM_UPLOAD_QUOTA', "Upload would exceed your organization's upload quota.");
  assert.equal((await patch('cordelia', a, 0, Buffer.alloc(2 * MIB - 10))).status, 200);
  assertError(await tus('cordelia', 'POST', '/api/v1/tus', { 'upload-length': String(2 * MIB) }), 413, 'REALM_UPLOAD_QUOTA', "Upload would exceed your organization's upload quota.");
});

test('cancelling an unfinished upload', async () => {
  const location = await create('hamlet', 10);
  assert.equal((await patch('hamlet', location, 0, '01234')).status, 204);
  assert.equal((await tus('hamlet', 'DELETE', location)).status, 204);
  assert.equal((await tus('hamlet', 'HEAD', location)).status, 404);
});
