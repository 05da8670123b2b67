// Property-based hostile input: every declared endpoint gets random and malformed values in every encoding.
// Every answer must be a 4xx (or a success) in the JSON envelope, never a 5xx or a hang, and the server stays
// healthy afterwards.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import fc from 'fast-check';
import { startTestServer, type TestServer } from './helpers/server.js';
import { send } from './helpers/client.js';
import { consistencyProblems } from './helpers/consistency.js';

let server: TestServer;
before(async () => {
  server = await startTestServer();
  await server.as('hamlet').post('/users/me/subscriptions', { subscriptions: [{ name: 'Denmark' }] });
});
after(async () => {
  if (server.proc?.exitCode !== null) console.error(`server exited: ${server.stderr.slice(-3000)}`);
  await server.close();
});

// Taking these would lock the fuzzing user out, which tests nothing further.
const SKIP = new Set(['DELETE /api/v1/users/me', 'POST /api/v1/users/me/api_key/regenerate']);

interface Endpoint { method: string; path: string; params: { name: string; in: string }[] }

const deepJson = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const hostileValue = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary', maxLength: 50 }),
  fc.integer().map(String),
  fc.constantFrom('', 'true', 'false', 'null', '-1', '0', '1e309', '99999999999999999999999', '2147483648', 'NaN', '[]', '{}', '[1,2,3]', '["a"]',
    '{"new": 1}', '{"direct_members": [1], "direct_subgroups": []}', '{"a":', '[[', '"unterminated', 'a\u0000b', '\uffff\ud800', '%FF%FE',
    '[["channel","Denmark"]]', '[{"operator":"search","operand":"x"}]', 'x'.repeat(100_000), deepJson(5000), JSON.stringify({ x: 'y'.repeat(1000) }),
    '1e400', '-1e400', '9'.repeat(400), '-9007199254740993', '0x10', '1.5', '-0', '+1', ' 1', '1\n', 'Infinity', '[1e400]', '{"new": 1e400}',
    '{"a":'.repeat(3000), '[{"a":['.repeat(2000), '"\\u0000"', '["\\ud800"]', '\u202e\u200b'),
);

// Lone surrogates cannot be percent-encoded; the server gets their replacement character instead.
const enc = (v: string) => encodeURIComponent((v as string & { toWellFormed(): string }).toWellFormed());

// raw: urlencoded with invalid UTF-8 bytes as they are; typed: a JSON body with numbers, arrays and objects where
// the values parse as such; mislabeled: a urlencoded body labelled as JSON; unbounded: multipart without a
// boundary.
type Encoding = 'query' | 'urlencoded' | 'multipart' | 'json' | 'text' | 'bogus' | 'raw' | 'typed' | 'mislabeled' | 'unbounded';
const INVALID_UTF8 = Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xe2, 0x82, 0xed, 0xa0, 0x80, 0xf4, 0x90, 0x80, 0x80]);
// Deeply nested values stay text here (this process would overflow its stack re-encoding them); other encodings
// send them as they are.
const typed = (v: string) => {
  if (v.length > 1000) return v;
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return v;
  }
};

