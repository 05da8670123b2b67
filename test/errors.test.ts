// The error envelope for everything that goes wrong before or around a handler: unknown routes, wrong methods,
// oversized bodies, unsupported or malformed bodies, bad URLs. Always JSON with result, msg and code, never 5xx.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { startTestServer, type TestServer } from './helpers/server.js';
import { send, type Reply } from './helpers/client.js';
import { assertClientError, assertError, assertSuccess } from './helpers/assertions.js';

const MiB = 1024 * 1024;
let server: TestServer;
before(async () => {
  // Uploads up to 1 MiB, so request bodies up to 2 MiB.
  server = await startTestServer({ env: { PARLANCE_MAX_FILE_UPLOAD_SIZE_MIB: '1' } });
});
after(() => server?.close());

const url = (path: string) => new URL(path, server.url);

async function multipart(fields: Record<string, string | Blob>): Promise<{ body: Buffer; type: string }> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) {
    if (v instanceof Blob) form.append(k, v, 'upload.bin');
    else form.append(k, v);
  }
  const req = new Request('http://x/', { method: 'POST', body: form });
  return { body: Buffer.from(await req.arrayBuffer()), type: req.headers.get('content-type')! };
}

// Sends the body in chunks without a Content-Length (Transfer-Encoding: chunked), so the size is only known
// while reading it.
function sendChunked(path: string, headers: Record<string, string>, body: Buffer): Promise<Reply> {
  return sendChunkedTo(server, path, headers, body);
}

function sendChunkedTo(to: TestServer, path: string, headers: Record<string, string>, body: Buffer): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(path, to.url), { method: 'POST', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: any;
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed, text });
      });
    });
    // The server may answer and close before the whole body is written; the answer is what counts.
    req.on('error', (err) => setTimeout(() => reject(err), 1000).unref());
    for (let i = 0; i < body.length; i += 64 * 1024) req.write(body.subarray(i, i + 64 * 1024));
    req.end();
  });
}

test('every response has result and msg; msg is "" on success', async () => {
  const hamlet = server.as('hamlet');
  const replies = [
    await hamlet.get('/users/me'),
    await hamlet.get('/users'),
    await server.anon().get('/server_settings'),
    await server.anon().get('/health'),
    await hamlet.get('/nope'),
    await server.anon().get('/users/me'),
    await hamlet.get('/users/999999'),
    await server.anon().post('/fetch_api_key', {}),
  ];
  for (const r of replies) {
    assert.match(String(r.headers['content-type']), /^application\/json/, r.text);
    assert.ok(r.body.result === 'success' || r.body.result === 'error', r.text);
    assert.equal(typeof r.body.msg, 'string', r.text);
    if (r.body.result === 'success') assert.equal(r.body.msg, '');
    else assert.equal(typeof r.body.code, 'string', r.text);
  }
});

test('an unknown route is 404 in the envelope', async () => {
  for (const path of ['/api/v1/no_such_endpoint', '/api/v1/users/me/nothing/here', '/api/v2/users', '/no-api-here', '/json/no_such_endpoint']) {
    assertError(await send('GET', url(path), server.as('hamlet').headers()), 404, 'BAD_REQUEST', 'Not Found');
    assertError(await send('POST', url(path), {}), 404, 'BAD_REQUEST', 'Not Found');
  }
});

test('a wrong method is 405 with an Allow header', async () => {
  const hamlet = server.as('hamlet');
  const cases: [string, string, string[]][] = [
    ['PUT', '/users/me', ['DELETE', 'GET']],
    ['PATCH', '/users', ['GET', 'POST']],
    ['DELETE', '/users', ['GET', 'POST']],
    ['POST', '/server_settings', ['GET']],
    ['GET', '/fetch_api_key', ['POST']],
    ['POST', '/users/me', ['DELETE', 'GET']],
  ];
  for (const [method, path, allowed] of cases) {
    const reply = await hamlet.request(method, path);
    assertError(reply, 405, 'BAD_REQUEST', 'Method Not Allowed');
    assert.deepEqual(String(reply.headers.allow).split(/,\s*/).sort(), allowed, `${method} ${path}`);
    assert.deepEqual([...reply.body.allowed_methods].sort(), allowed);
  }
});

