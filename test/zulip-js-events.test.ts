import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { startTestServer, ROOT, type TestServer } from './helpers/server.js';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

test('zulip-js callOnEachEvent receives an event', async () => {
  const u = server.users.hamlet;
  const child = spawn(process.execPath, [path.join(ROOT, 'test/helpers/zulip-js-listen.cjs'), server.url, u.email, u.apiKey, 'realm_user'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.setEncoding('utf8');
  const registered = new Promise<void>((resolve) => child.stdout.on('data', (d: string) => {
    out += d;
    if (out.includes('registering')) resolve();
  }));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  await registered;
  // Keep creating users until the listener's queue (registered at some point after 'registering') sees one.
  const creating: Promise<unknown>[] = [];
  const timer = setInterval(() => {
    creating.push(server.as('iago').post('/users', { email: `js${Date.now()}@zulip.example.com`, password: 'secret123', full_name: 'Js User' }));
  }, 300);
  const kill = setTimeout(() => child.kill(), 20_000);
  const code = await exited;
  clearInterval(timer);
  clearTimeout(kill);
  // Requests still under way would be cut by the server's close after the test.
  await Promise.allSettled(creating);
  assert.equal(code, 0, out);
  const event = JSON.parse(out.trim().split('\n').at(-1)!);
  assert.equal(event.type, 'realm_user');
  assert.equal(event.op, 'add');
  assert.equal(typeof event.id, 'number');
});
