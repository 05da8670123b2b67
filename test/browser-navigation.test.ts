// Getting around: links in the reference's URL shapes open the same view (pasted from other clients, or in
// message HTML), the browser's history follows, search with operators and suggestions, the whole flow by
// keyboard alone, and a long conversation that keeps few rows in the DOM.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, type TestServer } from './helpers/server.js';
import { createChannel, sendDm, sendToChannel } from './helpers/messages.js';
import { launch, messageRow, openAs, type Person } from './helpers/browser.js';

let server: TestServer;
let browser: Browser;
let design: number;
let colorsNear: number;
let hamlet: Person;

const title = (page: Page) => page.locator('#view-title').innerText();

before(async () => {
  server = await startTestServer();
  design = await createChannel(server, 'hamlet', ['hamlet', 'cordelia'], {}, 'design');
  await sendToChannel(server, 'cordelia', design, 'colors', 'Navy or teal?');
  await Promise.all(Array.from({ length: 30 }, (_, i) => sendToChannel(server, 'cordelia', design, 'colors', `Color note ${i}`)));
  colorsNear = await sendToChannel(server, 'cordelia', design, 'colors', 'The linked message');
  await Promise.all(Array.from({ length: 30 }, (_, i) => sendToChannel(server, 'cordelia', design, 'colors', `Later note ${i}`)));
  await sendToChannel(server, 'cordelia', design, 'fonts', 'Lunch talk about serif fonts');
  await sendToChannel(server, 'cordelia', design, 'links', 'See #**design>colors** for the palette');
  await sendDm(server, 'cordelia', ['hamlet'], 'Lunch tomorrow?');
  browser = await launch();
  hamlet = await openAs(browser, server, 'hamlet', { hash: '#inbox' });
});
after(async () => {
  await browser?.close();
  await server?.close();
});

test('links in the reference shapes open the same view', async () => {
  const { page } = hamlet;
  const cases: [string, string][] = [
    [`#narrow/channel/${design}-design`, '#design'],
    [`#narrow/stream/${design}-old-name`, '#design'],
    ['#narrow/stream/design', '#design'],
    [`#narrow/channel/${design}-design/topic/colors`, '#design › colors'],
    [`#narrow/stream/${design}-design/subject/fonts`, '#design › fonts'],
    [`#narrow/dm/${server.users.cordelia.id}-Cordelia`, "Cordelia, Lear's daughter"],
    [`#narrow/pm-with/${server.users.cordelia.id}-user`, "Cordelia, Lear's daughter"],
    ['#narrow/is/starred', 'Starred messages'],
    ['#narrow/is/mentioned', 'Mentions'],
    ['#feed', 'Combined feed'],
    ['#inbox', 'Inbox'],
    ['#recent', 'Recent conversations'],
    ['#drafts', 'Drafts'],
  ];
  for (const [hash, expected] of cases) {
    await page.evaluate((h) => { location.hash = h; }, hash);
    await page.waitForFunction((t) => document.querySelector('#view-title')?.textContent?.replace(/\s+/g, ' ').trim() === t, expected, { timeout: 5000 })
      .catch(async () => assert.fail(`${hash}: title ${JSON.stringify(await title(page))}, expected ${expected}`));
  }
});

test('a link to a message opens its conversation there, selected and in view', async () => {
  const { page } = hamlet;
  await page.evaluate((h) => { location.hash = h; }, `#narrow/channel/${design}-design/topic/colors/near/${colorsNear}`);
  const row = page.locator(`#message-${colorsNear}`);
  await row.waitFor();
  await page.waitForFunction((id) => document.querySelector(`#message-${id} .message-box`)?.getAttribute('aria-current') === 'true', colorsNear);
  const box = await row.boundingBox();
  const list = await page.locator('.vlist').boundingBox();
  assert.ok(box && list && box.y >= list.y && box.y + box.height <= list.y + list.height, 'the linked message is on screen');
});

test('links inside messages open here, and the browser history follows', async () => {
  const { page } = hamlet;
  await page.evaluate((h) => { location.hash = h; }, `#narrow/channel/${design}-design/topic/links`);
  const link = messageRow(page, 'See').locator('a.stream-topic');
  await link.waitFor();
  assert.equal(await link.getAttribute('target'), null, 'not a new tab');
  await link.click();
  await page.waitForFunction(() => document.querySelector('#view-title')?.textContent?.includes('colors'));
  await page.goBack();
  await page.waitForFunction(() => document.querySelector('#view-title')?.textContent?.includes('links'));
  await page.goForward();
  await page.waitForFunction(() => document.querySelector('#view-title')?.textContent?.includes('colors'));
});

