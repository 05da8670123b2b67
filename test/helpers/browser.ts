// Browser tests: Debian's chromium (the `chromium` package; .ci/run installs it) driven by playwright-core,
// against a real server on loopback. Nothing is downloaded. Each person gets a browser context of their own and
// logs in through the login form.
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { SeedName, TestServer } from './server.js';
import { ROOT } from './server.js';

export const CHROMIUM = process.env.PARLANCE_CHROMIUM ?? '/usr/bin/chromium';

// Without the networking flags Chromium keeps trying to reach Google's services.
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'];

export async function launch(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium package (apt-get install chromium), or set PARLANCE_CHROMIUM`);
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}

export interface Person {
  context: BrowserContext;
  page: Page;
  errors: string[]; // uncaught page errors and Content-Security-Policy violations: a test fails if any
}

export interface OpenOptions {
  hash?: string;
  colorScheme?: 'light' | 'dark';
  viewport?: { width: number; height: number };
  host?: string;
}

// Opens the app as a seeded person: the login page, the form, and the app at `hash`.
export async function openAs(browser: Browser, server: TestServer, name: SeedName, opts: OpenOptions = {}): Promise<Person> {
  const context = await browser.newContext({ viewport: opts.viewport ?? { width: 1280, height: 800 }, colorScheme: opts.colorScheme ?? 'light', locale: 'en-US', timezoneId: 'UTC' });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to (load|execute|apply|connect|frame)/.test(m.text())) errors.push(m.text());
  });
  const base = opts.host ? `http://${opts.host}` : server.url;
  await page.goto(`${base}/${opts.hash ?? ''}`);
  await page.waitForURL(/\/login\//);
  await page.fill('#username', server.users[name].email);
  await page.fill('#password', server.users[name].password);
  await page.click('button[type="submit"]');
  await page.waitForSelector('.app .top-bar');
  return { context, page, errors };
}

export const SCREENSHOTS = process.env.PARLANCE_SCREENSHOTS_DIR ?? path.join(ROOT, 'dist/screenshots');

export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  const file = path.join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}

// The row of a message (delivered: not one still on its way) holding this text.
export const messageRow = (page: Page, text: string) => page.locator('.message-row:not(.pending)', { has: page.locator('.message_content', { hasText: text }) });
