// POST /user_uploads and serving the files: both client libraries' forms, every error, limits and quota, name
// sanitizing, path traversal, content headers, ranges and temporary URLs.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { startTestServer, type TestServer } from './helpers/server.js';
import { findRealmBySubdomain } from '../src/store/realms.js';
import { assertError, assertSuccess } from './helpers/assertions.js';
import { assertMatchesSchema } from './helpers/openapi.js';
import { fetchFile, multipart, postMultipart, rawMultipart, upload, uploaded } from './helpers/uploads.js';

let server: TestServer;
let realmId: number;
const MIB = 1024 * 1024;

before(async () => {
  // A 1 MiB file limit and a 3 MiB quota, so that both are reached with small files.
  server = await startTestServer({ env: { PARLANCE_MAX_FILE_UPLOAD_SIZE_MIB: '1', PARLANCE_REALM_UPLOAD_QUOTA_MIB: '3' } });
  realmId = await server.withApp(async (app) => (await findRealmBySubdomain(app.db, ''))!.id);
});
after(() => server.close());

const lastSegment = (url: string) => decodeURIComponent(url.split('/').pop()!);

// A request line exactly as written: URL parsing would resolve the dot segments.
function rawGet(path: string, who: 'hamlet'): Promise<{ status: number; body: any }> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    http.get({ host: url.hostname, port: url.port, path, headers: server.as(who).headers() }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
    }).on('error', reject);
  });
}

test('the Python form (part named after the file) and the JavaScript form both upload; the file comes back', async () => {
  const python = await upload(server, 'hamlet', [{ name: 'zulip.txt', data: 'zulip!', type: 'text/plain' }]);
  const body = assertSuccess(python);
  assertMatchesSchema('/user_uploads', 'post', body);
  assert.deepEqual(Object.keys(body).sort(), ['filename', 'msg', 'result', 'uri', 'url']);
  assert.match(body.url, new RegExp(`^/user_uploads/${realmId}/[0-9a-f]{2}/[A-Za-z0-9]{24}/zulip\\.txt$`));
  assert.equal(body.uri, body.url);
  assert.equal(body.filename, 'zulip.txt');

  const js = assertSuccess(await upload(server, 'hamlet', [{ name: 'notes.md', data: '# notes', field: 'file' }]));
  assert.equal(js.filename, 'notes.md');
  assert.notEqual(js.url, body.url);

  const file = await fetchFile(server, 'hamlet', body.url);
  assert.equal(file.status, 200);
  assert.equal(file.text, 'zulip!');
  // Other fields of the form are reported like any unknown parameter.
  const extra = assertSuccess(await upload(server, 'hamlet', [{ name: 'a.txt', data: 'a' }], { note: 'x' }));
  assert.deepEqual(extra.ignored_parameters_unsupported, ['note']);
});

