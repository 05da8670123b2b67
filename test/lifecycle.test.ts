// The server process: the first start on an empty database creates an organization and prints its owner's
// credentials; SIGTERM lets in-flight requests finish and exits 0; data survives a restart.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { startTestServer, type TestServer } from './helpers/server.js';
import { Client, send, type Reply } from './helpers/client.js';
import { assertSuccess } from './helpers/assertions.js';

const OWNER_EMAIL = 'boss@parlance.example.org';
let server: TestServer;
let owner: { email: string; password: string; apiKey: string };

before(async () => {
  // A long grace period, so that a prompt exit shows the server did not wait for it.
  server = await startTestServer({ seed: false, env: { PARLANCE_OWNER_EMAIL: OWNER_EMAIL, PARLANCE_SHUTDOWN_GRACE_SECONDS: '30' } });
});
after(() => server?.close());

test('the first start on an empty database prints the owner\'s e-mail, password and API key, which work', async () => {
  const out = server.stdout;
  assert.match(out, /Created the organization "Parlance" and its owner:/);
  const email = /e-mail:\s+(\S+)/.exec(out)?.[1];
  const password = /password:\s+(\S+)/.exec(out)?.[1];
  const apiKey = /API key:\s+(\S+)/.exec(out)?.[1];
  assert.ok(email && password && apiKey, out);
  assert.equal(email, OWNER_EMAIL);
  assert.match(out, new RegExp(`curl -sSu ${email}:${apiKey} ${server.url}/api/v1/users/me`));
  owner = { email, password, apiKey };

  const me = assertSuccess(await new Client(server.url, { email, apiKey }).get('/users/me'));
  assert.deepEqual([me.email, me.role, me.is_owner], [email, 100, true]);
  const key = assertSuccess(await server.anon().post('/fetch_api_key', { username: email, password }));
  assert.equal(key.api_key, apiKey);
  assert.equal(assertSuccess(await server.anon().get('/server_settings')).realm_name, 'Parlance');
});

// Sends the headers and, once the server has read them (it answers `100 Continue`), the first half of a body;
// the rest when told: a request in flight. The connection is kept alive by the client (for a minute) as
// browsers and client libraries do.
async function slowRequest(body: string): Promise<{ finish(): void; reply: Promise<Reply>; agent: http.Agent }> {
  const url = new URL('/api/v1/fetch_api_key', server.url);
  const agent = new http.Agent({ keepAlive: true, timeout: 60_000 });
  const req = http.request(url, {
    agent,
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'content-length': String(Buffer.byteLength(body)),
      expect: '100-continue',
    },
  });
  const reply = new Promise<Reply>((resolve, reject) => {
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(text), text });
      });
    });
    req.on('error', reject);
  });
  reply.catch(() => {});
  const continued = new Promise<void>((resolve) => req.once('continue', resolve));
  req.flushHeaders();
  await continued;
  const half = Math.floor(body.length / 2);
  req.write(body.slice(0, half));
  return { finish: () => req.end(body.slice(half)), reply, agent };
}

test('SIGTERM lets an in-flight request complete, refuses new ones, and exits 0', async () => {
  assert.ok(owner, 'needs the credentials of the first test');
  const inFlight = await slowRequest(new URLSearchParams({ username: owner.email, password: owner.password }).toString());
  const exited = server.stop('SIGTERM');
  // New requests are refused once the server has begun closing.
  let late: unknown;
  for (const deadline = Date.now() + 5000; Date.now() < deadline; await sleep(100)) {
    late = await send('GET', new URL('/health', server.url), { connection: 'close' }).then((r) => r.status, (e: NodeJS.ErrnoException) => e.code);
    if (late !== 200) break;
  }
  assert.ok(late === 'ECONNREFUSED' || late === 'ECONNRESET' || late === 503, `a new request during shutdown got ${late}`);
  assert.equal(server.proc!.exitCode, null, 'still running while a request is in flight');

  inFlight.finish();
  const reply = await inFlight.reply;
  const answered = Date.now();
  assertSuccess(reply);
  assert.equal(reply.body.api_key, owner.apiKey);
  // The kept-alive connection must not hold the process open (the client would keep it for a minute, the
  // grace period is 30 s).
  assert.equal(reply.headers.connection, 'close');
  assert.equal(await exited, 0);
  assert.ok(Date.now() - answered < 5000, `exited ${Date.now() - answered} ms after the last response`);
  inFlight.agent.destroy();
});

test('data survives a restart, which creates no second organization', async () => {
  assert.ok(owner, 'needs the credentials of the first test');
  server.stdout = '';
  await server.start();
  assert.doesNotMatch(server.stdout, /Created the organization/);
  const me = assertSuccess(await new Client(server.url, { email: owner.email, apiKey: owner.apiKey }).get('/users/me'));
  assert.equal(me.email, owner.email);
  const users = assertSuccess(await new Client(server.url, { email: owner.email, apiKey: owner.apiKey }).get('/users')).members;
  assert.equal(users.length, 1);

  // SIGINT stops it cleanly too.
  assert.equal(await server.stop('SIGINT'), 0);
  server.stdout = '';
  await server.start();
  assertSuccess(await new Client(server.url, { email: owner.email, apiKey: owner.apiKey }).get('/users/me'));
});

test('a request still in flight after the grace period is cut off, and the process exits 0', async () => {
  assert.ok(owner, 'needs the credentials of the first test');
  assert.equal(await server.stop('SIGTERM'), 0);
  server.env.PARLANCE_SHUTDOWN_GRACE_SECONDS = '1';
  server.stdout = '';
  await server.start();
  const stuck = await slowRequest(new URLSearchParams({ username: owner.email, password: owner.password }).toString());
  const outcome = stuck.reply.then((r) => r.status, (e: NodeJS.ErrnoException) => e.code);
  const signalled = Date.now();
  assert.equal(await server.stop('SIGTERM'), 0);
  const took = Date.now() - signalled;
  assert.ok(took >= 900 && took < 5000, `exited ${took} ms after SIGTERM with a 1 s grace period`);
  assert.ok(['ECONNRESET', 'ECONNREFUSED'].includes(String(await outcome)) || (await outcome) === 503, `the cut request got ${await outcome}`);
  stuck.agent.destroy();
});
