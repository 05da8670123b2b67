// Answers of megabytes go out in parts (src/http/large-body.ts): the client receives exactly the text, whatever
// characters fall at the parts' edges (a surrogate pair split in two would arrive as two replacement characters).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { sendJsonText } from '../src/http/large-body.js';

test('a 3 MB answer full of characters outside the BMP arrives whole and exact, chunked', async () => {
  const text = JSON.stringify({ result: 'success', msg: '', names: Array.from({ length: 400_000 }, (_, i) => `${i % 7 ? 'a' : ''}😀é${i}`) });
  assert.ok(text.length > 3_000_000);
  const app = Fastify();
  // A pair of surrogates exactly across the first edge (parts are 1 Mi code units).
  const edge = `{"a":"${'x'.repeat(1024 * 1024 - 7)}😀${'y'.repeat(1_100_000)}"}`;
  app.get('/big', (_req, reply) => sendJsonText(reply, text));
  app.get('/edge', (_req, reply) => sendJsonText(reply, edge));
  app.get('/small', (_req, reply) => sendJsonText(reply, '{"result":"success","msg":""}'));
  try {
    const big = await app.inject({ method: 'GET', url: '/big' });
    assert.equal(big.statusCode, 200);
    assert.equal(big.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(big.headers['transfer-encoding'], 'chunked');
    assert.equal(big.body, text);
    assert.equal((await app.inject({ method: 'GET', url: '/edge' })).body, edge);
    const small = await app.inject({ method: 'GET', url: '/small' });
    assert.equal(small.headers['content-length'], String(small.body.length));
    assert.deepEqual(small.json(), { result: 'success', msg: '' });
  } finally {
    await app.close();
  }
});

test('bytes in parts arrive joined, exactly, with their length: over a real socket and through inject', async () => {
  const entries = Array.from({ length: 3000 }, (_, i) => `"${i}":{"active_timestamp":${1_700_000_000 + i},"idle_timestamp":${1_700_000_000 + i}}`);
  const parts = [Buffer.from('{"result":"success","msg":"","presences":{')];
  for (let i = 0; i < entries.length; i += 256) parts.push(Buffer.from(entries.slice(i, i + 256).join(',') + (i + 256 < entries.length ? ',' : '')));
  parts.push(Buffer.from('},"note":"é😀"}'));
  const whole = Buffer.concat(parts);
  assert.ok(whole.length > 64 << 10, 'past the size joined into one buffer');
  const app = Fastify();
  app.get('/parts', (_req, reply) => sendJsonText(reply, parts));
  app.get('/few', (_req, reply) => sendJsonText(reply, [Buffer.from('{"result":'), Buffer.from('"success"}')]));
  try {
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    const res = await fetch(`${url}/parts`);
    assert.equal(res.headers.get('content-length'), String(whole.length));
    assert.equal(res.headers.get('transfer-encoding'), null);
    assert.deepEqual(Buffer.from(await res.arrayBuffer()), whole);
    assert.equal(Object.keys((await (await fetch(`${url}/parts`)).json()).presences).length, 3000);
    const few = await app.inject({ method: 'GET', url: '/few' });
    assert.equal(few.headers['content-length'], '20');
    assert.deepEqual(few.json(), { result: 'success' });
  } finally {
    await app.close();
  }
});
