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