test('a body over the limit is 413, whatever its encoding', async () => {
  const big = 'x'.repeat(2 * MiB + 1024);
  const urlencoded = { 'content-type': 'application/x-www-form-urlencoded' };
  const tooLarge = (r: Reply) => assertError(r, 413, 'BAD_REQUEST', 'Request body is too large');

  tooLarge(await send('POST', url('/api/v1/fetch_api_key'), urlencoded, `username=${big}&password=x`));
  tooLarge(await sendChunked('/api/v1/fetch_api_key', urlencoded, Buffer.from(`username=${big}&password=x`)));
  tooLarge(await send('POST', url('/api/v1/fetch_api_key'), { 'content-type': 'application/json' }, JSON.stringify({ username: big })));

  const field = await multipart({ username: big, password: 'x' });
  tooLarge(await send('POST', url('/api/v1/fetch_api_key'), { 'content-type': field.type }, field.body));
  // Without a declared length the multipart parser must still stop at the limit, not cut the value short.
  tooLarge(await sendChunked('/api/v1/fetch_api_key', { 'content-type': field.type }, field.body));

  // A file over the upload size, in a body under the body limit, reaches the upload endpoint, which refuses it
  // with its own message.
  const file = await multipart({ file: new Blob([Buffer.alloc(1.5 * MiB)]) });
  const upload = await send('POST', url('/api/v1/user_uploads'), { ...server.as('hamlet').headers(), 'content-type': file.type }, file.body);
  assertError(upload, 400, 'BAD_REQUEST', "File is larger than this server's configured maximum upload size (1 MiB).");
  // Several files of undeclared length are held to the body limit together.
  const files = await multipart({ a: new Blob([Buffer.alloc(MiB)]), b: new Blob([Buffer.alloc(MiB)]), c: new Blob([Buffer.alloc(MiB)]) });
  tooLarge(await sendChunked('/api/v1/fetch_api_key', { 'content-type': files.type }, files.body));

  // A GET with a large body too (parameters may come in a GET body).
  tooLarge(await send('GET', url('/api/v1/users/me'), { ...server.as('hamlet').headers(), ...urlencoded }, `a=${big}`));
});

test('a body under the limit is accepted', async () => {
  const { email, password } = server.users.hamlet;
  const padding = 'y'.repeat(1.5 * MiB);
  const urlencoded = new URLSearchParams({ username: email, password, padding }).toString();
  const ok = assertSuccess(await send('POST', url('/api/v1/fetch_api_key'), { 'content-type': 'application/x-www-form-urlencoded' }, urlencoded));
  assert.deepEqual(ok.ignored_parameters_unsupported, ['padding']);
  const form = await multipart({ username: email, password, padding });
  assertSuccess(await send('POST', url('/api/v1/fetch_api_key'), { 'content-type': form.type }, form.body));
  assertSuccess(await sendChunked('/api/v1/fetch_api_key', { 'content-type': form.type }, form.body));
});

