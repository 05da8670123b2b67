// The settings overlay as people see it: light and dark, a wide and a narrow window, personal and organization
// panels. Screenshots go to dist/screenshots (PARLANCE_SCREENSHOTS_DIR otherwise); the checks are what a
// screenshot would show: nothing wider than the window, every panel rendered without an error.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, type TestServer } from './helpers/server.js';
import { createChannel } from './helpers/messages.js';
import { assertSuccess } from './helpers/assertions.js';
import { launch, openAs, screenshot } from './helpers/browser.js';

let server: TestServer;
let browser: Browser;

const PANELS = [
  '#settings/profile', '#settings/account-and-privacy', '#settings/preferences', '#settings/notifications', '#settings/alert-words',
  '#settings/muted-users', '#settings/topics', '#settings/your-bots', '#settings/uploaded-files',
  '#organization/organization-profile', '#organization/organization-permissions', '#organization/users', '#organization/invitations',
  '#organization/emoji-settings', '#organization/linkifier-settings', '#organization/playground-settings', '#organization/default-channels-list',
  '#organization/profile-field-settings', '#organization/user-groups', '#organization/channels', '#organization/channel-folders',
];

before(async () => {
  server = await startTestServer();
  const design = await createChannel(server, 'iago', ['iago', 'hamlet', 'cordelia'], { description: 'Logos and type' }, 'design');
  await createChannel(server, 'iago', ['iago', 'hamlet'], {}, 'engineering');
  const group = assertSuccess(await server.as('iago').post('/user_groups/create', { name: 'designers', description: 'People who draw', members: JSON.stringify([server.users.hamlet.id, server.users.iago.id]) }));
  PANELS.push(`#organization/user-groups/${group.group_id}`, `#organization/channels/${design}`);
  assertSuccess(await server.as('iago').post('/realm/linkifiers', { pattern: '#(?P<id>[0-9]+)', url_template: 'https://github.com/example/repo/issues/{id}' }));
  assertSuccess(await server.as('iago').post('/users/me/alert_words', { alert_words: JSON.stringify(['deploy', 'logo']) }));
  assertSuccess(await server.as('iago').post('/default_streams', { stream_id: design }));
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

async function visit(page: Page, hash: string): Promise<void> {
  await page.evaluate((h) => { location.hash = h; }, hash);
  await page.locator('.settings-panel h2').waitFor();
  await page.waitForFunction(() => !document.querySelector('.settings-panel')?.textContent?.includes('Loading…'));
}

for (const scheme of ['light', 'dark'] as const) {
  for (const [size, viewport] of [['wide', { width: 1280, height: 800 }], ['narrow', { width: 390, height: 800 }]] as const) {
    test(`every panel renders, ${scheme}, ${size} window`, async () => {
      const person = await openAs(browser, server, 'iago', { colorScheme: scheme, viewport });
      const { page } = person;
      for (const hash of PANELS) {
        await visit(page, hash);
        assert.equal(await page.locator('.settings-panel [role="alert"]').filter({ hasText: /could not be shown|no such/i }).count(), 0, hash);
        assert.equal(await page.locator('.empty-state[role="alert"]').count(), 0, hash);
        const overflow = await page.evaluate(() => {
          const el = document.querySelector('.settings-panel')!;
          return el.scrollWidth - el.clientWidth;
        });
        assert.ok(overflow <= 1, `${hash} overflows by ${overflow}px`);
        const name = hash.slice(1).replace(/\//g, '-');
        if (['settings-profile', 'settings-notifications', 'organization-organization-permissions', 'organization-users', 'organization-invitations', 'organization-user-groups'].includes(name) || /^organization-(user-groups|channels)-\d+$/.test(name)) {
          await screenshot(page, `settings-${name}-${scheme}-${size}`);
        }
      }
      assert.deepEqual(person.errors, []);
      await person.context.close();
    });
  }
}
