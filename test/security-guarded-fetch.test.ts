// The guarded server-side fetcher (src/lib/guarded-fetch.ts): no private, loopback or link-local address is
// reached — by address, by a name resolving to one, or through a redirect — unless listed in the allow-list;
// responses are bounded in size and fetches in time. Only loopback servers of this test are contacted.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { FetchRefused, guardedFetch, isPublicAddress, parseAllowList } from '../src/lib/guarded-fetch.js';

describe('guarded fetch', () => {
  let server: http.Server;
  let port = 0;
  before(async () => {
    server = http.createServer((req, res) => {
      if (req.url === '/ok') return res.end('hello');
      if (req.url === '/to-ip') {
        res.writeHead(302, { location: `http://127.0.0.1:${port}/ok` });
        return res.end();
      }
      if (req.url === '/loop') {
        res.writeHead(302, { location: '/loop' });
        return res.end();
      }
      if (req.url === '/big') return res.end(Buffer.alloc(2 * 1024 * 1024, 'x'));
      if (req.url === '/big-chunked') {
        res.writeHead(200, { 'transfer-encoding': 'chunked' });
        for (let i = 0; i < 40; i++) res.write(Buffer.alloc(64 * 1024, 'x'));
        return res.end();
      }
      if (req.url === '/slow') return; // never answers
      res.statusCode = 404;
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  const refused = async (p: Promise<unknown>, reason: FetchRefused['reason']) => {
    await assert.rejects(p, (err: unknown) => err instanceof FetchRefused && err.reason === reason);
  };

  test('non-public addresses are refused, whatever their spelling', () => {
    for (const a of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '255.255.255.255', '224.0.0.1',
      '::1', '::', 'fe80::1', 'fc00::1', 'fd12::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', 'ff02::1']) {
      assert.equal(isPublicAddress(a), false, a);
    }
    for (const a of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) assert.equal(isPublicAddress(a), true, a);
  });

  test('a loopback address, and a name resolving to one, are refused; listed ones are fetched', async () => {
    await refused(guardedFetch(`http://127.0.0.1:${port}/ok`, { allow: parseAllowList('') }), 'address');
    await refused(guardedFetch(`http://[::ffff:127.0.0.1]:${port}/ok`, { allow: parseAllowList('') }), 'address');
    await refused(guardedFetch(`http://localhost:${port}/ok`, { allow: parseAllowList('') }), 'address');
    const byRange = await guardedFetch(`http://127.0.0.1:${port}/ok`, { allow: parseAllowList('10.0.0.0/8, 127.0.0.0/8') });
    assert.deepEqual([byRange.status, byRange.body.toString()], [200, 'hello']);
    const byName = await guardedFetch(`http://localhost:${port}/ok`, { allow: parseAllowList('localhost') });
    assert.equal(byName.body.toString(), 'hello');
  });

  test('each redirect is checked again, and their number is bounded', async () => {
    // The name is allowed, the address it redirects to is not.
    await refused(guardedFetch(`http://localhost:${port}/to-ip`, { allow: parseAllowList('localhost') }), 'address');
    const followed = await guardedFetch(`http://localhost:${port}/to-ip`, { allow: parseAllowList('127.0.0.1, ::1') });
    assert.deepEqual([followed.url, followed.body.toString()], [`http://127.0.0.1:${port}/ok`, 'hello']);
    await refused(guardedFetch(`http://127.0.0.1:${port}/loop`, { allow: parseAllowList('127.0.0.1'), maxRedirects: 3 }), 'redirects');
  });

  test('only http(s); sizes and time are bounded', async () => {
    const allow = parseAllowList('127.0.0.1');
    await refused(guardedFetch('ftp://127.0.0.1/x', { allow }), 'scheme');
    await refused(guardedFetch('file:///etc/passwd', { allow }), 'scheme');
    await refused(guardedFetch(`http://127.0.0.1:${port}/big`, { allow, maxBytes: 1024 * 1024 }), 'size');
    await refused(guardedFetch(`http://127.0.0.1:${port}/big-chunked`, { allow, maxBytes: 1024 * 1024 }), 'size');
    const started = Date.now();
    await refused(guardedFetch(`http://127.0.0.1:${port}/slow`, { allow, timeoutMs: 300 }), 'time');
    assert.ok(Date.now() - started < 5000);
  });
});