test('with a larger upload size, files may be larger but text bodies and fields stay within 2.5 MiB', async () => {
  const roomy = await startTestServer({ env: { PARLANCE_MAX_FILE_UPLOAD_SIZE_MIB: '5' } });
  try {
    const at = (path: string) => new URL(path, roomy.url);
    const text = 'z'.repeat(3 * MiB);
    const tooLarge = (r: Reply) => assertError(r, 413, 'BAD_REQUEST', 'Request body is too large');
    const hamlet = roomy.as('hamlet').headers();
    tooLarge(await send('POST', at('/api/v1/messages/render'), { ...hamlet, 'content-type': 'application/json' }, JSON.stringify({ content: text })));
    tooLarge(await send('POST', at('/api/v1/messages/render'), { ...hamlet, 'content-type': 'application/x-www-form-urlencoded' }, `content=${text}`));
    const field = await multipart({ content: text });
    tooLarge(await send('POST', at('/api/v1/messages/render'), { ...hamlet, 'content-type': field.type }, field.body));
    // Without a declared length, too.
    tooLarge(await sendChunkedTo(roomy, '/api/v1/messages/render', { ...hamlet, 'content-type': 'application/json' }, Buffer.from(JSON.stringify({ content: text }))));
    // A file of the same size is within the upload size.
    const file = await multipart({ file: new Blob([Buffer.alloc(3 * MiB)]) });
    const upload = assertSuccess(await send('POST', at('/api/v1/user_uploads'), { ...hamlet, 'content-type': file.type }, file.body));
    assert.match(String(upload.url), /^\/user_uploads\//);
    // Under the text limit, a body is read and answered by its endpoint.
    const long = await send('POST', at('/api/v1/messages/render'), { ...hamlet, 'content-type': 'application/json' }, JSON.stringify({ content: 'w'.repeat(2 * MiB) }));
    assert.notEqual(long.status, 413);
    assert.ok(long.status < 500, `${long.status}`);
  } finally {
    await roomy.close();
  }
});

test('an unsupported content type is 415', async () => {
  for (const type of ['application/xml', 'text/csv', 'image/png', 'application/octet-stream', '@@@']) {
    assertError(await send('POST', url('/api/v1/fetch_api_key'), { 'content-type': type }, 'username=a&password=b'), 415, 'BAD_REQUEST',
      /^Unsupported content type/);
  }
});

test('a malformed JSON body is 400 INVALID_JSON', async () => {
  for (const body of ['{', '{"username": "a",}', 'nul', '[1, 2', '{"a": "\u0000']) {
    assertError(await send('POST', url('/api/v1/fetch_api_key'), { 'content-type': 'application/json' }, body), 400, 'INVALID_JSON',
      'Malformed JSON');
  }
});

test('a truncated or malformed multipart body is a 4xx, never a 5xx', async () => {
  const { body, type } = await multipart({ username: 'someone@zulip.example.com', password: 'secret' });
  const boundary = /boundary=(.*)$/.exec(type)![1];
  const bodies: [string, Buffer | string][] = [
    [type, body.subarray(0, body.length - 20)],
    [type, body.subarray(0, Math.floor(body.length / 2))],
    [type, `--${boundary}\r\nContent-Disposition: form-data; name="username"\r\n\r\nabc`],
    [type, `--${boundary}\r\nContent-Disposition: form-data; name="username"\r\n`],
    [type, 'this is not multipart at all'],
    [type, `--${boundary}\r\nno-disposition: x\r\n\r\nvalue\r\n--${boundary}--\r\n`],
    ['multipart/form-data', body],
    ['multipart/form-data; boundary=other', body],
    [type, `--${boundary}\r\nContent-Disposition: form-data; name="__proto__"\r\n\r\nx\r\n--${boundary}--\r\n`],
  ];
  for (const [contentType, payload] of bodies) {
    const reply = await send('POST', url('/api/v1/fetch_api_key'), { 'content-type': contentType }, payload);
    assertClientError(reply);
  }
  // The common case is named exactly.
  assertError(await send('POST', url('/api/v1/fetch_api_key'), { 'content-type': type }, body.subarray(0, body.length - 20)), 400,
    'BAD_REQUEST', 'Malformed multipart body');
});

test('malformed URLs and headers are 4xx in the envelope', async () => {
  const auth = server.as('hamlet').headers();
  assertError(await send('GET', url('/api/v1/users/%E0%A4%A'), auth), 400, 'BAD_REQUEST', /not a valid url/);
  assertClientError(await send('GET', url('/api/v1/users?client_gravatar=%E0%A4%A'), auth));
  assertClientError(await send('GET', url('/api/v1/users/%00'), auth));
  assertClientError(await send('GET', url('/api/v1/users/me'), { authorization: 'Basic %%%not-base64%%%' }));
  assertClientError(await send('GET', url('/api/v1/users/me'), { authorization: 'Basic' }));
  assertClientError(await send('GET', url('/api/v1/users/me'), { authorization: '' }));
  assertClientError(await send('POST', url('/api/v1/fetch_api_key'), { 'content-type': 'application/x-www-form-urlencoded' }, '%%%=%%%&&=='));
});