test('errors: no file, several files, too large, no credentials', async () => {
  assertError(await server.as('hamlet').post('/user_uploads', {}), 400, 'BAD_REQUEST', 'You must specify a file to upload');
  assertError(await upload(server, 'hamlet', [], { only: 'fields' }), 400, 'BAD_REQUEST', 'You must specify a file to upload');
  assertError(
    await upload(server, 'hamlet', [{ name: 'a.txt', data: 'a' }, { name: 'b.txt', data: 'b' }]),
    400, 'BAD_REQUEST', 'You may only upload one file at a time',
  );
  const justOver = Buffer.alloc(MIB + 1, 'x');
  assertError(await upload(server, 'hamlet', [{ name: 'big.bin', data: justOver }]), 400, 'BAD_REQUEST', "File is larger than this server's configured maximum upload size (1 MiB).");
  assert.equal((await upload(server, 'hamlet', [{ name: 'max.bin', data: Buffer.alloc(MIB, 'x') }])).status, 200);
  // Far past the limit, the body itself is refused before it is read.
  assertError(await upload(server, 'hamlet', [{ name: 'huge.bin', data: Buffer.alloc(3 * MIB, 'x') }]), 413, 'BAD_REQUEST', 'Request body is too large');
  // A body of undeclared length is cut off at the same limit.
  const chunked = await multipart([0, 1, 2].map((i) => ({ name: `part${i}.bin`, data: Buffer.alloc(900_000, 'c') })));
  const cut = await new Promise<{ status: number; body: any }>((resolve, reject) => {
    const req = http.request(new URL('/api/v1/user_uploads', server.url), { method: 'POST', headers: server.as('hamlet').headers({ 'content-type': chunked.contentType, 'transfer-encoding': 'chunked' }) }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    for (let i = 0; i < chunked.body.length; i += 64 * 1024) req.write(chunked.body.subarray(i, i + 64 * 1024));
    req.end();
  });
  assert.deepEqual([cut.status, cut.body.msg], [413, 'Request body is too large']);
  const anonymous = await postMultipart(server, null, '/api/v1/user_uploads', await multipart([{ name: 'a.txt', data: 'a' }]));
  assertError(anonymous, 401, 'UNAUTHORIZED', 'Not logged in: API authentication or user session required');
});

test('file names: directories, dot names, control and direction characters, length, Unicode', async () => {
  const cases: [string, string, string][] = [
    // filename parameter as sent, name reported back, last URL segment
    ['filename="../../etc/passwd"', 'passwd', 'passwd'],
    ['filename="..\\\\..\\\\windows\\\\system.ini"', 'system.ini', 'system.ini'],
    ['filename=".."', 'uploaded-file', 'uploaded-file'],
    ['filename=""', 'uploaded-file', 'uploaded-file'],
    ['filename="my report (final).pdf"', 'my report (final).pdf', 'my-report-final.pdf'],
    ["filename*=UTF-8''%E2%80%AEfdp.exe%01%7F.txt", 'fdp.exe.txt', 'fdp.exe.txt'],
    ["filename*=UTF-8''%D1%84%D0%B0%D0%B9%D0%BB%20%E2%84%961.txt", 'файл №1.txt', 'файл-No1.txt'],
  ];
  for (const [param, name, segment] of cases) {
    const res = await postMultipart(server, 'hamlet', '/api/v1/user_uploads', rawMultipart(param, 'content'));
    const body = assertSuccess(res);
    assert.equal(body.filename, name, param);
    assert.equal(lastSegment(body.url), segment, param);
    const file = await fetchFile(server, 'hamlet', body.url);
    assert.equal(file.status, 200, `${param}: ${file.text}`);
    assert.equal(file.text, 'content');
  }
  const long = `${'a'.repeat(300)}.txt`;
  const body = assertSuccess(await upload(server, 'hamlet', [{ name: long, data: 'x' }]));
  assert.equal(body.filename.length, 255);
  assert.ok(lastSegment(body.url).length <= 120 && lastSegment(body.url).endsWith('.txt'), body.url);
});

test('paths outside the uploads, of other organizations, or malformed are missing files', async () => {
  const url = await uploaded(server, 'hamlet', 'secret.txt', 'secret');
  const [, , , hex, random] = url.split('/');
  for (const path of [
    `/user_uploads/${realmId}/../../parlance.sqlite3`,
    `/user_uploads/${realmId}/${hex}/${random}/../../../../parlance.sqlite3`,
    `/user_uploads/${realmId}/${hex}/${random}/..%2F..%2F..%2F..%2Fparlance.sqlite3`,
    `/user_uploads/${realmId + 1}/${hex}/${random}/secret.txt`,
    `/user_uploads/x/${hex}/${random}/secret.txt`,
    `/user_uploads/${realmId}/${hex}/${random}`,
    `/user_uploads/${realmId}/${hex}/${random}/secret.txt/..`,
  ]) {
    const res = await rawGet(path, 'hamlet');
    assert.equal(res.status, 404, path);
    assert.deepEqual(res.body, { result: 'error', msg: 'This file does not exist or has been deleted.', code: 'BAD_REQUEST' }, path);
  }
});

test('content headers: inline only for safe types, downloads otherwise; nosniff and a restrictive policy', async () => {
  const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('rest')]);
  const cases: [string, string | Buffer, string | undefined, string, string][] = [
    ['image.png', PNG, 'image/png', 'image/png', 'inline'],
    ['guessed.png', PNG, undefined, 'image/png', 'inline'],
    ['doc.pdf', '%PDF-1.4', 'application/pdf', 'application/pdf', 'inline'],
    ['notes.txt', 'héllo', 'text/plain', 'text/plain; charset=utf-8', 'inline'],
    ['clip.mp4', 'not really', 'video/mp4', 'video/mp4', 'inline'],
    ['page.html', '<script>alert(1)</script>', 'text/html', 'application/octet-stream', 'attachment'],
    ['drawing.svg', '<svg onload="alert(1)"/>', 'image/svg+xml', 'application/octet-stream', 'attachment'],
    ['claims-image.svg', '<svg/>', undefined, 'application/octet-stream', 'attachment'],
    ['data.json', '{}', 'application/json', 'application/octet-stream', 'attachment'],
    ['rapport d’été.bin', 'x', 'application/octet-stream', 'application/octet-stream', 'attachment'],
  ];
  for (const [name, data, type, served, disposition] of cases) {
    const url = await uploaded(server, 'hamlet', name, data, type);
    const res = await fetchFile(server, 'hamlet', url);
    assert.equal(res.status, 200, name);
    assert.equal(res.headers['content-type'], served, name);
    assert.equal(res.headers['content-disposition'], `${disposition}; filename*=UTF-8''${encodeURIComponent(name).replace(/[()']/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`, name);
    assert.equal(res.headers['x-content-type-options'], 'nosniff', name);
    assert.match(String(res.headers['content-security-policy']), /^default-src 'none'/, name);
    assert.doesNotMatch(String(res.headers['content-security-policy']), /script-src/, name);
    assert.equal(res.headers['accept-ranges'], 'bytes');
    assert.match(String(res.headers['cache-control']), /^private/);
  }
});