async function fire(e: Endpoint, values: Map<string, string>, encoding: Encoding, auth: boolean, duplicate: boolean) {
  let path = e.path;
  for (const p of e.params.filter((p) => p.in === 'path')) path = path.replace(`{${p.name}}`, enc(values.get(p.name) ?? '1'));
  const url = new URL(path, server.url);
  const headers: Record<string, string> = {};
  if (auth) headers.authorization = 'Basic ' + Buffer.from(`${server.users.hamlet.email}:${server.users.hamlet.apiKey}`).toString('base64');
  const entries = [...values].filter(([k]) => !e.params.some((p) => p.in === 'path' && p.name === k));
  if (duplicate && entries.length) entries.push(entries[0]);
  let body: Buffer | undefined;
  if (encoding === 'query') {
    for (const [k, v] of entries) url.searchParams.append(k, v);
  } else if (encoding === 'urlencoded') {
    body = Buffer.from(entries.map(([k, v]) => `${enc(k)}=${v === '%FF%FE' ? v : enc(v)}`).join('&'));
    headers['content-type'] = 'application/x-www-form-urlencoded';
  } else if (encoding === 'multipart') {
    const form = new FormData();
    for (const [k, v] of entries) form.append(k, v);
    const encoded = new Request('http://x/', { method: 'POST', body: form });
    const full = Buffer.from(await encoded.arrayBuffer());
    body = duplicate ? full.subarray(0, Math.max(0, full.length - 10)) : full; // sometimes truncated
    headers['content-type'] = encoded.headers.get('content-type')!;
  } else if (encoding === 'json') {
    body = Buffer.from(duplicate ? '{"truncated": ' : JSON.stringify(Object.fromEntries(entries)));
    headers['content-type'] = 'application/json';
  } else if (encoding === 'raw') {
    const parts = entries.map(([k, v]) => Buffer.concat([Buffer.from(`${enc(k)}=`), INVALID_UTF8, Buffer.from(enc(v))]));
    body = Buffer.concat(parts.flatMap((p, i) => (i ? [Buffer.from('&'), p] : [p])));
    headers['content-type'] = 'application/x-www-form-urlencoded';
  } else if (encoding === 'typed') {
    const json = Buffer.from(JSON.stringify(Object.fromEntries(entries.map(([k, v]) => [k, typed(v)]))));
    body = duplicate ? Buffer.concat([json.subarray(0, json.length >> 1), INVALID_UTF8]) : json;
    headers['content-type'] = 'application/json; charset=utf-8';
  } else if (encoding === 'mislabeled') {
    body = Buffer.from(entries.map(([k, v]) => `${enc(k)}=${enc(v)}`).join('&'));
    headers['content-type'] = 'application/json';
  } else if (encoding === 'unbounded') {
    body = Buffer.from(`--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n${entries[0]?.[1] ?? ''}\r\n--x--\r\n`);
    headers['content-type'] = duplicate ? 'multipart/form-data; boundary=' : 'multipart/form-data';
  } else if (encoding === 'text') {
    body = Buffer.from(entries.map(([k, v]) => `${k}=${v}`).join('\n'));
    headers['content-type'] = 'text/plain';
  } else {
    body = Buffer.from('\u0000\u0001garbage');
    headers['content-type'] = 'application/x-made-up';
  }
  // A URL past the server's header limit is answered (431) and the connection closed, possibly while the client
  // is still writing its body.
  const oversized = url.toString().length > 16_000;
  const reply = await Promise.race([
    send(e.method, url, headers, body).catch((err: NodeJS.ErrnoException) => {
      if (oversized && (err.code === 'ECONNRESET' || err.code === 'EPIPE')) return null;
      throw err;
    }),
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${e.method} ${url} hung`)), 10_000)),
  ]);
  if (!reply) return;
  const where = `${e.method} ${e.path} (${encoding}${auth ? '' : ', anonymous'}) ${JSON.stringify([...values]).slice(0, 300)}`;
  assert.ok(reply.status < 500, `${where} → ${reply.status} ${reply.text.slice(0, 300)}`);
  // The sign-up pages of invitation links answer people, in HTML, their errors included.
  if (e.path.startsWith('/join/') && String(reply.headers['content-type']).startsWith('text/html')) {
    assert.match(reply.text, /^<!DOCTYPE html>/, `${where}: not a page`);
    return;
  }
  // A HEAD answer has no body to hold the envelope.
  if (reply.status >= 400 && e.method !== 'HEAD') {
    assert.equal(reply.body?.result, 'error', `${where}: not the envelope: ${reply.text.slice(0, 200)}`);
    assert.equal(typeof reply.body.msg, 'string');
    assert.equal(typeof reply.body.code, 'string');
  }
}

test('random and malformed values to every endpoint never give a 5xx', async (t) => {
  const failures: string[] = [];
  t.after(() => failures.slice(0, 3).forEach((f) => console.error(`FAILURE ${f}`)));
  const doc = (await server.anon().get('/api/v1/openapi.json')).body as { paths: Record<string, Record<string, { parameters: Endpoint['params'] }>> };
  const endpoints: Endpoint[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      if (!SKIP.has(`${method.toUpperCase()} ${path}`)) endpoints.push({ method: method.toUpperCase(), path, params: op.parameters });
    }
  }
  assert.ok(endpoints.length > 50, `only ${endpoints.length} endpoints described`);
  const arbitrary = fc.record({
    endpoint: fc.constantFrom(...endpoints),
    values: fc.array(hostileValue, { minLength: 8, maxLength: 8 }),
    extra: fc.option(fc.tuple(fc.string({ maxLength: 20 }), hostileValue)),
    keep: fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
    encoding: fc.constantFrom<Encoding>('query', 'urlencoded', 'urlencoded', 'multipart', 'multipart', 'json', 'text', 'bogus', 'raw', 'typed', 'typed', 'mislabeled', 'unbounded'),
    auth: fc.boolean().map((b) => b || Math.random() < 0.8),
    duplicate: fc.boolean(),
  });
  await fc.assert(
    fc.asyncProperty(arbitrary, async ({ endpoint, values, extra, keep, encoding, auth, duplicate }) => {
      const chosen = new Map<string, string>();
      endpoint.params.forEach((p, i) => {
        if (p.in === 'path' || keep[i % keep.length]) chosen.set(p.name, values[i % values.length]);
      });
      if (extra) chosen.set(extra[0] || 'extra', extra[1]);
      await fire(endpoint, chosen, encoding, auth, duplicate).catch((err: Error) => {
        failures.push(err.message.slice(0, 2000));
        throw err;
      });
    }),
    { verbose: 1, numRuns: Number(process.env.PARLANCE_FUZZ_RUNS ?? 1500), seed: process.env.PARLANCE_FUZZ_SEED ? Number(process.env.PARLANCE_FUZZ_SEED) : undefined },
  );
  // Still healthy and consistent: the fuzzing user can work normally.
  assert.equal((await server.anon().get('/health')).status, 200);
  // (The fuzzing may have archived or left Denmark: a channel of its own.)
  await server.as('desdemona').post('/users/me/subscriptions', { subscriptions: [{ name: 'After fuzzing' }], principals: [server.users.hamlet.id] });
  const sent = await server.as('hamlet').post('/messages', { type: 'stream', to: 'After fuzzing', topic: 'after', content: 'still here' });
  assert.equal(sent.status, 200, sent.text);
  assert.deepEqual(await consistencyProblems(server), []);
});

test('absurdly nested and truncated JSON bodies are refused cleanly', async () => {
  const headers = {
    authorization: 'Basic ' + Buffer.from(`${server.users.hamlet.email}:${server.users.hamlet.apiKey}`).toString('base64'),
    'content-type': 'application/json',
  };
  const url = new URL('/api/v1/register', server.url);
  for (const depth of [1000, 100_000]) {
    const res = await send('POST', url, headers, Buffer.from(`{"narrow": ${'['.repeat(depth)}${']'.repeat(depth)}}`));
    assert.deepEqual([res.status, res.body.msg], [400, 'narrow is nested too deeply']);
  }
  const truncated = await send('POST', url, headers, Buffer.from('{"narrow": [['));
  assert.deepEqual([truncated.status, truncated.body.code], [400, 'INVALID_JSON']);
  const long = await send('GET', new URL(`/api/v1/users/me?x=${'a'.repeat(70_000)}`, server.url), headers);
  assert.deepEqual([long.status, long.body.result], [431, 'error']);
});

test('narrows of a thousand terms and lists of 40,000 ids are 400, not a query the database refuses', async () => {
  const hamlet = server.as('hamlet');
  const narrow = Array.from({ length: 1000 }, (_, i) => ['topic', `t${i}`]);
  const window = { anchor: 'newest', num_before: 1, num_after: 0 };
  for (const [method, path, params] of [
    ['GET', '/messages', { ...window, narrow }], ['POST', '/register', { narrow }], ['GET', '/messages/matches_narrow', { msg_ids: [1], narrow }],
    ['POST', '/messages/flags/narrow', { ...window, narrow, op: 'add', flag: 'read' }],
  ] as const) {
    const res = await hamlet.request(method, path, params, { encoding: 'urlencoded' });
    assert.deepEqual([res.status, res.body.code, res.body.msg], [400, 'BAD_NARROW', 'Invalid narrow: more than 100 terms'], `${method} ${path}`);
  }
  const ids = Array.from({ length: 40_000 }, (_, i) => i + 1);
  for (const [method, path, params, name] of [
    ['POST', '/messages/flags', { messages: ids, op: 'add', flag: 'read' }, 'messages'], ['GET', '/messages/matches_narrow', { msg_ids: ids, narrow: [] }, 'msg_ids'],
  ] as const) {
    const res = await hamlet.request(method, path, params, { encoding: 'urlencoded' });
    assert.deepEqual([res.status, res.body.msg], [400, `${name} has too many items (limit: 10000)`], `${method} ${path}`);
  }
});

test('hostile headers: invalid UTF-8 and odd credentials and host names are 4xx in the envelope', async () => {
  const url = new URL('/api/v1/users/me', server.url);
  const creds = (s: string | Buffer) => 'Basic ' + Buffer.from(s).toString('base64');
  const cases: Record<string, string>[] = [
    { authorization: creds(Buffer.concat([Buffer.from('hamlet@zulip.example.com:'), Buffer.from([0xff, 0xfe, 0x00])])) },
    { authorization: creds(Buffer.from([0xff, 0x3a, 0xfe])) },
    { authorization: creds(`${'a'.repeat(5000)}:${'b'.repeat(5000)}`) },
    { authorization: 'Basic !!!not-base64!!!' },
    { authorization: 'Basic' },
    { authorization: 'Bearer x' },
    { authorization: creds(`${server.users.hamlet.email}\u0000:${server.users.hamlet.apiKey}`) },
    { host: `${'a'.repeat(200)}.example.com` },
    { host: '..' },
    { host: '[::1' },
    { host: 'lear.' },
  ];
  for (const headers of cases) {
    const res = await send('GET', url, headers);
    assert.ok(res.status >= 400 && res.status < 500, `${JSON.stringify(headers).slice(0, 100)} → ${res.status} ${res.text}`);
    assert.equal(res.body?.result, 'error', res.text);
  }
  // Raw bytes in the path and the query string (not percent-encoded) never reach a handler as text.
  const raw = await new Promise<string>((resolve, reject) => {
    const socket = net.connect({ port: Number(new URL(server.url).port), host: '127.0.0.1' });
    let answer = '';
    socket.on('data', (d: Buffer) => (answer += d.toString('latin1'))).on('close', () => resolve(answer)).on('error', reject);
    socket.end(Buffer.concat([Buffer.from('GET /api/v1/users/'), Buffer.from([0xff, 0xfe]), Buffer.from('?x='), Buffer.from([0xc3, 0x28]), Buffer.from(' HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')]));
  });
  assert.match(raw, /^HTTP\/1.1 4\d\d /, raw);
});
