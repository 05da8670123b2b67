// The web app's speed, measured in Chromium (Debian's package, through playwright-core) against a real server
// on loopback over the organization of bench/web-db.ts (1,000 people, 200 channels, 100,000 messages, SQLite):
//  W1  initial JavaScript (gzip), from the built files and as Chromium received it;
//  W2  login submitted → first message list painted (cold browser cache each time);
//  W3  scrolling a 10,000-message topic from its newest to its oldest message: message rows in the DOM, long tasks;
//  W4  100 incoming messages a second for 10 s into the open view: long tasks, event-loop lag, messages shown.
// `npm run bench:web` (-- --runs=N for W2's repetitions). Prints a Markdown table for BENCHMARKS.md.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { parseArgs } from 'node:util';
import type { Browser, CDPSession, Page } from 'playwright-core';
import { launch } from '../test/helpers/browser.js';
import { ROOT } from '../test/helpers/server.js';
import { startServerOver, stopServer } from './server.js';
import { LONG_TOPIC, MESSAGES, PEOPLE, CHANNELS, webDb, webDbCopy, type WebDb } from './web-db.js';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
const log = (s: string) => process.stderr.write(`${s}\n`);

// W1: the scripts and styles index.html loads (entry and preloaded chunks), as the server sends them (gzip -9).
function initialFromFiles(): { js: number; css: number } {
  const dir = path.join(ROOT, 'dist/web');
  const html = fs.readFileSync(path.join(dir, 'index.html'), 'utf8');
  const refs = [...html.matchAll(/(?:src|href)="\/static\/([^"]+\.(?:js|css))"/g)].map((m) => m[1]);
  const size = (f: string) => zlib.gzipSync(fs.readFileSync(path.join(dir, f)), { level: 9 }).length;
  return { js: refs.filter((f) => f.endsWith('.js')).reduce((a, f) => a + size(f), 0), css: refs.filter((f) => f.endsWith('.css')).reduce((a, f) => a + size(f), 0) };
}

// Long tasks and the event loop's lag, recorded in the page from its first script on.
const PROBE = `
  window.__long = [];
  new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__long.push(e.duration); }).observe({ type: 'longtask', buffered: true });
  window.__lag = 0;
  (function tick(prev) { setTimeout(() => { const now = performance.now(); window.__lag = Math.max(window.__lag, now - prev - 50); tick(now); }, 50); })(performance.now());
`;

// The page's main-thread CPU time (Chromium's ThreadTime), in ms: unlike durations, not inflated when other
// processes take the machine's cores.
async function cpuMs(cdp: CDPSession): Promise<number> {
  const { metrics } = (await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] };
  return metrics.find((m) => m.name === 'ThreadTime')!.value * 1000;
}

async function login(browser: Browser, url: string, db: WebDb, hash = ''): Promise<{ page: Page; cdp: CDPSession; ms: number; cpu: number; jsBytes: number; close(): Promise<void> }> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  await context.addInitScript(PROBE);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  let jsBytes = 0;
  page.on('response', (r) => {
    if (/\/static\/assets\/.*\.js$/.test(r.url())) jsBytes += Number(r.headers()['content-length'] ?? 0);
  });
  await page.goto(`${url}/login/${hash}`);
  await page.fill('#username', db.email);
  await page.fill('#password', db.password);
  const cpu0 = await cpuMs(cdp);
  const t0 = Date.now();
  await page.click('button[type="submit"]');
  await page.waitForSelector('.message-row', { timeout: 30_000 });
  // Painted: the frame after the rows are in the DOM.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const ms = Date.now() - t0;
  return { page, cdp, ms, cpu: (await cpuMs(cdp)) - cpu0, jsBytes, close: () => context.close() };
}

const longTasks = (page: Page) => page.evaluate(() => (window as unknown as { __long: number[] }).__long.filter((d) => d > 50));
const resetProbe = (page: Page) => page.evaluate(() => {
  (window as unknown as { __long: number[] }).__long = [];
  (window as unknown as { __lag: number }).__lag = 0;
});