test('search: text, operators with suggestions, and the URL', async () => {
  const { page } = hamlet;
  const box = page.getByRole('combobox', { name: 'Search messages' });
  await box.click();
  await box.fill('chan');
  await page.locator('#search-suggestions li', { hasText: 'channel:' }).first().waitFor();
  await box.fill('channel:des');
  await page.locator('#search-suggestions li', { hasText: '#design' }).waitFor();
  await box.fill('lunch');
  await box.press('Enter');
  await page.waitForURL(/#narrow\/search\/lunch$/);
  await messageRow(page, 'Lunch talk about serif fonts').waitFor();
  await messageRow(page, 'Lunch tomorrow?').waitFor();
  assert.equal(await messageRow(page, 'Navy or teal?').count(), 0);
  // The matched words are highlighted, as the server marked them.
  assert.equal(await messageRow(page, 'Lunch talk about serif fonts').locator('.highlight').innerText(), 'Lunch');
  // Operators narrow further.
  await box.click();
  await box.fill('channel:design lunch');
  await box.press('Enter');
  await page.waitForURL(new RegExp(`#narrow/channel/${design}-design/search/lunch$`));
  // The match outside #design leaves once the narrowed results replace the earlier ones (which share the other).
  await messageRow(page, 'Lunch tomorrow?').waitFor({ state: 'detached' });
  await messageRow(page, 'Lunch talk about serif fonts').waitFor();
  assert.equal(await box.inputValue(), 'channel:design lunch');
});

test('by keyboard alone: search, move, reply, send, star, help, new topic', async () => {
  const { page } = hamlet;
  await page.evaluate(() => { location.hash = '#inbox'; });
  await page.waitForFunction(() => document.querySelector('#view-title')?.textContent === 'Inbox');
  await page.locator('body').focus();
  // n: the next topic with unread messages.
  await page.keyboard.press('n');
  await page.waitForFunction(() => document.querySelector('#view-title')?.textContent?.startsWith('#design'));
  await page.keyboard.press('Escape');
  await page.evaluate((h) => { location.hash = h; }, `#narrow/channel/${design}-design/topic/colors`);
  // Only once every row shown is of #design › colors: the rows of the view before may still be there a moment, and
  // the selection (End, then r) would reply in their topic.
  await page.waitForFunction(() => {
    const rows = [...document.querySelectorAll('.message-row .message_content')];
    return document.querySelector('#view-title')?.textContent?.includes('colors') && rows.length > 0 &&
      rows.every((r) => /^(Navy or teal\?|Color note \d+|The linked message|Later note \d+)$/.test(r.textContent?.trim() ?? ''));
  });
  const selected = () => page.evaluate(() => Number(document.querySelector('.message-box[aria-current="true"]')?.closest('.message-row')?.getAttribute('data-message-id')));
  await page.keyboard.press('End');
  const last = await selected();
  await page.keyboard.press('k');
  assert.ok((await selected()) < last, 'k moves up');
  await page.keyboard.press('j');
  assert.equal(await selected(), last, 'j moves down');
  await page.keyboard.press('*');
  await page.locator(`#message-${last} button.star[aria-pressed="true"]`).waitFor({ state: 'attached' });
  // r: reply in the selected message's topic; Ctrl+Enter sends; Esc closes the compose box.
  await page.keyboard.press('r');
  const text = page.locator('textarea.compose-text');
  await text.waitFor();
  assert.equal(await page.evaluate(() => document.activeElement?.className), 'compose-text');
  await page.keyboard.type('Sent without a mouse');
  await page.keyboard.press('Control+Enter');
  await messageRow(page, 'Sent without a mouse').waitFor();
  await page.keyboard.press('Escape');
  await text.waitFor({ state: 'detached' });
  // ?: the shortcuts; Esc closes them.
  await page.keyboard.press('?');
  await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
  await page.keyboard.press('Escape');
  await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor({ state: 'detached' });
  // c: a new topic, the topic field first; Enter moves on to the message.
  await page.keyboard.press('c');
  await page.waitForFunction(() => document.activeElement?.classList.contains('topic-input'));
  await page.keyboard.type('keyboard topic');
  await page.keyboard.press('Enter');
  await page.keyboard.type('A new topic by keyboard');
  await page.keyboard.press('Control+Enter');
  await page.keyboard.press('Escape');
  await page.evaluate((h) => { location.hash = h; }, `#narrow/channel/${design}-design/topic/keyboard.20topic`);
  await messageRow(page, 'A new topic by keyboard').waitFor();
  // /: search from anywhere; Esc leaves it.
  await page.keyboard.press('/');
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Search messages');
  await page.keyboard.press('Escape');
  // Focus is always visible.
  await page.keyboard.press('Tab');
  const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
  assert.notEqual(outline, 'none');
});

test('a long conversation keeps few rows in the DOM, and loads older messages on the way up', async () => {
  const long = await createChannel(server, 'hamlet', ['hamlet'], {}, 'long');
  const first = await sendToChannel(server, 'hamlet', long, 'history', 'The very first message');
  for (let i = 0; i < 400; i += 20) {
    await Promise.all(Array.from({ length: 20 }, (_, j) => sendToChannel(server, 'hamlet', long, 'history', `History line ${i + j}\n\nwith a second paragraph`)));
  }
  const { page } = hamlet;
  await page.evaluate((h) => { location.hash = h; }, `#narrow/channel/${long}-long/topic/history`);
  await page.locator('.message-row').last().waitFor();
  assert.ok((await page.locator('.message-row').count()) <= 200);
  // Scrolling up loads older pages as it goes, up to the beginning.
  const box = (await page.locator('.vlist').boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  for (let i = 0; i < 200 && !(await page.locator(`#message-${first}`).count()); i++) {
    await page.mouse.wheel(0, -1500);
    await page.waitForTimeout(30);
    assert.ok((await page.locator('.message-row').count()) <= 200, 'few rows in the DOM');
  }
  await page.locator(`#message-${first}`).waitFor();
  // End and Home: the two ends of the conversation.
  await page.locator('.vlist').focus();
  await page.keyboard.press('End');
  await page.waitForFunction(() => document.querySelector('.message-box[aria-current="true"]')?.textContent?.includes('History line'));
  await page.locator(`#message-${first}`).waitFor({ state: 'detached' });
  await page.keyboard.press('Home');
  await page.locator(`#message-${first} .message-box[aria-current="true"]`).waitFor();
  assert.deepEqual(hamlet.errors, []);
});