test('range requests', async () => {
  const url = await uploaded(server, 'hamlet', 'digits.txt', '0123456789');
  const part = await fetchFile(server, 'hamlet', url, { range: 'bytes=2-5' });
  assert.deepEqual([part.status, part.text, part.headers['content-range'], part.headers['content-length']], [206, '2345', 'bytes 2-5/10', '4']);
  const suffix = await fetchFile(server, 'hamlet', url, { range: 'bytes=-3' });
  assert.deepEqual([suffix.status, suffix.text, suffix.headers['content-range']], [206, '789', 'bytes 7-9/10']);
  const open = await fetchFile(server, 'hamlet', url, { range: 'bytes=8-' });
  assert.deepEqual([open.status, open.text], [206, '89']);
  const clipped = await fetchFile(server, 'hamlet', url, { range: 'bytes=8-100' });
  assert.deepEqual([clipped.status, clipped.text, clipped.headers['content-range']], [206, '89', 'bytes 8-9/10']);
  const several = await fetchFile(server, 'hamlet', url, { range: 'bytes=0-1,4-5' });
  assert.deepEqual([several.status, several.text], [200, '0123456789']);
  const beyond = await fetchFile(server, 'hamlet', url, { range: 'bytes=10-' });
  assertError(beyond, 416, 'BAD_REQUEST', 'Requested range not satisfiable');
  assert.equal(beyond.headers['content-range'], 'bytes */10');
  const head = await fetchFile(server, 'hamlet', url, {}, 'HEAD');
  assert.deepEqual([head.status, head.headers['content-length'], head.text], [200, '10', '']);
});

test('temporary URLs: through the API with credentials, then usable without for a while', async () => {
  const url = await uploaded(server, 'hamlet', 'report.txt', 'the report');
  const apiPath = `/api/v1${url}`;
  const res = await fetchFile(server, 'hamlet', apiPath);
  const body = assertSuccess(res);
  assertMatchesSchema('/user_uploads/{realm_id_str}/{filename}', 'get', body);
  assert.match(body.url, /^\/user_uploads\/temporary\/[^/]+\/report\.txt$/);
  const file = await fetchFile(server, null, body.url);
  assert.deepEqual([file.status, file.text], [200, 'the report']);

  assertError(await fetchFile(server, 'cordelia', apiPath), 404, 'BAD_REQUEST', 'This file does not exist or has been deleted.');
  assertError(await fetchFile(server, null, apiPath), 401, 'UNAUTHORIZED', 'Not logged in: API authentication or user session required');
  const token = body.url.split('/')[3];
  assertError(await fetchFile(server, null, body.url.replace(/report\.txt$/, 'other.txt')), 400, 'BAD_REQUEST', 'Invalid filename');
  const forged = token.slice(0, -2) + (token.endsWith('AA') ? 'BB' : 'AA');
  assertError(await fetchFile(server, null, `/user_uploads/temporary/${forged}/report.txt`), 400, 'BAD_REQUEST', 'Invalid token');
  assertError(await fetchFile(server, null, '/user_uploads/temporary/garbage/report.txt'), 400, 'BAD_REQUEST', 'Invalid token');
});

test('register reports the limits as configured', async () => {
  const reg = await server.as('hamlet').post('/register', { fetch_event_types: ['realm'] });
  assert.equal(reg.body.max_file_upload_size_mib, 1);
  assert.equal(reg.body.realm_upload_quota_mib, 3);
  assert.equal(reg.body.max_avatar_file_size_mib, 5);
});

// Last: it fills the organization's quota.
test('the organization quota counts every upload and frees space on deletion', async () => {
  const used = (await server.as('hamlet').get('/attachments')).body.upload_space_used as number;
  const chunk = Buffer.alloc(900_000, 'q');
  let ids: number[] = [];
  const room = Math.floor((3 * MIB - used) / chunk.length);
  for (let i = 0; i < room; i++) assert.equal((await upload(server, 'cordelia', [{ name: `q${i}.bin`, data: chunk }])).status, 200);
  assertError(
    await upload(server, 'hamlet', [{ name: 'over.bin', data: chunk }]),
    400, 'REALM_UPLOAD_QUOTA', "Upload would exceed your organization's upload quota.",
  );
  ids = ((await server.as('cordelia').get('/attachments')).body.attachments as { id: number }[]).map((a) => a.id);
  assertSuccess(await server.as('cordelia').delete(`/attachments/${ids[0]}`));
  assert.equal((await upload(server, 'hamlet', [{ name: 'fits.bin', data: chunk }])).status, 200);
});
