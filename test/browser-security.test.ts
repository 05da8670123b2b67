// The browser's side of the session: another site's form cannot act with the session (no CSRF token), the app
// cannot be framed, no Content-Security-Policy violation while it works, and logging out ends the session.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { startTestServer, type TestServer } from './helpers/server.js';
import { createChannel, fetchMessages } from './helpers/messages.js';
import { launch, messageRow, openAs, type Person } from './helpers/browser.js';
import { send } from './helpers/client.js';

let server: TestServer;
let browser: Browser;
let channel: number;
let hamlet: Person;
let evil: http.Server;
let evilUrl = '';

before(async () => {
  server = await startTestServer();
  channel = await createChannel(server, 'hamlet', ['hamlet'], {}, 'secrets');
  browser = await launch();
  hamlet = await openAs(browser, server, 'hamlet', { hash: `#narrow/channel/${channel}-secrets` });
  // Another site (another port is another origin): a form posting to the API, and a frame of the app.
  evil = http.createServer((req, res) => {
    res.setHeader('content-type', 'text/html');
    if (req.url === '/frame') return res.end(`<!DOCTYPE html><iframe id="f" src="${server.url}/" width="600" height="400"></iframe>`);
    res.end(`<!DOCTYPE html><form method="post" action="${server.url}/json/messages">
      <input name="type" value="stream"><input name="to" value="${channel}"><input name="topic" value="forged"><input name="content" value="forged by another site">
      <button id="go">go</button></form>`);
  });
  await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
  evilUrl = `http://127.0.0.1:${(evil.address() as AddressInfo).port}`;
});
after(async () => {
  await browser?.close();
  evil?.close();
  await server?.close();
});

test("another site's form posting with the session is refused: 403 CSRF_FAILED, nothing sent", async () => {
  const page = await hamlet.context.newPage();
  await page.goto(evilUrl);
  await Promise.all([page.waitForURL(`${server.url}/json/messages`), page.click('#go')]);
  const body = JSON.parse(await page.locator('body').innerText());
  assert.equal(body.code, 'CSRF_FAILED');
  const sent = await fetchMessages(server, 'hamlet', { narrow: [{ operator: 'channel', operand: channel }] });
  assert.equal(sent.messages.length, 0);
  await page.close();
});

test('the app cannot be framed by another site', async () => {
  const page = await hamlet.context.newPage();
  await page.goto(`${evilUrl}/frame`);
  await page.waitForTimeout(500);
  const frame = page.frames().find((f) => f !== page.mainFrame());
  const app = frame ? await frame.evaluate(() => !!document.querySelector('.app')).catch(() => false) : false;
  assert.equal(app, false);
  await page.close();
});

test('no Content-Security-Policy violation while the app works', async () => {
  const { page } = hamlet;
  await page.bringToFront(); // after the other tabs: a tab in the background gets no animation frames
  await page.keyboard.press('c');
  await page.keyboard.type('csp check');
  await page.keyboard.press('Enter');
  await page.keyboard.type('Inline <script>window.pwned=1</script> and **bold** $$x$$ :tada:');
  await page.keyboard.press('Control+Enter');
  await messageRow(page, 'Inline').waitFor();
  assert.equal(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned), undefined);
  const row = messageRow(page, 'Inline');
  await row.click(); // selected: its controls show
  await row.getByRole('button', { name: 'Add emoji reaction' }).first().click();
  await page.locator('.emoji-picker').waitFor();
  await page.keyboard.press('Escape');
  assert.deepEqual(hamlet.errors, []);
});

test('logging out ends the session: back to the login page, the old cookie refused', async () => {
  const { page, context } = hamlet;
  const session = (await context.cookies()).find((c) => c.name === 'sessionid')!.value;
  await page.locator('.personal > button').click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await page.waitForURL(/\/login\/$/);
  assert.equal((await context.cookies()).some((c) => c.name === 'sessionid' && c.value), false);
  const res = await send('GET', new URL('/json/users/me', server.url), { cookie: `sessionid=${session}` });
  assert.equal(res.status, 401);
});
