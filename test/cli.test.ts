// The `parlance` command line: create-realm and create-user, run as real processes against the data of a
// server that is running, whose API must see the result at once.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { PASSWORD, startTestServer, type TestServer } from './helpers/server.js';
import { runCli, type Run } from './helpers/cli.js';
import { Client } from './helpers/client.js';
import { assertError, assertSuccess } from './helpers/assertions.js';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server?.close());

const cli = (...args: string[]) => runCli(server.db, ...args);

function json(run: Run): any {
  assert.equal(run.code, 0, `exit ${run.code}\n${run.stdout}\n${run.stderr}`);
  const lines = run.stdout.trim().split('\n');
  assert.equal(lines.length, 1, `one line of JSON expected:\n${run.stdout}`);
  return JSON.parse(lines[0]);
}

const hostFor = (subdomain: string) => `${subdomain}.${new URL(server.url).host}`;

test('create-realm --json prints {realm_id, user_id, email, api_key}; the owner can use the running server', async () => {
  const out = json(await cli('create-realm', '--name', 'Elsinore', '--subdomain', 'elsinore', '--owner-email', 'claudius@elsinore.example.com',
    '--owner-name', 'Claudius', '--owner-password', 'poison in the ear', '--json'));
  assert.deepEqual(Object.keys(out).sort(), ['api_key', 'email', 'realm_id', 'user_id']);
  assert.ok(Number.isInteger(out.realm_id) && Number.isInteger(out.user_id));
  assert.equal(out.email, 'claudius@elsinore.example.com');
  assert.match(out.api_key, /^[A-Za-z0-9]{32}$/);

  const host = hostFor('elsinore');
  const owner = new Client(server.url, { email: out.email, apiKey: out.api_key }, 'urlencoded', host);
  const me = assertSuccess(await owner.get('/users/me'));
  assert.deepEqual([me.user_id, me.role, me.is_owner, me.full_name], [out.user_id, 100, true, 'Claudius']);
  const settings = assertSuccess(await new Client(server.url, undefined, 'urlencoded', host).get('/server_settings'));
  assert.equal(settings.realm_name, 'Elsinore');
  const key = assertSuccess(await new Client(server.url, undefined, 'urlencoded', host).post('/fetch_api_key', { username: out.email, password: 'poison in the ear' }));
  assert.equal(key.api_key, out.api_key);
  // The new organization is separate from the default one.
  assertError(await owner.get(`/users/${server.users.hamlet.id}`), 400, 'BAD_REQUEST', 'No such user');
  assertError(await server.as('hamlet').get(`/users/${out.user_id}`), 400, 'BAD_REQUEST', 'No such user');

  // A subdomain is taken once.
  const again = await cli('create-realm', '--name', 'Elsinore 2', '--subdomain', 'elsinore', '--owner-email', 'x@elsinore.example.com',
    '--owner-name', 'Xena', '--owner-password', 'secret123', '--json');
  assert.equal(again.code, 1, again.stdout + again.stderr);
  assert.match(again.stderr, /Subdomain 'elsinore' is already in use/);
  assert.equal(again.stdout, '');
});

test('create-user --json prints {user_id, email, api_key}; each role, usable at once', async () => {
  const roles = { owner: 100, administrator: 200, moderator: 300, member: 400, guest: 600 } as const;
  for (const [role, value] of Object.entries(roles)) {
    const out = json(await cli('create-user', '--email', `cli-${role}@zulip.example.com`, '--name', `CLI ${role}`, '--password', PASSWORD,
      '--role', role, '--json'));
    assert.deepEqual(Object.keys(out).sort(), ['api_key', 'email', 'user_id']);
    assert.equal(out.email, `cli-${role}@zulip.example.com`);
    const me = assertSuccess(await new Client(server.url, { email: out.email, apiKey: out.api_key }).get('/users/me'));
    assert.deepEqual([me.user_id, me.role, me.is_bot, me.full_name], [out.user_id, value, false, `CLI ${role}`]);
    const key = assertSuccess(await server.anon().post('/fetch_api_key', { username: out.email, password: PASSWORD }));
    assert.equal(key.api_key, out.api_key);
  }
  const members = assertSuccess(await server.as('hamlet').get('/users')).members.map((m: { email: string }) => m.email);
  for (const role of Object.keys(roles)) assert.ok(members.includes(`cli-${role}@zulip.example.com`), role);
});

