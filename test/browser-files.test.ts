// Files in the compose box: picked, pasted or dropped, uploaded with progress, linked in the message; the link
// opens the file (with the session), and an image opens in the lightbox.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { startTestServer, type TestServer } from './helpers/server.js';
import { createChannel } from './helpers/messages.js';
import { launch, messageRow, openAs, type Person } from './helpers/browser.js';

let server: TestServer;
let browser: Browser;
let hamlet: Person;
let cordelia: Person;

// A 2×2 PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP4z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==', 'base64');

before(async () => {
  server = await startTestServer();
  const channel = await createChannel(server, 'hamlet', ['hamlet', 'cordelia'], {}, 'files');
  browser = await launch();
  const hash = `#narrow/channel/${channel}-files/topic/uploads`;
  [hamlet, cordelia] = await Promise.all([openAs(browser, server, 'hamlet', { hash }), openAs(browser, server, 'cordelia', { hash })]);
});
after(async () => {
  await browser?.close();
  await server?.close();
});

const textValue = (p: Person) => p.page.locator('textarea.compose-text').inputValue();

test('a picked file is uploaded, linked, sent, and opens for the other person', async () => {
  const { page } = hamlet;
  await page.keyboard.press('r');
  await page.locator('textarea.compose-text').fill('The plan: ');
  await page.setInputFiles('.compose input[type="file"]', { name: 'plan.txt', mimeType: 'text/plain', buffer: Buffer.from('step one, step two') });
  await page.waitForFunction(() => /\[plan\.txt\]\(\/user_uploads\/[^)]+\)/.test((document.querySelector('textarea.compose-text') as HTMLTextAreaElement).value));
  assert.match(await textValue(hamlet), /^The plan: \[plan\.txt\]\(\/user_uploads\/\d+\/.+\/plan\.txt\) $/);
  await page.locator('textarea.compose-text').press('Control+Enter');
  const link = messageRow(cordelia.page, 'The plan').locator('a', { hasText: 'plan.txt' });
  await link.waitFor();
  const href = await link.getAttribute('href');
  // Opening it: the browser sends the session cookie.
  const res = await cordelia.context.request.get(new URL(href!, server.url).toString());
  assert.equal(res.status(), 200);
  assert.equal(await res.text(), 'step one, step two');
  // Without a session it is not there.
  const anon = await browser.newContext();
  assert.equal((await anon.request.get(new URL(href!, server.url).toString())).status(), 404);
  await anon.close();
});

test('a pasted image is uploaded; its preview opens in the lightbox', async () => {
  const { page } = hamlet;
  await page.keyboard.press('r');
  const box = page.locator('textarea.compose-text');
  await box.focus();
  await page.evaluate((bytes) => {
    const data = new DataTransfer();
    data.items.add(new File([new Uint8Array(bytes)], 'screenshot.png', { type: 'image/png' }));
    document.querySelector('textarea.compose-text')!.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, [...PNG]);
  await page.waitForFunction(() => /\[screenshot\.png\]\(\/user_uploads\//.test((document.querySelector('textarea.compose-text') as HTMLTextAreaElement).value));
  await box.press('End');
  await box.press('Control+Enter');
  const preview = messageRow(cordelia.page, 'screenshot.png').locator('.message_inline_image img');
  await preview.waitFor();
  await cordelia.page.waitForFunction(() => [...document.querySelectorAll<HTMLImageElement>('.message_inline_image img')].some((i) => i.complete && i.naturalWidth === 2));
  await preview.click();
  const lightbox = cordelia.page.getByRole('dialog', { name: 'screenshot.png' });
  await lightbox.waitFor();
  assert.equal(await lightbox.locator('img').evaluate((i: HTMLImageElement) => i.naturalWidth), 2);
  await cordelia.page.keyboard.press('Escape');
  await lightbox.waitFor({ state: 'detached' });
});

test('a dropped file is uploaded too', async () => {
  const { page } = hamlet;
  await page.keyboard.press('r');
  await page.evaluate(() => {
    const data = new DataTransfer();
    data.items.add(new File(['dropped contents'], 'notes.md', { type: 'text/markdown' }));
    const compose = document.querySelector('.compose')!;
    compose.dispatchEvent(new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }));
    compose.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  });
  await page.waitForFunction(() => /\[notes\.md\]\(\/user_uploads\//.test((document.querySelector('textarea.compose-text') as HTMLTextAreaElement).value));
  assert.deepEqual([...hamlet.errors, ...cordelia.errors], []);
});
