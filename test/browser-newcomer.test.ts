// The newcomer's path, as the "done when" has it: a server started on an empty database prints the
// owner's credentials and its address; the owner logs in there, a second person made with the command line logs
// in too, the owner creates a channel in the app, and the two chat in it.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { Browser, Page } from 'playwright-core';
import { BIN, startTestServer, type TestServer } from './helpers/server.js';
import { launch, messageRow } from './helpers/browser.js';

let server: TestServer;
let browser: Browser;

before(async () => {
  server = await startTestServer({ seed: false, env: { PARLANCE_OWNER_EMAIL: 'owner@parlance.example.com' } });
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

function cli(...args: string[]): Promise<{ code: number | null; stdout: string }> {
  const env = { ...(process.env as Record<string, string>), DATABASE_URL: server.db.databaseUrl ?? '', PARLANCE_ARGON2_MEMORY_KIB: '1024' };
  delete (env as Record<string, string | undefined>).PARLANCE_DATA;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args, '--data', server.db.dataDir], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout }));
  });
}

async function logIn(url: string, email: string, password: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(url);
  await page.fill('#username', email);
  await page.fill('#password', password);
  await page.click('button[type="submit"]');
  await page.waitForSelector('.app .top-bar');
  return page;
}

test('first start, log in with the printed credentials, a second person from the command line, a channel, a chat', async () => {
  const printed = server.stdout;
  const email = /e-mail:\s+(\S+)/.exec(printed)?.[1];
  const password = /password:\s+(\S+)/.exec(printed)?.[1];
  const url = /Open (http:\/\/\S+) in a browser/.exec(printed)?.[1];
  assert.ok(email && password && url, printed);
  const made = await cli('create-user', '--email', 'mia@parlance.example.com', '--name', 'Mia', '--password', 'mia password 1', '--role', 'member');
  assert.equal(made.code, 0);

  const owner = await logIn(url, email, password);
  // An empty organization greets the owner with a way to start.
  await owner.getByRole('button', { name: 'Create or join a channel' }).click();
  await owner.getByRole('button', { name: 'Create a channel' }).click();
  await owner.fill('#new-channel-name', 'general');
  await owner.fill('#new-channel-description', 'Everything');
  await owner.getByRole('button', { name: 'Create channel' }).click();
  await owner.waitForFunction(() => document.querySelector('#view-title')?.textContent === '#general');

  const mia = await logIn(url, 'mia@parlance.example.com', 'mia password 1');
  await mia.locator('.section-head').getByRole('button', { name: 'Browse channels' }).click();
  await mia.locator('.channel-list li', { hasText: 'general' }).getByRole('button', { name: 'Subscribe' }).click();
  await mia.locator('.channel-list li', { hasText: 'general' }).getByRole('button', { name: 'Unsubscribe' }).waitFor();
  await mia.keyboard.press('Escape');
  await mia.locator('.left-sidebar a.row.channel', { hasText: 'general' }).click();

  await owner.keyboard.press('c');
  await owner.keyboard.type('hello');
  await owner.keyboard.press('Enter');
  await owner.keyboard.type('Welcome, Mia!');
  await owner.keyboard.press('Control+Enter');
  await messageRow(mia, 'Welcome, Mia!').waitFor();
  await mia.keyboard.press('r');
  await mia.keyboard.type('Thanks, glad to be here.');
  await mia.keyboard.press('Control+Enter');
  await messageRow(owner, 'Thanks, glad to be here.').waitFor();
});
