// The web app's sessions over HTTP: the login page and form at the reference's paths, the API under /json/ with
// the session cookie and a CSRF token on every write, logout, sessions ended by a password change or a
// deactivation, the app's page at / with its Content-Security-Policy, and sign-up landing in the app.
import { test, after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { send } from './helpers/client.js';
import { assertSuccess } from './helpers/assertions.js';
import { createChannel } from './helpers/messages.js';
import { withDb } from './helpers/direct-db.js';
import { form, logIn, SessionClient, setCookies } from './helpers/session.js';

let server: TestServer;
let channel: number;
before(async () => {
  server = await startTestServer();
  channel = await createChannel(server, 'hamlet', ['hamlet', 'cordelia']);
});
after(() => server?.close());

const at = (path: string) => new URL(path, server.url);
const learHost = () => `lear.${new URL(server.url).host}`;

function isPage(res: { status: number; headers: Record<string, unknown>; text: string }, status: number): void {
  assert.equal(res.status, status, res.text);
  assert.match(String(res.headers['content-type']), /^text\/html; charset=utf-8/);
  assert.doesNotMatch(res.text, /<script(?![^>]*\bsrc=)/i, 'no inline script');
  assert.match(String(res.headers['content-security-policy']), /frame-ancestors 'none'/);
  assert.doesNotMatch(String(res.headers['content-security-policy']), /unsafe-inline[^;]*;?\s*$|script-src[^;]*unsafe/);
}

describe('logging in', () => {
  test('GET /login/ shows the form posting username and password to /accounts/login/', async () => {
    const res = await send('GET', at('/login/'), {});
    isPage(res, 200);
    assert.match(res.text, /<form method="post" action="\/accounts\/login\/"/);
    assert.match(res.text, /name="username"/);
    assert.match(res.text, /name="password"/);
    assert.match(res.text, /Log in to Zulip Dev/);
    // Its one script (keeping the app's view across the login) is served by this site.
    const script = await send('GET', at('/static/login.js'), {});
    assert.equal(script.status, 200);
    assert.match(String(script.headers['content-type']), /^text\/javascript/);
  });

  test('a correct e-mail and password open a session: HttpOnly, SameSite=Lax cookie, and a CSRF cookie', async () => {
    const { email, password, id } = server.users.hamlet;
    const res = await form('POST', at('/accounts/login/'), { username: email, password, next: '/#narrow/dm/7-Mia' });
    assert.equal(res.status, 302, res.text);
    assert.equal(res.headers.location, '/#narrow/dm/7-Mia');
    const cookies = setCookies(res);
    const session = cookies.get('sessionid')!;
    assert.match(session.value, /^[A-Za-z0-9]{40}$/);
    assert.match(session.attrs, /HttpOnly/);
    assert.match(session.attrs, /SameSite=Lax/);
    assert.match(session.attrs, /Path=\//);
    assert.doesNotMatch(session.attrs, /Secure/, 'no Secure cookie over plain http');
    const csrf = cookies.get('csrftoken')!;
    assert.doesNotMatch(csrf.attrs, /HttpOnly/, 'the app reads the CSRF token');
    const client = new SessionClient(server.url, session.value, csrf.value);
    assert.equal(assertSuccess(await client.get('/users/me')).user_id, id);
  });

  test('behind an https proxy the cookies are Secure', async () => {
    const secure = await startTestServer({ env: { PARLANCE_TRUST_PROXY: 'true' } });
    try {
      const { email, password } = secure.users.hamlet;
      const res = await form('POST', new URL('/accounts/login/', secure.url), { username: email, password }, { 'x-forwarded-proto': 'https' });
      assert.equal(res.status, 302);
      for (const [, c] of setCookies(res)) assert.match(c.attrs, /Secure/);
    } finally {
      await secure.close();
    }
  });

  test('a wrong password shows the form again with an error, and sets no cookie', async () => {
    const res = await form('POST', at('/accounts/login/'), { username: server.users.cordelia.email, password: 'wrong' });
    isPage(res, 401);
    assert.match(res.text, /Incorrect e-mail address or password/);
    assert.equal(res.headers['set-cookie'], undefined);
  });

  test('failed logins share the fetch_api_key limit', async () => {
    const email = server.users.shiva.email;
    for (let i = 0; i < 5; i++) isPage(await form('POST', at('/accounts/login/'), { username: email, password: `wrong${i}` }), 401);
    const limited = await form('POST', at('/accounts/login/'), { username: email, password: server.users.shiva.password });
    isPage(limited, 429);
    assert.match(limited.text, /Too many failed attempts/);
    assert.ok(Number(limited.headers['retry-after']) > 0);
    // The API's exchange counts the same failures.
    assert.equal((await send('POST', new URL('/api/v1/fetch_api_key', server.url), { 'content-type': 'application/x-www-form-urlencoded' },
      new URLSearchParams({ username: email, password: server.users.shiva.password }).toString())).status, 429);
  });

  test('bots and deactivated users cannot log in', async () => {
    const bot = await form('POST', at('/accounts/login/'), { username: server.users.bot.email, password: server.users.bot.password });
    isPage(bot, 401);
  });

  test('a login form posted from another site is refused', async () => {
    const { email, password } = server.users.hamlet;
    const res = await form('POST', at('/accounts/login/'), { username: email, password }, { origin: 'https://evil.example.com' });
    isPage(res, 403);
    assert.equal(res.headers['set-cookie'], undefined);
  });

  test('`next` leads only to a path of this site', async () => {
    const { email, password } = server.users.hamlet;
    for (const next of ['//evil.example.com/', 'https://evil.example.com/', '/\\evil.example.com', 'javascript:alert(1)']) {
      const res = await form('POST', at('/accounts/login/'), { username: email, password, next });
      assert.equal(res.headers.location, '/', next);
    }
  });

  test('hostile form values never give a 5xx: the form comes back as a page', async () => {
    const { default: fc } = await import('fast-check');
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 300 }), fc.string({ unit: 'binary', maxLength: 300 }), fc.string({ maxLength: 300 }), async (username, password, next) => {
        const res = await form('POST', at('/accounts/login/'), { username, password, next });
        assert.ok(res.status < 500, `${res.status} ${res.text.slice(0, 200)}`);
        assert.match(res.text, /^<!DOCTYPE html>/);
      }),
      { numRuns: 60 },
    );
  });

  test('GET /login/ with a session goes straight to the app', async () => {
    const client = await logIn(server, 'hamlet');
    const res = await send('GET', at('/login/'), { cookie: client.cookie });
    assert.equal(res.status, 302);
    assert.equal(res.headers.location, '/');
  });
});