async function main(): Promise<void> {
  const db = await webDb(log);
  const copy = webDbCopy(db);
  const server = await startServerOver({ dataDir: copy.dataDir }, { PARLANCE_ARGON2_MEMORY_KIB: '19456', PARLANCE_RATE_LIMIT: '0' });
  const browser = await launch();
  const rows: string[] = [];
  try {
    const files = initialFromFiles();
    // W2, repeated with a cold cache each time.
    const times: number[] = [];
    const cpus: number[] = [];
    let transferred = 0;
    for (let i = 0; i < Number(values.runs); i++) {
      const run = await login(browser, server.url, db);
      times.push(run.ms);
      cpus.push(run.cpu);
      transferred = run.jsBytes;
      await run.close();
    }
    times.sort((a, b) => a - b);
    cpus.sort((a, b) => a - b);
    rows.push(`| W1 | initial JavaScript (gzip): built files / received by Chromium | ${(files.js / 1024).toFixed(1)} KB / ${(transferred / 1024).toFixed(1)} KB (CSS ${(files.css / 1024).toFixed(1)} KB) | ≤ 200 KB |`);
    rows.push(`| W2 | login submitted → first message list painted, cold cache (median / max of ${times.length}; the page's main-thread CPU, median) | ${times[times.length >> 1]} ms / ${times[times.length - 1]} ms (${cpus[cpus.length >> 1].toFixed(0)} ms CPU) | ≤ 1 s |`);

    // W3: from the newest message of the long topic to its oldest, by the wheel.
    const topic = await login(browser, server.url, db, `#narrow/channel/${db.longChannel}-firehose/topic/all`);
    const page = topic.page;
    await page.waitForSelector('.message-row');
    await resetProbe(page);
    await page.mouse.move(700, 450);
    const w3cpu = await cpuMs(topic.cdp);
    const t0 = Date.now();
    let maxRows = 0;
    while (Date.now() - t0 < 300_000) {
      await page.mouse.wheel(0, -2500);
      await page.waitForTimeout(16);
      maxRows = Math.max(maxRows, await page.locator('.message-row').count());
      if (await page.locator('.list-edge.start').count()) break;
    }
    const scrolled = Date.now() - t0;
    const w3used = (await cpuMs(topic.cdp)) - w3cpu;
    const reachedStart = (await page.locator('.list-edge.start').count()) > 0;
    const w3Long = await longTasks(page);
    rows.push(`| W3 | scroll a ${LONG_TOPIC.toLocaleString('en')}-message topic from newest to oldest (${reachedStart ? 'reached' : 'did not reach'} the start in ${(scrolled / 1000).toFixed(0)} s): most message rows in the DOM; long tasks > 50 ms; the page's main-thread CPU | ${maxRows} rows; ${w3Long.length} long tasks${w3Long.length ? ` (longest ${Math.max(...w3Long).toFixed(0)} ms)` : ''}; ${(w3used / 1000).toFixed(1)} s CPU | ≤ 200 rows, none |`);

    // W4: 100 messages a second for 10 s into the topic being read (scrolled to its end).
    await page.keyboard.press('End');
    await page.waitForTimeout(500);
    await resetProbe(page);
    const sender = await senderCredentials(server.url);
    const before = await page.locator('.message-row').count();
    const w4cpu = await cpuMs(topic.cdp);
    const sent = await flood(server.url, sender, db.longChannel, 100, 10);
    await page.waitForFunction((last) => !!document.querySelector(`.message-row[data-message-id="${last}"]`), sent.lastId, { timeout: 30_000 });
    const w4Long = await longTasks(page);
    const w4used = (await cpuMs(topic.cdp)) - w4cpu;
    const lag = await page.evaluate(() => (window as unknown as { __lag: number }).__lag);
    rows.push(`| W4 | ${sent.count} incoming messages at 100/s into the open topic (all shown, the view at the newest): long tasks > 50 ms; worst event-loop lag; the page's main-thread CPU per second | ${w4Long.length} long tasks${w4Long.length ? ` (longest ${Math.max(...w4Long).toFixed(0)} ms)` : ''}; ${lag.toFixed(0)} ms; ${(w4used / 10).toFixed(0)} ms/s; ${await page.locator('.message-row').count()} rows in the DOM (was ${before}) | none |`);
    await topic.close();
  } finally {
    await browser.close();
    await stopServer(server).catch(() => {});
    copy.done();
  }
  console.log(`Organization: ${PEOPLE.toLocaleString('en')} people, ${CHANNELS} channels, ${MESSAGES.toLocaleString('en')} messages (SQLite); Chromium ${await chromiumVersion()}.\n`);
  console.log('| | what | measured | goal |\n|---|---|---|---|');
  for (const r of rows) console.log(r);
}

async function chromiumVersion(): Promise<string> {
  const b = await launch();
  const v = b.version();
  await b.close();
  return v;
}

// The organization's owner sends (subscribed to every channel; the bulk-made people have no password).
async function senderCredentials(url: string): Promise<string> {
  const res = await fetch(`${url}/api/v1/fetch_api_key`, { method: 'POST', body: new URLSearchParams({ username: 'owner@zulip.example.com', password: 'correct horse battery' }) });
  const body = (await res.json()) as { api_key: string };
  return 'Basic ' + Buffer.from(`owner@zulip.example.com:${body.api_key}`).toString('base64');
}

async function flood(url: string, auth: string, channel: number, perSecond: number, seconds: number): Promise<{ count: number; lastId: number }> {
  let lastId = 0;
  let count = 0;
  const start = Date.now();
  const pending: Promise<void>[] = [];
  for (let i = 0; i < perSecond * seconds; i++) {
    const due = start + (i * 1000) / perSecond;
    const wait = due - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    pending.push(fetch(`${url}/api/v1/messages`, {
      method: 'POST', headers: { authorization: auth },
      body: new URLSearchParams({ type: 'stream', to: String(channel), topic: 'all', content: `Flood message ${i}` }),
    }).then(async (r) => {
      const b = (await r.json()) as { id?: number };
      if (b.id) {
        count++;
        lastId = Math.max(lastId, b.id);
      }
    }));
  }
  await Promise.all(pending);
  return { count, lastId };
}

await main();
