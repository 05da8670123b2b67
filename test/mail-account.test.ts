// Mails about one's account, over a real SMTP server: the e-mail change confirmation (to the new address, its
// link completing the change) and the notice to the old address once changed; the new-login notice when someone
// logs in to the web app (unless enable_login_emails is off). And "log out everywhere", which ends every browser
// session of the user.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { assertSuccess } from './helpers/assertions.js';
import { form, logIn, setCookies } from './helpers/session.js';
import { linkIn, TestInbox } from './helpers/smtp.js';

const inbox = new TestInbox();
let server: TestServer;
before(async () => {
  const smtp = await inbox.start();
  server = await startTestServer({ env: { PARLANCE_SMTP_URL: smtp, PARLANCE_MAIL_POLL_MS: '100' } });
});
after(async () => {
  await server.close();
  await inbox.close();
});

test('an e-mail change: a confirmation mail to the new address, its link completes it, a notice to the old one', async () => {
  const old = server.users.cordelia.email;
  const res = assertSuccess(await server.as('cordelia').patch('/settings', { email: 'goneril@zulip.example.com' }));
  assert.equal(res.account_email, 'Check your email for a confirmation link.');
  const mail = await inbox.nth('goneril@zulip.example.com', 1);
  assert.equal(mail.subject, 'Verify your new email address for Zulip Dev');
  assert.match(mail.text, new RegExp(`from ${old.replace(/\./g, '\\.')} to goneril@zulip\\.example\\.com`));
  const link = linkIn(mail.text, '/accounts/confirm_new_email/');
  assert.ok(link && link.startsWith(server.url), mail.text);
  assert.ok(mail.html.includes(`href="${link}"`));
  // Cordelia's name has an apostrophe: escaped in the HTML part.
  assert.equal(inbox.to(old).length, 0, 'the old address hears of it only once changed');
  // Opened in a browser, the link answers with a page.
  const confirmed = await form('GET', new URL(link), undefined, { accept: 'text/html,application/xhtml+xml' });
  assert.equal(confirmed.status, 200, confirmed.text);
  assert.match(String(confirmed.headers['content-type']), /^text\/html/);
  assert.match(confirmed.text, /now goneril@zulip\.example\.com/);
  const spent = await form('GET', new URL(link), undefined, { accept: 'text/html' });
  assert.equal(spent.status, 404);
  assert.match(spent.text, /Invalid or expired confirmation link/);
  assert.equal(assertSuccess(await server.as('iago').get(`/users/${server.users.cordelia.id}`)).user.delivery_email, 'goneril@zulip.example.com');
  const notice = await inbox.nth(old, 1);
  assert.equal(notice.subject, 'Email address changed for Zulip Dev');
  assert.match(notice.text, /was changed from .* to goneril@zulip\.example\.com/);
  server.users.cordelia.email = 'goneril@zulip.example.com';
});

test('a login to the web app mails a notice, unless enable_login_emails is off; values are escaped in HTML', async () => {
  const email = server.users.shiva.email;
  const res = await form('POST', new URL('/accounts/login/', server.url), { username: email, password: server.users.shiva.password }, { 'user-agent': 'Firefox <script>alert(1)</script>' });
  assert.equal(res.status, 302, res.text);
  const mail = await inbox.nth(email, 1);
  assert.equal(mail.subject, 'New login to Zulip Dev');
  assert.match(mail.text, /Browser: Firefox <script>alert\(1\)<\/script>/);
  assert.ok(mail.html.includes('Firefox &lt;script&gt;alert(1)&lt;/script&gt;'), mail.html);
  assert.doesNotMatch(mail.html, /<script>/);
  assert.ok(linkIn(mail.text, '/#settings/')?.startsWith(server.url));

  assertSuccess(await server.as('shiva').patch('/settings', { enable_login_emails: false }));
  await logIn(server, 'shiva');
  // A failed login sends nothing either; then a mail to someone else shows the queue has moved past both.
  await form('POST', new URL('/accounts/login/', server.url), { username: email, password: 'wrong password' });
  await logIn(server, 'iago');
  await inbox.nth(server.users.iago.email, 1);
  assert.equal(inbox.to(email).length, 1);
});

test('log out everywhere ends every browser session of the user, and only theirs', async () => {
  const one = await logIn(server, 'hamlet');
  const two = await logIn(server, 'hamlet');
  const other = await logIn(server, 'polonius');
  // Without the CSRF token, nothing happens.
  const forged = await form('POST', new URL('/accounts/logout/everywhere/', server.url), {}, { cookie: one.cookie });
  assert.equal(forged.status, 403, forged.text);
  assertSuccess(await two.get('/users/me'));
  const res = await form('POST', new URL('/accounts/logout/everywhere/', server.url), {}, { cookie: one.cookie, 'x-csrftoken': one.csrf });
  assert.equal(res.status, 302, res.text);
  assert.equal(res.headers.location, '/login/');
  assert.equal(setCookies(res).get('sessionid')?.value, '');
  assert.equal((await one.get('/users/me')).status, 401);
  assert.equal((await two.get('/users/me')).status, 401);
  assertSuccess(await other.get('/users/me'));
  // The API key still works: it is not a browser session.
  assertSuccess(await server.as('hamlet').get('/users/me'));
  // The form's token works as well as the header.
  const three = await logIn(server, 'hamlet');
  const byForm = await form('POST', new URL('/accounts/logout/everywhere/', server.url), { csrfmiddlewaretoken: three.csrf }, { cookie: three.cookie });
  assert.equal(byForm.status, 302);
  assert.equal((await three.get('/users/me')).status, 401);
});
