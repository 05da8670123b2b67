// Two people in two browsers: they chat in a channel's topic and by direct message and see each other live —
// messages, typing, reactions, edits, presence — with unread counts following.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { startTestServer, type TestServer } from './helpers/server.js';
import { createChannel } from './helpers/messages.js';
import { launch, messageRow, openAs, type Person } from './helpers/browser.js';

let server: TestServer;
let browser: Browser;
let design: number;
let hamlet: Person;
let cordelia: Person;

before(async () => {
  server = await startTestServer();
  design = await createChannel(server, 'hamlet', ['hamlet', 'cordelia'], {}, 'design');
  browser = await launch();
  const topic = `#narrow/channel/${design}-design/topic/colors`;
  [hamlet, cordelia] = await Promise.all([openAs(browser, server, 'hamlet', { hash: topic }), openAs(browser, server, 'cordelia', { hash: topic })]);
});
after(async () => {
  await browser?.close();
  await server?.close();
});

test('a message sent in a topic appears at once for the other person', async () => {
  const { page } = hamlet;
  await page.keyboard.press('r');
  const box = page.locator('textarea.compose-text');
  await box.waitFor();
  assert.equal(await page.locator('.topic-input').inputValue(), 'colors');
  await box.fill('Which blue for the logo?');
  await box.press('Control+Enter');
  await messageRow(page, 'Which blue for the logo?').waitFor();
  await messageRow(cordelia.page, 'Which blue for the logo?').waitFor();
  assert.equal(await box.inputValue(), '', 'the compose box is emptied');
});

test('typing notices show while the other person types, and stop', async () => {
  const box = cordelia.page.locator('textarea.compose-text');
  await cordelia.page.keyboard.press('r');
  await box.waitFor();
  await box.pressSequentially('Navy, I think', { delay: 20 });
  await hamlet.page.locator('.typing-notice', { hasText: "Cordelia, Lear's daughter is typing…" }).waitFor();
  await box.press('Control+Enter');
  await messageRow(hamlet.page, 'Navy, I think').waitFor();
  await hamlet.page.locator('.typing-notice', { hasText: 'is typing' }).waitFor({ state: 'detached' }).catch(async () => {
    assert.equal(await hamlet.page.locator('.typing-notice').textContent(), '');
  });
});

test('a reaction from the emoji picker shows for both', async () => {
  const row = messageRow(cordelia.page, 'Which blue for the logo?');
  await row.click(); // selected: its controls show
  await row.getByRole('button', { name: 'Add emoji reaction' }).first().click();
  const search = cordelia.page.getByRole('searchbox', { name: 'Search emoji' });
  await search.fill('tada');
  await cordelia.page.locator('.emoji-cells button[title=":tada:"]').waitFor();
  await search.press('Enter');
  await messageRow(hamlet.page, 'Which blue for the logo?').locator('.message_reaction[data-emoji-name="tada"]').waitFor();
  const mine = messageRow(cordelia.page, 'Which blue for the logo?').locator('.message_reaction[data-emoji-name="tada"]');
  assert.equal(await mine.getAttribute('aria-pressed'), 'true');
  // Clicking it again takes it back, for both.
  await mine.click();
  await messageRow(hamlet.page, 'Which blue for the logo?').locator('.message_reaction[data-emoji-name="tada"]').waitFor({ state: 'detached' });
});

test('an edit shows for the other person, marked edited', async () => {
  const { page } = hamlet;
  await messageRow(page, 'Which blue for the logo?').click();
  await page.keyboard.press('e');
  const box = page.locator('textarea.compose-text');
  await page.waitForFunction(() => (document.querySelector('textarea.compose-text') as HTMLTextAreaElement)?.value === 'Which blue for the logo?');
  await box.fill('Which blue for the new logo?');
  await box.press('Control+Enter');
  const row = messageRow(cordelia.page, 'Which blue for the new logo?');
  await row.waitFor();
  await row.locator('.edited-marker').waitFor();
});

test('direct messages: the conversation opens from the people list, and the unread count shows live', async () => {
  const { page } = hamlet;
  await page.locator(`.people a[data-user-id="${server.users.cordelia.id}"]`).click();
  await page.waitForURL(new RegExp(`#narrow/dm/${server.users.cordelia.id}-`));
  await page.keyboard.press('r');
  const box = page.locator('textarea.compose-text');
  await box.fill('Lunch at noon?');
  await box.press('Control+Enter');
  await messageRow(page, 'Lunch at noon?').waitFor();
  // Cordelia, reading the topic, sees the conversation with its unread count in the sidebar.
  const dmRow = cordelia.page.locator('.left-sidebar a.row.dm', { hasText: 'King Hamlet' });
  await dmRow.locator('.badge', { hasText: '1' }).waitFor();
  await dmRow.click();
  await messageRow(cordelia.page, 'Lunch at noon?').waitFor();
  // Read once seen: the count goes.
  await dmRow.locator('.badge').waitFor({ state: 'detached' });
});

test('presence: each sees the other active', async () => {
  const dot = (p: Person, id: number) => p.page.locator(`.people a[data-user-id="${id}"] .presence`);
  await hamlet.page.waitForFunction((id) => document.querySelector(`.people a[data-user-id="${id}"] .presence`)?.getAttribute('data-presence') === 'active', server.users.cordelia.id, { timeout: 10_000 });
  assert.equal(await dot(cordelia, server.users.hamlet.id).getAttribute('data-presence'), 'active');
  assert.equal(await dot(hamlet, server.users.polonius.id).getAttribute('data-presence'), 'offline');
});

test('no page errors', () => {
  assert.deepEqual([...hamlet.errors, ...cordelia.errors], []);
});
