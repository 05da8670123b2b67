// The permission matrix: every declared endpoint against every kind of caller — owner, administrator, moderator,
// member, guest, bot, a deactivated user, a user of another organization and no credentials. What needs no
// role knowledge is derived from the route declarations (their auth mode); the rest is written out per endpoint
// in helpers/permission-cases.ts.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { allRoutes } from '../src/routes/index.js';
import { fullPath } from '../src/http/route.js';
import { Client, type Reply } from './helpers/client.js';
import { startTestServer, PASSWORD, type TestServer } from './helpers/server.js';
import { CASES, Fixtures, ROLES, sendForm, sendTus, type Case, type Caller, type Outcome, type Req } from './helpers/permission-cases.js';

let server: TestServer;
let fixtures: Fixtures;
let deactivated: Client;
let foreign: Client; // another organization's user, presenting their credentials here

before(async () => {
  server = await startTestServer({ env: { PARLANCE_EMAIL_GATEWAY_DOMAIN: 'gateway.example' } });
  fixtures = new Fixtures(server);
  await fixtures.setUp();
  const email = 'gone@zulip.example.com';
  const id = (await fixtures.ok(server.as('iago').post('/users', { email, password: PASSWORD, full_name: 'Gone' }))).user_id;
  const apiKey = (await fixtures.ok(server.anon().post('/fetch_api_key', { username: email, password: PASSWORD }))).api_key;
  await fixtures.ok(server.as('iago').delete(`/users/${id}`));
  deactivated = new Client(server.url, { email, apiKey });
  foreign = new Client(server.url, { email: server.users.lear.email, apiKey: server.users.lear.apiKey });
});
after(() => server.close());

const routes = allRoutes().map((r) => ({ key: `${r.method} ${fullPath(r)}`, method: r.method, path: fullPath(r), auth: r.auth }));

// Case paths are relative to /api/v1 except the few routes outside it.
const OUTSIDE_API = /^\/(health|user_avatars|user_uploads|avatar|join|static|accounts|api)\b/;
function call(client: Client, method: string, req: Omit<Req, 'method'>): Promise<Reply> {
  const full = OUTSIDE_API.test(req.path) ? req.path : `/api/v1${req.path}`;
  if (req.tus) return sendTus(client, method, full, req.tus.headers, req.tus.body);
  if (req.multipart) return sendForm(client, method, full, req.multipart);
  return client.request(method, full, req.params as never, { root: true });
}

function mismatch(reply: Reply, expected: Outcome, html = false): string | null {
  const [status, code, msg] = typeof expected === 'number' ? [expected, undefined, undefined] : expected;
  if (reply.status !== status) return `expected ${status}, got ${reply.status} ${reply.text.slice(0, 200)}`;
  if (reply.method === 'HEAD') return null; // no body to look into
  if (html) return String(reply.headers['content-type']).startsWith('text/html') ? null : `not a page: ${reply.text.slice(0, 200)}`;
  if (status >= 400) {
    if (reply.body?.result !== 'error') return `not the error envelope: ${reply.text.slice(0, 200)}`;
    if (code && reply.body.code !== code) return `expected code ${code}, got ${reply.text.slice(0, 200)}`;
    if (msg && msg !== '*' && reply.body.msg !== msg) return `expected "${msg}", got ${reply.text.slice(0, 200)}`;
  } else if (status === 200 && reply.body?.result !== undefined && reply.body.result !== 'success') {
    return `not the success envelope: ${reply.text.slice(0, 200)}`;
  }
  return null;
}

function expectedFor(c: Case, who: Caller): Outcome {
  if (who === 'anon') return c.anon ?? 401;
  if (who === 'other') return c.other ?? expectedFor(c, 'owner');
  return (c.ok ?? ROLES).includes(who) ? (c.success ?? 200) : (c.byRole?.[who] ?? c.denied ?? 400);
}

test('every declared endpoint has explicit expectations', () => {
  const covered = new Set(CASES.map((c) => c.key));
  const missing = routes.filter((r) => !covered.has(r.key)).map((r) => r.key);
  assert.deepEqual(missing, [], 'add the new endpoints to test/helpers/permission-cases.ts');
  const declared = new Set(routes.map((r) => r.key));
  assert.deepEqual(CASES.filter((c) => !declared.has(c.key)).map((c) => c.key), [], 'cases for endpoints that are not declared');
});

test('derived from the auth mode: no credentials, a deactivated user and a foreign user are refused alike', async () => {
  const failures: string[] = [];
  const unauthorized: Outcome = [401, 'UNAUTHORIZED', 'Not logged in: API authentication or user session required'];
  for (const r of routes) {
    const path = r.path.replace(/\{\w+\}/g, '1');
    const expect: [string, Client, Outcome][] = [];
    if (r.auth === 'user') expect.push(['anonymous', server.anon(), unauthorized]);
    if (r.auth === 'user' || r.auth === 'optional') {
      expect.push(['deactivated', deactivated, [401, 'USER_DEACTIVATED', 'Account is deactivated']]);
      expect.push(['foreign', foreign, [401, 'UNAUTHORIZED', 'Invalid API key']]);
    }
    for (const [who, client, outcome] of expect) {
      const reply = await call(client, r.method, { path, params: {} });
      const wrong = mismatch(reply, outcome);
      if (wrong) failures.push(`${r.key} as ${who}: ${wrong}`);
      if (reply.status === 401 && r.auth === 'user' && reply.headers['www-authenticate'] !== 'Basic realm="zulip"') failures.push(`${r.key} as ${who}: no challenge`);
    }
  }
  failures.forEach((f) => console.error(f));
  assert.equal(failures.length, 0, `${failures.length} outcomes differ`);
});

test('each role, and the owner of another organization, gets the outcome the contract gives', async () => {
  const failures: string[] = [];
  const auth = new Map(routes.map((r) => [r.key, r.auth]));
  for (const c of CASES) {
    const mode = auth.get(c.key);
    const callers: Caller[] = [...ROLES, 'other'];
    if (mode !== 'user' && mode !== 'optional') callers.push('anon');
    else if (c.anon) callers.push('anon');
    for (const who of callers) {
      const label = `${c.key}${c.label ? ` (${c.label})` : ''} as ${who}`;
      try {
        const req = await c.request(fixtures, who);
        const method = req.method ?? c.key.split(' ')[0];
        const reply = await call(fixtures.client(who), method, req);
        const wrong = mismatch(reply, expectedFor(c, who), c.html);
        if (wrong) failures.push(`${label}: ${wrong}`);
        else if (reply.status < 300) c.check?.(reply, who, fixtures);
      } catch (err) {
        failures.push(`${label}: ${(err as Error).message}`);
      }
    }
  }
  failures.forEach((f) => console.error(f));
  assert.equal(failures.length, 0, `${failures.length} outcomes differ`);
});
