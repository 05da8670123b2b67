// Organising and the rest of writing, in the browser: mark unread from here, mute and follow a topic, move and
// delete messages, report, quote and reply, drafts kept and restored, scheduled sending, and the preview.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, type TestServer } from './helpers/server.js';
import { createChannel, fetchMessages, sendToChannel } from './helpers/messages.js';
import { assertSuccess } from './helpers/assertions.js';
import { launch, messageRow, openAs, type Person } from './helpers/browser.js';

let server: TestServer;
let browser: Browser;
let channel: number;
let hamlet: Person;

const topicHash = (topic: string) => `#narrow/channel/${channel}-garden/topic/${encodeURIComponent(topic).replace(/\./g, '%2E').replace(/%/g, '.')}`;
const go = (page: Page, hash: string) => page.evaluate((h) => { location.hash = h; }, hash);
const badge = (page: Page, text: string) => page.locator('.left-sidebar .topics a.row', { hasText: text }).locator('.badge');

before(async () => {
  server = await startTestServer();
  channel = await createChannel(server, 'hamlet', ['hamlet', 'cordelia'], {}, 'garden');
  for (const t of ['roses', 'tulips']) {
    for (let i = 1; i <= 3; i++) await sendToChannel(server, 'cordelia', channel, t, `${t} note ${i}`);
  }
  browser = await launch();
  hamlet = await openAs(browser, server, 'hamlet', { hash: topicHash('roses') });
  await messageRow(hamlet.page, 'roses note 3').waitFor();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

test('mark as unread from here (Shift+U), then read again as they are seen', async () => {
  const { page } = hamlet;
  await page.bringToFront();
  await badge(page, 'roses').waitFor({ state: 'detached' });
  await messageRow(page, 'roses note 2').click();
  await page.keyboard.press('Shift+U');

  await badge(page, 'roses').filter({ hasText: '2' }).waitFor();
  // Reading them again: the view's "mark all as read".
  await page.getByRole('button', { name: 'Mark all as read' }).click();
  await badge(page, 'roses').waitFor({ state: 'detached' });
});

test('mute a topic (Shift+M) takes it out of the counts; following it from the header', async () => {
  const { page } = hamlet;
  await sendToChannel(server, 'cordelia', channel, 'tulips', 'tulips note 4');
  await badge(page, 'tulips').waitFor();
  await go(page, topicHash('tulips'));
  await messageRow(page, 'tulips note 4').click();
  await page.keyboard.press('Shift+M');
  await page.locator('.left-sidebar .topics a.row.muted', { hasText: 'tulips' }).waitFor();
  await page.getByRole('combobox', { name: 'Mute or follow this topic' }).selectOption({ label: 'Topic: followed' });
  await page.locator('.left-sidebar .topics a.row:not(.muted)', { hasText: 'tulips' }).waitFor();
  const topics = assertSuccess(await server.as('hamlet').post('/register', { fetch_event_types: ['user_topic'] })).user_topics;
  assert.deepEqual(topics.map((t: { topic_name: string; visibility_policy: number }) => [t.topic_name, t.visibility_policy]), [['tulips', 3]]);
});

test('move a topic, and delete a message, through their dialogs', async () => {
  const { page } = hamlet;
  await go(page, topicHash('roses'));
  await messageRow(page, 'roses note 1').click();
  await page.keyboard.press('i');
  await page.getByRole('menuitem', { name: 'Move messages…' }).click();
  await page.fill('#move-topic', 'roses and more');
  await page.getByRole('button', { name: 'Move', exact: true }).click();
  await page.locator('.left-sidebar .topics a.row', { hasText: 'roses and more' }).waitFor();
  await go(page, topicHash('roses and more'));
  await messageRow(page, 'roses note 3').waitFor();
  await messageRow(page, 'roses note 3').locator('.edited-marker', { hasText: 'moved' }).waitFor();
  // Delete one of one's own: first a message of one's own.
  await page.keyboard.press('r');
  await page.locator('textarea.compose-text').fill('To be deleted');
  await page.keyboard.press('Control+Enter');
  await messageRow(page, 'To be deleted').click();
  await page.keyboard.press('Escape'); // the compose box closes; the selection stays
  await messageRow(page, 'To be deleted').click();
  await page.keyboard.press('i');
  await page.getByRole('menuitem', { name: 'Delete message…' }).click();
  await page.getByRole('dialog', { name: 'Delete message?' }).getByRole('button', { name: 'Delete' }).click();
  await messageRow(page, 'To be deleted').waitFor({ state: 'detached' });
});

test('quote and reply (>) quotes the message with a link to it', async () => {
  const { page } = hamlet;
  await messageRow(page, 'roses note 2').click();
  await page.keyboard.press('>');
  await page.waitForFunction(() => (document.querySelector('textarea.compose-text') as HTMLTextAreaElement)?.value.includes('```quote'));
  const text = await page.locator('textarea.compose-text').inputValue();
  assert.match(text, /^@_\*\*Cordelia, Lear's daughter\|\d+\*\* \[said\]\(http:\/\/.*#narrow\/channel\/\d+-garden\/topic\/roses\.20and\.20more\/near\/\d+\):\n```quote\nroses note 2\n```\n$/);
  await page.keyboard.press('Control+Enter');
  await messageRow(page, 'roses note 2').nth(1).waitFor();
  await page.keyboard.press('Escape');
});

test('report a message, once the organization has a moderation channel', async () => {
  const { page } = hamlet;
  await messageRow(page, 'roses note 3').click();
  await page.keyboard.press('i');
  assert.equal(await page.getByRole('menuitem', { name: 'Report message…' }).count(), 0, 'reporting is off');
  await page.keyboard.press('Escape');
  const moderation = await createChannel(server, 'desdemona', ['desdemona'], { invite_only: true }, 'moderation');
  assertSuccess(await server.as('desdemona').patch('/realm', { moderation_request_channel_id: moderation }));
  await messageRow(page, 'roses note 3').click();
  await page.keyboard.press('i');
  await page.getByRole('menuitem', { name: 'Report message…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Report message' });
  await dialog.locator('#report-type').selectOption('spam');
  await dialog.getByRole('button', { name: 'Report' }).click();
  await dialog.waitFor({ state: 'detached' });
});

test('a draft is kept as you type, listed in Drafts, and restored in its conversation', async () => {
  const { page } = hamlet;
  await go(page, topicHash('tulips'));
  await messageRow(page, 'tulips note 4').waitFor();
  await page.keyboard.press('r');
  await page.locator('textarea.compose-text').fill('A thought about tulips');
  // Saved a moment after typing stops.
  for (let i = 0; i < 50; i++) {
    const drafts = assertSuccess(await server.as('hamlet').get('/drafts')).drafts;
    if (drafts.some((d: { content: string }) => d.content === 'A thought about tulips')) break;
    await page.waitForTimeout(100);
  }
  await page.keyboard.press('Escape');
  await go(page, '#drafts');
  await page.locator('.card.draft', { hasText: 'A thought about tulips' }).waitFor();
  await go(page, topicHash('tulips'));
  await messageRow(page, 'tulips note 4').waitFor();
  await page.keyboard.press('r');
  await page.waitForFunction(() => (document.querySelector('textarea.compose-text') as HTMLTextAreaElement)?.value === 'A thought about tulips');
  // Sent: the draft goes.
  await page.keyboard.press('Control+Enter');
  await messageRow(page, 'A thought about tulips').waitFor();
  for (let i = 0; i < 50; i++) {
    if (!assertSuccess(await server.as('hamlet').get('/drafts')).drafts.length) break;
    await page.waitForTimeout(100);
  }
  assert.deepEqual(assertSuccess(await server.as('hamlet').get('/drafts')).drafts, []);
});

test('schedule a message, see it in Scheduled messages, cancel it; the preview renders', async () => {
  const { page } = hamlet;
  await page.locator('textarea.compose-text').fill('**Later** message');
  await page.getByRole('button', { name: 'Preview' }).click();
  await page.locator('.compose .preview strong', { hasText: 'Later' }).waitFor();
  await page.getByRole('button', { name: 'Preview' }).click();
  await page.getByRole('button', { name: 'Schedule…' }).click();
  await page.getByRole('button', { name: 'Tomorrow at 9:00' }).click();
  await page.locator('.left-sidebar a.row', { hasText: 'Scheduled messages' }).locator('.badge', { hasText: '1' }).waitFor();
  await go(page, '#scheduled');
  const card = page.locator('.card', { hasText: 'Later' });
  await card.waitFor();
  await card.getByRole('button', { name: 'Cancel' }).click();
  await card.waitFor({ state: 'detached' });
  const sent = await fetchMessages(server, 'hamlet', { narrow: [{ operator: 'search', operand: 'Later' }] });
  assert.equal(sent.messages.length, 0, 'not sent');
  assert.deepEqual(hamlet.errors, []);
});
