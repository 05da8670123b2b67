// What people do with the server's mails, in the browser, over a real SMTP server: reset a forgotten password from
// the mail; change one's e-mail address and confirm it from the mail; an administrator invites someone by e-mail,
// who signs up from the mail and lands in the app; direct messages missed while away arrive as one mail.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, type TestServer } from './helpers/server.js';
import { assertSuccess } from './helpers/assertions.js';
import { launch, openAs } from './helpers/browser.js';
import { linkIn, TestInbox } from './helpers/smtp.js';

const inbox = new TestInbox();
let server: TestServer;
let browser: Browser;

before(async () => {
  const smtp = await inbox.start();
  server = await startTestServer({ env: { PARLANCE_SMTP_URL: smtp, PARLANCE_MAIL_POLL_MS: '100', PARLANCE_MISSED_MESSAGE_DELAY_SECONDS: '8' } });
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.close();
  await inbox.close();
});

async function freshPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US', timezoneId: 'UTC' });
  return context.newPage();
}

async function logIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto(`${server.url}/login/`);
  await page.fill('#username', email);
  await page.fill('#password', password);
  await page.click('button[type="submit"]');
  await page.waitForSelector('.app .top-bar');
}

test('a forgotten password: the link in the mail sets a new one, which then logs in', async () => {
  const hamlet = server.users.hamlet;
  const page = await freshPage();
  await page.goto(`${server.url}/login/`);
  await page.getByRole('link', { name: /forgot|reset/i }).click();
  await page.fill('#email', hamlet.email);
  await page.getByRole('button', { name: 'Send the link' }).click();
  await page.getByText(/Check your e-mail/).waitFor();
  const mail = await inbox.about(hamlet.email, /^Reset your password/);
  const link = linkIn(mail.text, '/accounts/password/reset/');
  assert.ok(link, mail.text);
  await page.goto(link);
  await page.fill('#new_password', 'a brand new password for hamlet');
  await page.getByRole('button', { name: 'Set the password' }).click();
  await page.waitForLoadState();
  await logIn(page, hamlet.email, 'a brand new password for hamlet');
  server.users.hamlet.password = 'a brand new password for hamlet';
  await page.context().close();
});

test('a new e-mail address, asked for in the settings and confirmed from the mail', async () => {
  const cordelia = await openAs(browser, server, 'cordelia', { hash: '#settings/account-and-privacy' });
  const { page } = cordelia;
  await page.getByLabel('New e-mail address').fill('cordelia.renewed@example.com');
  await page.getByRole('button', { name: 'Change', exact: true }).click();
  const mail = await inbox.about('cordelia.renewed@example.com', /./);
  const link = linkIn(mail.text, '/accounts/confirm_new_email/');
  assert.ok(link, mail.text);
  await page.goto(link);
  await page.getByText(/cordelia\.renewed@example\.com/).first().waitFor();
  // (Her old address no longer authenticates; an administrator sees the new one.)
  const seen = assertSuccess(await server.as('iago').get(`/users/${server.users.cordelia.id}`)).user;
  assert.equal(seen.delivery_email, 'cordelia.renewed@example.com');
  server.users.cordelia.email = 'cordelia.renewed@example.com';
  assert.deepEqual(cordelia.errors, []);
  await cordelia.context.close();
});

test('an administrator invites by e-mail; the invitee signs up from the mail and lands in the app', async () => {
  const iago = await openAs(browser, server, 'iago', { hash: '#organization/invitations' });
  await iago.page.getByLabel(/^E-mail addresses/).fill('rosalind@example.com');
  await iago.page.getByRole('button', { name: 'Send invitations' }).click();
  await iago.page.locator('.invites-table tbody tr', { hasText: 'rosalind@example.com' }).waitFor();
  const mail = await inbox.about('rosalind@example.com', /invited you/);
  const link = linkIn(mail.text, '/join/');
  assert.ok(link, mail.text);

  const page = await freshPage();
  await page.goto(link);
  assert.equal(await page.inputValue('#email'), 'rosalind@example.com');
  await page.fill('#full_name', 'Rosalind');
  await page.fill('#password', 'all the world is a stage');
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForSelector('.app .top-bar');
  // The invitation is spent: the inviter's list follows.
  await iago.page.locator('.invites-table tbody tr', { hasText: 'rosalind@example.com' }).waitFor({ state: 'detached' });
  assert.deepEqual(iago.errors, []);
  await iago.context.close();
  await page.context().close();
});

test('direct messages missed while away arrive as one mail', async () => {
  // Shiva has no browser open (no event queue): two messages from Desdemona, sent within the batching delay (8 s,
  // long enough for a busy machine to send both), make one mail.
  const desdemona = await openAs(browser, server, 'desdemona', { hash: `#narrow/dm/${server.users.shiva.id}-shiva` });
  const { page } = desdemona;
  for (const text of ['Are you there?', 'Call me when you see this.']) {
    await page.keyboard.press('r');
    await page.locator('textarea.compose-text').waitFor();
    await page.keyboard.type(text);
    await page.keyboard.press('Control+Enter');
    await page.locator('.message-row:not(.pending) .message_content', { hasText: text }).waitFor();
    await page.keyboard.press('Escape');
  }
  const mail = await inbox.about(server.users.shiva.email, /./, 30_000);
  await new Promise((r) => setTimeout(r, 3000)); // a second mail, if there were one, would have come by now
  const mails = inbox.to(server.users.shiva.email).filter((m) => !/login/i.test(m.subject));
  assert.equal(mails.length, 1, mails.map((m) => m.subject).join('; '));
  assert.match(mail.text, /Are you there\?[\s\S]*Call me when you see this\./);
  assert.deepEqual(desdemona.errors, []);
  await desdemona.context.close();
});
