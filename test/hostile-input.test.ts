// Property-based hostile input: every declared endpoint gets random and malformed values in every encoding.
// Every answer must be a 4xx (or a success) in the JSON envelope, never a 5xx or a hang, and the server stays
// healthy afterwards.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { startTestServer, type TestServer } from './helpers/server.js';
import { send } from './helpers/client.js';

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
const SKIP = new Set(['DELETE /api/v1/users/me']);

interface Endpoint { method: string; path: string; params: { name: string; in: string }[] }

const deepJson = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const hostileValue = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary', maxLength: 50 }),
  fc.integer().map(String),
  fc.constantFrom('', 'true', 'false', 'null', '-1', '0', '1e309', '99999999999999999999999', '2147483648', 'NaN', '[]', '{}', '[1,2,3]', '["a"]',
    '{"new": 1}', '{"direct_members": [1], "direct_subgroups": []}', '{"a":', '[[', '"unterminated', 'a\u0000b', '\uffff\ud800', '%FF%FE',
    '[["channel","Denmark"]]', '[{"operator":"search","operand":"x"}]', 'x'.repeat(100_000), deepJson(5000), JSON.stringify({ x: 'y'.repeat(1000) })),
);

// Lone surrogates cannot be percent-encoded; the server gets their replacement character instead.
const enc = (v: string) => encodeURIComponent((v as string & { toWellFormed(): string }).toWellFormed());

type Encoding = 'query' | 'urlencoded' | 'multipart' | 'json' | 'text' | 'bogus';

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
    encoding: fc.constantFrom<Encoding>('query', 'urlencoded', 'urlencoded', 'multipart', 'multipart', 'json', 'text', 'bogus'),
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
  const sent = await server.as('hamlet').post('/messages', { type: 'stream', to: 'Denmark', topic: 'after', content: 'still here' });
  assert.equal(sent.status, 200, sent.text);
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
