// Password reset by mail at the reference's pages (/accounts/password/reset/, …/<token>/): the mail arrives over
// SMTP with a link to the configured URL (never the request's Host), the link works once and expires, the new
// password ends every browser session, nobody learns from the pages whether an address has an account, and
// requests are limited per address (silently) and per IP address (429).
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { assertSuccess } from './helpers/assertions.js';
import { withDb } from './helpers/direct-db.js';
import { form, logIn } from './helpers/session.js';
import { linkIn, TestInbox } from './helpers/smtp.js';

const inbox = new TestInbox();
let server: TestServer;
before(async () => {
  const smtp = await inbox.start();
  server = await startTestServer({ env: { PARLANCE_SMTP_URL: smtp, PARLANCE_MAIL_FROM: 'noreply@elsinore.example', PARLANCE_MAIL_POLL_MS: '100' } });
});
after(async () => {
  await server.close();
  await inbox.close();
});

const at = (path: string) => new URL(path, server.url);
const ask = (email: string, headers: Record<string, string> = {}) => form('POST', at('/accounts/password/reset/'), { email }, headers);
const apiKeyWith = async (email: string, password: string) => (await server.anon().post('/fetch_api_key', { username: email, password })).status;

test('the mailed link sets a new password once; every browser session of the user ends', async () => {
  const hamlet = server.users.hamlet;
  const browser = await logIn(server, 'hamlet');
  assertSuccess(await browser.get('/users/me'));
  const formPage = await form('GET', at('/accounts/password/reset/'));
  assert.equal(formPage.status, 200);
  assert.match(formPage.text, /<form method="post" action="\/accounts\/password\/reset\/">/);
  assert.match(formPage.headers['content-security-policy'] as string, /default-src 'none'/);
  const login = await form('GET', at('/login/'));
  assert.match(login.text, /href="\/accounts\/password\/reset\/"/);

  // A forged Host changes nothing in the mail's link.
  const sent = await ask(hamlet.email.toUpperCase(), { host: 'evil.example' });
  assert.equal(sent.status, 303, sent.text);
  assert.equal(sent.headers.location, '/accounts/password/reset/done/');
  const done = await form('GET', at('/accounts/password/reset/done/'));
  assert.match(done.text, /Check your e-mail/);

  // (Logging in above mailed a new-login notice.)
  const mail = await inbox.about(hamlet.email, /^Reset your password/);
  assert.equal(mail.from, 'noreply@elsinore.example');
  assert.equal(mail.subject, 'Reset your password for Zulip Dev');
  const link = linkIn(mail.text, '/accounts/password/reset/');
  assert.ok(link && link.startsWith(`${server.url}/accounts/password/reset/`), mail.text);
  assert.ok(mail.html.includes(`href="${link}"`), mail.html);
  assert.doesNotMatch(mail.raw, /evil\.example/);

  const confirm = await form('GET', new URL(link));
  assert.equal(confirm.status, 200, confirm.text);
  assert.match(confirm.text, /Choose a new password/);
  const weak = await form('POST', new URL(link), { new_password: 'x' });
  assert.equal(weak.status, 400);
  assert.match(weak.text, /The password is too weak/);
  const foreign = await form('POST', new URL(link), { new_password: 'a new and long password' }, { origin: 'https://evil.example' });
  assert.equal(foreign.status, 403);

  const reset = await form('POST', new URL(link), { new_password: 'a new and long password' });
  assert.equal(reset.status, 200, reset.text);
  assert.match(reset.text, /Password changed/);
  assert.equal((await browser.get('/users/me')).status, 401, 'the session ended');
  assert.equal(await apiKeyWith(hamlet.email, 'a new and long password'), 200);
  assert.equal(await apiKeyWith(hamlet.email, hamlet.password), 401);

  const again = await form('POST', new URL(link), { new_password: 'yet another long password' });
  assert.equal(again.status, 404);
  assert.match(again.text, /invalid, has expired or has already been used/);
  assert.equal((await form('GET', new URL(link))).status, 404);
  assert.equal(await apiKeyWith(hamlet.email, 'a new and long password'), 200);
});

test('an unknown address gets the same answer and no mail', async () => {
  const unknown = await ask('nobody@elsinore.example');
  const known = await ask(server.users.cordelia.email);
  assert.deepEqual([unknown.status, unknown.headers.location, unknown.text], [known.status, known.headers.location, known.text]);
  await inbox.nth(server.users.cordelia.email, 1);
  assert.deepEqual(inbox.to('nobody@elsinore.example'), []);
});

test('an expired link is refused', async () => {
  assert.equal((await ask(server.users.shiva.email)).status, 303);
  const link = linkIn((await inbox.nth(server.users.shiva.email, 1)).text, '/accounts/password/reset/')!;
  await withDb(server, (db) => db.updateTable('password_resets').set({ expires: Math.floor(Date.now() / 1000) - 1 }).execute());
  const page = await form('GET', new URL(link));
  assert.equal(page.status, 404);
  assert.equal((await form('POST', new URL(link), { new_password: 'a new and long password' })).status, 404);
  assert.equal((await form('GET', at('/accounts/password/reset/not-a-token/'))).status, 404);
});

test('limits: at most 3 mails an hour to one address (the answer unchanged), at most 20 requests an hour from one IP', async () => {
  const polonius = server.users.polonius.email;
  for (let i = 0; i < 4; i++) assert.equal((await ask(polonius)).status, 303);
  assert.equal((await ask(server.users.iago.email)).status, 303);
  await inbox.nth(server.users.iago.email, 1);
  await inbox.nth(polonius, 3);
  assert.equal(inbox.to(polonius).length, 3);
  let refused;
  for (let i = 0; i < 25 && !refused; i++) {
    const res = await ask(`someone${i}@elsinore.example`);
    if (res.status === 429) refused = res;
    else assert.equal(res.status, 303);
  }
  assert.ok(refused, 'the IP address was limited');
  assert.match(refused.text, /Too many password reset requests/);
  assert.ok(Number(refused.headers['retry-after']) > 0);
});
