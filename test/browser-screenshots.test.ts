// The app as a person sees it, light and dark, in a wide and a narrow window, with a busy conversation and an
// empty one: screenshots for README.md (PARLANCE_SCREENSHOTS_DIR=docs/screenshots; dist/screenshots otherwise),
// and the layout checks a screenshot would show (nothing cut off, nothing overflowing).
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, type TestServer } from './helpers/server.js';
import { createChannel, sendDm, sendToChannel } from './helpers/messages.js';
import { launch, openAs, screenshot } from './helpers/browser.js';

let server: TestServer;
let browser: Browser;
let design: number;
let empty: number;

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP4z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==', 'base64');

before(async () => {
  server = await startTestServer();
  const everyone = ['hamlet', 'cordelia', 'iago', 'shiva', 'desdemona'] as const;
  design = await createChannel(server, 'iago', [...everyone], { description: 'Logos, colours and type' }, 'design');
  const eng = await createChannel(server, 'iago', [...everyone], {}, 'engineering');
  await createChannel(server, 'iago', [...everyone], {}, 'general');
  empty = await createChannel(server, 'iago', ['hamlet'], {}, 'announcements');
  await sendToChannel(server, 'iago', eng, 'deploys', 'Deployed **v2.3** to staging.');
  await sendToChannel(server, 'shiva', eng, 'deploys', 'Smoke tests pass :check:');
  await sendToChannel(server, 'iago', design, 'new logo', 'Here are the two directions for the new logo. Which one reads better at small sizes?');
  const upload = await server.as('cordelia').request('POST', '/user_uploads', {}, {});
  void upload;
  await sendToChannel(server, 'cordelia', design, 'new logo', 'The second one. The counters stay open at 16 px, and the weight matches our UI font.');
  const withCode = await sendToChannel(server, 'shiva', design, 'new logo', 'I exported the palette:\n```css\n:root {\n  --brand: #3461b8;\n  --accent: #e5484d;\n}\n```');
  await server.as('hamlet').post(`/messages/${withCode}/reactions`, { emoji_name: '+1' });
  await server.as('cordelia').post(`/messages/${withCode}/reactions`, { emoji_name: '+1' });
  await server.as('iago').post(`/messages/${withCode}/reactions`, { emoji_name: 'tada' });
  await sendToChannel(server, 'desdemona', design, 'new logo', '> The counters stay open at 16 px\n\nAgreed. @**King Hamlet** can you check it on the login page?');
  await sendToChannel(server, 'iago', design, 'new logo', '```spoiler Final pick\nOption B, with the rounded terminals.\n```');
  await sendToChannel(server, 'cordelia', design, 'fonts', 'Should we self-host the fonts?');
  await sendDm(server, 'cordelia', ['hamlet'], 'Coffee after the review?');
  void PNG;
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

async function noOverflow(page: Page): Promise<void> {
  const over = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(over <= 0, `the page is ${over}px wider than the window`);
}

const topic = () => `#narrow/channel/${design}-design/topic/new.20logo`;

for (const scheme of ['light', 'dark'] as const) {
  test(`a conversation, ${scheme}`, async () => {
    const { page, context, errors } = await openAs(browser, server, 'hamlet', { hash: topic(), colorScheme: scheme, viewport: { width: 1400, height: 860 } });
    await page.locator('.message-row').nth(4).waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), scheme);
    await page.keyboard.press('r');
    await page.locator('textarea.compose-text').fill('Looks great on the login page — shipping it.');
    await noOverflow(page);
    await screenshot(page, `app-${scheme}`);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('a narrow window: one column, the sidebar as a drawer', async () => {
  const { page, context, errors } = await openAs(browser, server, 'cordelia', { hash: topic(), viewport: { width: 390, height: 800 } });
  await page.locator('.message-row').nth(2).waitFor();
  assert.equal(await page.locator('.right-sidebar').isVisible(), false);
  await noOverflow(page);
  await screenshot(page, 'app-narrow');
  await page.getByRole('button', { name: 'Show channels and conversations' }).click();
  await page.locator('.left-sidebar.open').waitFor();
  await page.waitForTimeout(250);
  await screenshot(page, 'app-narrow-sidebar');
  assert.deepEqual(errors, []);
  await context.close();
});

test('an empty channel and the inbox', async () => {
  const { page, context, errors } = await openAs(browser, server, 'hamlet', { hash: `#narrow/channel/${empty}-announcements` });
  await page.locator('.empty-state', { hasText: 'No messages here yet' }).waitFor();
  await screenshot(page, 'app-empty');
  await page.evaluate(() => { location.hash = '#inbox'; });
  await page.locator('.inbox-group').first().waitFor();
  await screenshot(page, 'app-inbox');
  assert.deepEqual(errors, []);
  await context.close();
});