test('create-user --realm S creates the user in that organization', async () => {
  const out = json(await cli('create-user', '--email', 'goneril@lear.example.com', '--name', 'Goneril', '--password', PASSWORD,
    '--role', 'member', '--realm', 'lear', '--json'));
  const me = assertSuccess(await new Client(server.url, { email: out.email, apiKey: out.api_key }, 'urlencoded', hostFor('lear')).get('/users/me'));
  assert.equal(me.user_id, out.user_id);
  assertError(await new Client(server.url, { email: out.email, apiKey: out.api_key }).get('/users/me'), 401, 'UNAUTHORIZED', 'Invalid API key');
  const missing = await cli('create-user', '--email', 'x@zulip.example.com', '--name', 'Xena', '--password', PASSWORD, '--realm', 'nowhere');
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /No organization with subdomain 'nowhere'/);
});

test('create-user --bot creates a bot, which needs no password', async () => {
  const out = json(await cli('create-user', '--bot', '--email', 'cli-bot@zulip.example.com', '--name', 'CLI Bot', '--role', 'member', '--json'));
  const bot = new Client(server.url, { email: out.email, apiKey: out.api_key });
  const me = assertSuccess(await bot.get('/users/me'));
  assert.deepEqual([me.user_id, me.is_bot], [out.user_id, true]);
  const seen = assertSuccess(await server.as('hamlet').get(`/users/${out.user_id}`)).user;
  assert.equal(seen.is_bot, true);
  assert.equal(seen.bot_type, 1);
  // A bot cannot log in with a password.
  assertError(await server.anon().post('/fetch_api_key', { username: out.email, password: '' }), 401, 'AUTHENTICATION_FAILED',
    'Your username or password is incorrect');
});

test('without --json the commands print a line with the API key', async () => {
  const run = await cli('create-user', '--email', 'plain@zulip.example.com', '--name', 'Plain', '--password', PASSWORD);
  assert.equal(run.code, 0, run.stderr);
  const id = assertSuccess(await server.as('iago').get('/users/plain@zulip.example.com')).user.user_id;
  assert.match(run.stdout, new RegExp(`Created user plain@zulip\\.example\\.com \\(user ${id}\\), API key [A-Za-z0-9]{32}`));
  const role = assertSuccess(await server.as('iago').get(`/users/${id}`)).user.role;
  assert.equal(role, 400, '--role defaults to member');
});

test('bad arguments exit non-zero and create nothing', async () => {
  const cases: [string[], RegExp][] = [
    [['create-user', '--email', 'bad-role@zulip.example.com', '--name', 'Xena', '--password', PASSWORD, '--role', 'king'], /--role must be one of/],
    [['create-user', '--email', 'no-password@zulip.example.com', '--name', 'Xena', '--role', 'member'], /missing --password/],
    [['create-user', '--name', 'Xena', '--password', PASSWORD], /missing --email/],
    [['create-user', '--email', server.users.hamlet.email, '--name', 'Xena', '--password', PASSWORD], /already in use/],
    [['create-user', '--email', 'not-an-email', '--name', 'Xena', '--password', PASSWORD], /Invalid email/],
    [['create-user', '--email', 'weak@zulip.example.com', '--name', 'Xena', '--password', 'abc'], /too weak/],
    [['create-user', '--email', 'flag@zulip.example.com', '--name', 'Xena', '--password', PASSWORD, '--no-such-flag'], /no-such-flag/],
    [['create-realm', '--name', 'No owner'], /missing --owner-email/],
    [['create-realm', '--name', 'Bad', '--subdomain', 'Not Valid!', '--owner-email', 'o@bad.example.com', '--owner-name', 'Olga', '--owner-password', PASSWORD],
      /Subdomains can only have/],
  ];
  // None of these writes, so they may run at once (see the last test).
  const runs = await Promise.all(cases.map(([args]) => cli(...args)));
  for (const [i, run] of runs.entries()) {
    assert.notEqual(run.code, 0, `${cases[i][0].join(' ')}: ${run.stdout}`);
    assert.match(run.stderr, cases[i][1]);
    assert.doesNotMatch(run.stderr, /\n\s+at /, 'no stack trace');
  }
  for (const email of ['bad-role', 'no-password', 'weak', 'flag']) {
    assertError(await server.as('iago').get(`/users/${email}@zulip.example.com`), 400, 'BAD_REQUEST', 'No such user');
  }
  const unknown = await cli('frobnicate');
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /unknown command frobnicate/);
});

test('several create-user processes at once all succeed', async () => {
  const runs = await Promise.all([1, 2, 3, 4, 5, 6].map((i) =>
    cli('create-user', '--email', `parallel-${i}@zulip.example.com`, '--name', `Parallel ${i}`, '--password', PASSWORD, '--json')));
  for (const run of runs) json(run);
});