describe('/json/ with the session', () => {
  test('every API route answers under /json/ for a session, and not for Basic credentials', async () => {
    const client = await logIn(server, 'cordelia');
    assert.equal(assertSuccess(await client.get('/users/me')).user_id, server.users.cordelia.id);
    const subs = assertSuccess(await client.get('/users/me/subscriptions')).subscriptions;
    assert.ok(subs.some((s: { stream_id: number }) => s.stream_id === channel));
    // Basic credentials are for /api/v1/; a browser's /json/ takes the session only.
    const { email, apiKey } = server.users.cordelia;
    const basic = await send('GET', at('/json/users/me'), { authorization: 'Basic ' + Buffer.from(`${email}:${apiKey}`).toString('base64') });
    assert.equal(basic.status, 401);
    // And /api/v1/ does not take the session cookie.
    assert.equal((await send('GET', at('/api/v1/users/me'), { cookie: client.cookie })).status, 401);
  });

  test('without a session: 401 UNAUTHORIZED, without a Basic challenge (no password dialog)', async () => {
    const res = await send('GET', at('/json/users/me'), {});
    assert.equal(res.status, 401);
    assert.equal(res.body.code, 'UNAUTHORIZED');
    assert.equal(res.body.msg, 'Not logged in: API authentication or user session required');
    assert.doesNotMatch(String(res.headers['www-authenticate'] ?? ''), /Basic/);
    const bogus = await send('GET', at('/json/users/me'), { cookie: 'sessionid=' + 'A'.repeat(40) });
    assert.equal(bogus.status, 401);
  });

  test('a write without the CSRF token, or with another, is refused with 403 CSRF_FAILED', async () => {
    const client = await logIn(server, 'hamlet');
    const other = await logIn(server, 'hamlet');
    const message = { type: 'stream', to: channel, topic: 'csrf', content: 'hello' };
    for (const [csrf, reason] of [[false, 'CSRF token missing.'], ['x'.repeat(32), 'CSRF token incorrect.'], [other.csrf, 'CSRF token incorrect.']] as const) {
      const res = await client.post('/messages', message, { csrf });
      assert.equal(res.status, 403, res.text);
      assert.equal(res.body.code, 'CSRF_FAILED');
      assert.equal(res.body.msg, `CSRF error: ${reason}`);
    }
    const sent = assertSuccess(await client.post('/messages', message));
    for (const [method, path] of [['PATCH', '/settings'], ['PATCH', `/messages/${sent.id}`], ['DELETE', `/messages/${sent.id}`]] as const) {
      const res = await client.request(method, path, { enter_sends: true, content: 'changed' }, { csrf: false });
      assert.equal(res.status, 403, `${method} ${path}`);
    }
    assert.ok(sent.id > 0);
    // Reads need no token.
    assert.equal((await client.get(`/messages/${sent.id}`, {}, { csrf: false })).status, 200);
  });

  test('a cross-site form post carries no session (SameSite=Lax) and no token: refused', async () => {
    const client = await logIn(server, 'hamlet');
    // What a browser sends for another site's form: no cookies of ours, an Origin of theirs.
    const res = await send('POST', at('/json/messages'), { origin: 'https://evil.example.com', 'content-type': 'application/x-www-form-urlencoded' },
      new URLSearchParams({ type: 'stream', to: String(channel), topic: 'x', content: 'forged' }).toString());
    assert.equal(res.status, 403);
    assert.equal(res.body.code, 'CSRF_FAILED');
    // Even were the cookie sent (an old browser), the token is missing.
    const withCookie = await send('POST', at('/json/messages'), { cookie: `sessionid=${client.session}`, 'content-type': 'application/x-www-form-urlencoded' },
      new URLSearchParams({ type: 'stream', to: String(channel), topic: 'x', content: 'forged' }).toString());
    assert.equal(withCookie.status, 403);
    assert.equal(withCookie.body.code, 'CSRF_FAILED');
  });

  test('the event queue works through /json/: register, then poll', async () => {
    const client = await logIn(server, 'cordelia');
    const reg = assertSuccess(await client.post('/register', { event_types: ['message'] }));
    const sender = await logIn(server, 'hamlet');
    const poll = client.get('/events', { queue_id: reg.queue_id, last_event_id: reg.last_event_id });
    assertSuccess(await sender.post('/messages', { type: 'stream', to: channel, topic: 'live', content: 'through the session' }));
    const events = assertSuccess(await poll).events;
    assert.ok(events.some((e: { type: string; message?: { content: string } }) => e.type === 'message' && e.message!.content.includes('through the session')));
  });

  test('uploaded files and avatars are reached with the session cookie', async () => {
    const client = await logIn(server, 'hamlet');
    const body = new FormData();
    body.append('file', new Blob(['hello file']), 'hello.txt');
    const encoded = new Request('http://x/', { method: 'POST', body });
    const upload = await send('POST', at('/json/user_uploads'), { cookie: client.cookie, 'x-csrftoken': client.csrf, 'content-type': encoded.headers.get('content-type')! },
      Buffer.from(await encoded.arrayBuffer()));
    const url = assertSuccess(upload).url as string;
    const file = await send('GET', at(url), { cookie: client.cookie });
    assert.equal(file.status, 200);
    assert.equal(file.text, 'hello file');
    // Without a good session the file is as missing as for anyone else who may not see it.
    assert.equal((await send('GET', at(url), { cookie: `sessionid=${'B'.repeat(40)}` })).status, 404);
    const avatar = await send('GET', at(`/avatar/${server.users.cordelia.id}`), { cookie: client.cookie });
    assert.ok([200, 302].includes(avatar.status), String(avatar.status));
  });

  test('a session belongs to its organization', async () => {
    const client = await logIn(server, 'hamlet');
    const res = await send('GET', at('/json/users/me'), { cookie: client.cookie, host: learHost() });
    assert.equal(res.status, 401);
    const lear = await logIn(server, 'lear', server.users.lear.password, learHost());
    assert.equal(assertSuccess(await lear.get('/users/me')).user_id, server.users.lear.id);
  });

  test('an expired session is refused', async () => {
    const client = await logIn(server, 'cordelia');
    await withDb(server, (db) => db.updateTable('sessions').set({ expires: Math.floor(Date.now() / 1000) - 1 }).where('user_id', '=', server.users.cordelia.id).execute());
    assert.equal((await client.get('/users/me')).status, 401);
  });
});

