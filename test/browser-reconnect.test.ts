// The live connection: a server restart shows the reconnecting banner and then goes on where it was (the queue
// outlives the restart); a lost queue (BAD_EVENT_QUEUE_ID) means registering again and reloading the view,
// with the compose box kept.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { startTestServer, type TestServer } from './helpers/server.js';
import { createChannel, sendToChannel } from './helpers/messages.js';
import { launch, messageRow, openAs, type Person } from './helpers/browser.js';

let server: TestServer;
let browser: Browser;
let channel: number;
let hamlet: Person;

before(async () => {
  server = await startTestServer();
  channel = await createChannel(server, 'hamlet', ['hamlet', 'cordelia'], {}, 'ops');
  await sendToChannel(server, 'cordelia', channel, 'deploys', 'First deploy done');
  browser = await launch();
  hamlet = await openAs(browser, server, 'hamlet', { hash: `#narrow/channel/${channel}-ops/topic/deploys` });
  await messageRow(hamlet.page, 'First deploy done').waitFor();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

test('across a server restart: a banner while it is down, then live again, the draft kept', async () => {
  const { page } = hamlet;
  await page.keyboard.press('r');
  const box = page.locator('textarea.compose-text');
  await box.fill('half-written thought');
  await server.stop();
  await page.locator('.banner[data-connection="reconnecting"]').waitFor({ timeout: 15_000 });
  await server.start();
  await sendToChannel(server, 'cordelia', channel, 'deploys', 'Second deploy done');
  await messageRow(page, 'Second deploy done').waitFor({ timeout: 40_000 });
  await page.locator('.banner').waitFor({ state: 'detached' });
  assert.equal(await box.inputValue(), 'half-written thought');
});

test('a lost event queue: register again, reload the view, keep the compose box', async () => {
  const { page } = hamlet;
  const box = page.locator('textarea.compose-text');
  let registrations = 0;
  page.on('request', (r) => void (r.url().endsWith('/json/register') && registrations++));
  // The next poll is told its queue is gone, as after a long sleep.
  let lost = false;
  await page.route('**/json/events?*', async (route) => {
    if (lost) return route.continue();
    lost = true;
    await route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ result: 'error', msg: 'Bad event queue ID: x', code: 'BAD_EVENT_QUEUE_ID', queue_id: 'x' }) });
  });
  // A message ends the parked poll; the next one finds the queue gone.
  await sendToChannel(server, 'cordelia', channel, 'deploys', 'Third deploy done');
  await messageRow(page, 'Third deploy done').waitFor();
  await page.waitForFunction(() => !document.querySelector('.banner'));
  for (let i = 0; i < 100 && registrations === 0; i++) await page.waitForTimeout(100);
  assert.ok(lost, 'the queue was lost');
  assert.equal(registrations, 1, 'registered again');
  // The view was reloaded from the server, and the compose box kept its text.
  await messageRow(page, 'Third deploy done').waitFor();
  await messageRow(page, 'First deploy done').waitFor();
  assert.equal(await box.inputValue(), 'half-written thought');
  // And live again on the new queue.
  await sendToChannel(server, 'cordelia', channel, 'deploys', 'Fourth deploy done');
  await messageRow(page, 'Fourth deploy done').waitFor();
  assert.deepEqual(hamlet.errors, []);
});