describe('ending sessions', () => {
  test('logging out ends the session and clears the cookies', async () => {
    const client = await logIn(server, 'hamlet');
    const res = await send('POST', at('/accounts/logout/'), { cookie: client.cookie, 'x-csrftoken': client.csrf });
    assert.equal(res.status, 302);
    assert.equal(res.headers.location, '/login/');
    assert.equal(setCookies(res).get('sessionid')!.value, '');
    assert.equal((await client.get('/users/me')).status, 401);
    // Another site cannot log a person out: it has no token.
    const kept = await logIn(server, 'hamlet');
    assert.equal((await send('POST', at('/accounts/logout/'), { cookie: kept.cookie })).status, 403);
    assert.equal((await kept.get('/users/me')).status, 200);
  });

  test('changing the password ends the user\'s other sessions, and keeps the one that changed it', async () => {
    const created = assertSuccess(await server.as('iago').post('/users', { email: 'horatio@zulip.example.com', password: 'first password 1', full_name: 'Horatio' }));
    const login = (password: string) => form('POST', at('/accounts/login/'), { username: 'horatio@zulip.example.com', password });
    const open = async (password: string) => {
      const c = setCookies(await login(password));
      return new SessionClient(server.url, c.get('sessionid')!.value, c.get('csrftoken')!.value);
    };
    const laptop = await open('first password 1');
    const phone = await open('first password 1');
    assertSuccess(await laptop.patch('/settings', { old_password: 'first password 1', new_password: 'second password 2' }));
    assert.equal(assertSuccess(await laptop.get('/users/me')).user_id, created.user_id);
    assert.equal((await phone.get('/users/me')).status, 401);
    // A change through the API (Basic credentials) ends every session.
    const basicKey = assertSuccess(await send('POST', new URL('/api/v1/fetch_api_key', server.url), { 'content-type': 'application/x-www-form-urlencoded' },
      new URLSearchParams({ username: 'horatio@zulip.example.com', password: 'second password 2' }).toString())).api_key;
    const auth = 'Basic ' + Buffer.from(`horatio@zulip.example.com:${basicKey}`).toString('base64');
    assert.equal((await send('PATCH', new URL('/api/v1/settings', server.url), { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' },
      new URLSearchParams({ old_password: 'second password 2', new_password: 'third password 3' }).toString())).status, 200);
    assert.equal((await laptop.get('/users/me')).status, 401);
    assert.equal((await login('third password 3')).status, 302);
  });

  test('deactivating a user ends their sessions, which reactivation does not bring back', async () => {
    const created = assertSuccess(await server.as('iago').post('/users', { email: 'marcellus@zulip.example.com', password: 'marcellus pass 1', full_name: 'Marcellus' }));
    const res = await form('POST', at('/accounts/login/'), { username: 'marcellus@zulip.example.com', password: 'marcellus pass 1' });
    const c = setCookies(res);
    const client = new SessionClient(server.url, c.get('sessionid')!.value, c.get('csrftoken')!.value);
    assertSuccess(await client.get('/users/me'));
    assertSuccess(await server.as('iago').delete(`/users/${created.user_id}`));
    assert.equal((await client.get('/users/me')).status, 401);
    const rows = await withDb(server, (db) => db.selectFrom('sessions').select('user_id').where('user_id', '=', created.user_id).execute());
    assert.deepEqual(rows, []);
    const again = await form('POST', at('/accounts/login/'), { username: 'marcellus@zulip.example.com', password: 'marcellus pass 1' });
    assert.match(again.text, /Your account has been deactivated/);
    assertSuccess(await server.as('iago').post(`/users/${created.user_id}/reactivate`));
    assert.equal((await client.get('/users/me')).status, 401);
  });
});

describe('the app at /', () => {
  test('without a session, / leads to the login page', async () => {
    const res = await send('GET', at('/'), {});
    assert.equal(res.status, 302);
    assert.equal(res.headers.location, '/login/');
  });

  test('with a session, / is the app\'s page under a strict Content-Security-Policy', async () => {
    const client = await logIn(server, 'hamlet');
    const res = await send('GET', at('/'), { cookie: client.cookie });
    assert.equal(res.status, 200, res.text);
    assert.match(String(res.headers['content-type']), /^text\/html/);
    const csp = String(res.headers['content-security-policy']);
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.match(csp, /frame-ancestors 'none'/);
    // Nothing inline runs or styles the page; only style attributes (the server's message HTML carries them, as
    // the reference's does: KaTeX's layout, table alignment) are allowed.
    assert.doesNotMatch(csp.replace("style-src-attr 'unsafe-inline'", ''), /unsafe-inline|unsafe-eval/);
    assert.match(csp, /style-src 'self'(;|$)/);
    assert.equal(res.headers['x-frame-options'], 'DENY');
    assert.equal(res.headers['cache-control'], 'no-store');
    // No inline script: every script is a file of this site, served compressed and cached for good.
    assert.doesNotMatch(res.text, /<script(?![^>]*\bsrc=)[^>]*>/i);
    const src = /<script[^>]*src="([^"]+)"/.exec(res.text)![1];
    const script = await send('GET', at(src), { 'accept-encoding': 'gzip' });
    assert.equal(script.status, 200);
    assert.equal(script.headers['content-encoding'], 'gzip');
    assert.match(String(script.headers['cache-control']), /immutable/);
    assert.equal((await send('GET', at('/static/assets/nothing.js'), {})).status, 404);
  });
});

describe('signing up through an invitation link', () => {
  test('lands in the app, logged in', async () => {
    const link = assertSuccess(await server.as('iago').post('/invites/multiuse', {})).invite_link as string;
    const res = await form('POST', new URL(link), { full_name: 'Bernardo', email: 'bernardo@zulip.example.com', password: 'bernardo pass 1' });
    assert.equal(res.status, 303, res.text);
    assert.equal(res.headers.location, '/');
    const c = setCookies(res);
    const client = new SessionClient(server.url, c.get('sessionid')!.value, c.get('csrftoken')!.value);
    assert.equal(assertSuccess(await client.get('/users/me')).full_name, 'Bernardo');
  });
});
