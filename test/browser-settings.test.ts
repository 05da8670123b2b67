// The settings overlay in the browser: a member changes their name and theme and sees it at once; a member is
// offered no organization control they may not use, and the API refuses them anyway; an administrator's change
// of a permission reaches another person's open overlay live; an invitation link is created and revoked.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, type TestServer } from './helpers/server.js';
import { assertClientError, assertSuccess } from './helpers/assertions.js';
import { launch, openAs, type Person } from './helpers/browser.js';

let server: TestServer;
let browser: Browser;
let hamlet: Person;
let iago: Person;

const go = (page: Page, hash: string) => page.evaluate((h) => { location.hash = h; }, hash);

// A write from the page itself, with its session and CSRF token, as the app makes them.
const fromPage = (page: Page, method: string, path: string, params: Record<string, string>) =>
  page.evaluate(async ([m, p, body]) => {
    const token = /(?:^|;\s*)csrftoken=([^;]*)/.exec(document.cookie)?.[1] ?? '';
    const res = await fetch(`/json${p}`, { method: m, headers: { 'X-CSRFToken': decodeURIComponent(token) }, body: new URLSearchParams(body as Record<string, string>) });
    return { status: res.status, body: await res.json() };
  }, [method, path, params] as const);

before(async () => {
  server = await startTestServer();
  browser = await launch();
  hamlet = await openAs(browser, server, 'hamlet');
  iago = await openAs(browser, server, 'iago');
});
after(async () => {
  await browser?.close();
  await server?.close();
});

test('a member opens personal settings from the gear menu, changes their name and theme, and sees both', async () => {
  const { page } = hamlet;
  await page.bringToFront();
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  await page.getByRole('menuitem', { name: 'Personal settings' }).click();
  await page.waitForURL(/#settings\/profile$/);
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Full name').fill('Prince Hamlet');
  await dialog.getByRole('button', { name: 'Save' }).first().click();
  await dialog.getByRole('status').filter({ hasText: 'Name saved' }).waitFor();
  await page.locator('.top-bar .my-name', { hasText: 'Prince Hamlet' }).waitFor();
  assert.equal(assertSuccess(await server.as('hamlet').get('/users/me')).full_name, 'Prince Hamlet');

  await dialog.getByRole('link', { name: 'Preferences' }).click();
  await page.waitForURL(/#settings\/preferences$/);
  await dialog.getByLabel('Theme').selectOption({ label: 'Dark' });
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
  await dialog.getByLabel('Pressing Enter').selectOption({ label: 'Sends the message (Shift+Enter adds a line)' });
  await dialog.getByLabel('Time format').selectOption({ label: '24-hour (17:00)' });
  // "Saved" shows once all three changes, in flight together, are saved: the server has kept every one of them.
  await dialog.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
  const settings = assertSuccess(await server.as('hamlet').post('/register', { fetch_event_types: ['user_settings'] })).user_settings;
  assert.equal(settings.color_scheme, 2);
  assert.equal(settings.enter_sends, true);
  assert.equal(settings.twenty_four_hour_time, true);

  // The overlay is modal: Tab and Shift+Tab stay inside it.
  await page.locator('.settings-overlay').focus();
  const inside = () => page.evaluate(() => !!document.activeElement?.closest('.settings-overlay'));
  await page.keyboard.press('Shift+Tab');
  assert.ok(await inside());
  await page.keyboard.press('Tab');
  assert.ok(await inside());
  // Esc closes the overlay and leaves the view as it was.
  await page.locator('.settings-overlay').focus();
  await page.keyboard.press('Escape');
  await page.locator('.settings-overlay').waitFor({ state: 'detached' });
  assert.doesNotMatch(page.url(), /#settings/);
  await dialog.waitFor({ state: 'detached' });
  assert.deepEqual(hamlet.errors, []);
});

test('a member sees no organization control they may not use, and the API refuses them anyway', async () => {
  const { page } = hamlet;
  await page.bringToFront();
  await go(page, '#organization/users');
  const nav = page.locator('.settings-nav');
  await nav.getByRole('link', { name: 'Users' }).waitFor();
  for (const hidden of ['Organization profile', 'Permissions', 'Default channels', 'Profile fields', 'Channel folders']) {
    assert.equal(await nav.getByRole('link', { name: hidden, exact: true }).count(), 0, `${hidden} is not listed for a member`);
  }
  // No role menus nor deactivation for a member.
  await page.locator('.users-table tbody tr').first().waitFor();
  assert.equal(await page.locator('.users-table select').count(), 0);
  assert.equal(await page.getByRole('button', { name: 'Deactivate' }).count(), 0);

  // Opened by its address, the permissions page shows nothing to change.
  await go(page, '#organization/organization-permissions');
  await page.getByRole('alert').filter({ hasText: 'Only organization administrators can see this page.' }).waitFor();
  assert.equal(await page.locator('.group-picker').count(), 0);

  // Linkifiers: listed, but no form to add one; invitations: e-mail (members may) but no reusable link.
  await go(page, '#organization/linkifier-settings');
  await page.getByRole('heading', { name: 'Linkifiers' }).waitFor();
  assert.equal(await page.getByRole('button', { name: 'Add linkifier' }).count(), 0);
  await go(page, '#organization/invitations');
  await page.getByRole('button', { name: 'Send invitations' }).waitFor();
  assert.equal(await page.getByRole('button', { name: 'Create invitation link' }).count(), 0);

  // The API refuses the same requests from the page's own session (and from the API key).
  for (const [method, path, params] of [
    ['PATCH', '/realm', { name: 'Hamlet’s realm' }],
    ['PATCH', '/realm', { can_invite_users_group: JSON.stringify({ new: 1 }) }],
    ['POST', '/invites/multiuse', { invite_as: '400' }],
    ['POST', '/realm/linkifiers', { pattern: '#(?P<id>[0-9]+)', url_template: 'https://example.com/{id}' }],
    ['PATCH', `/users/${server.users.cordelia.id}`, { role: '200' }],
  ] as const) {
    const res = await fromPage(page, method, path, params);
    assert.ok(res.status >= 400 && res.status < 500, `${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    assert.equal(res.body.result, 'error');
  }
  assertClientError(await server.as('hamlet').patch('/realm', { description: 'mine now' }));
  assert.deepEqual(hamlet.errors, []);
});

test('an administrator changes a permission, and a member with the overlay open sees it live', async () => {
  // Hamlet, a member, may add emoji (members by default): the form is there.
  await go(hamlet.page, '#organization/emoji-settings');
  await hamlet.page.getByRole('button', { name: 'Add emoji' }).waitFor();

  const { page } = iago;
  await page.bringToFront();
  await go(page, '#organization/organization-permissions');
  const picker = page.getByLabel('Who can add custom emoji');
  await picker.waitFor();
  // What only owners may change, an administrator sees without a control (and the server refuses them).
  assert.equal(await page.locator('select#perm-can_invite_users_group').count(), 0);
  assert.equal(await page.locator('#perm-can_invite_users_group').innerText(), 'Members');
  assertClientError(await server.as('iago').patch('/realm', { invite_required: 'true' }));
  await picker.selectOption({ label: 'Administrators' });
  await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();

  // Hamlet's panel loses the form without a reload; the server agrees.
  await hamlet.page.getByRole('button', { name: 'Add emoji' }).waitFor({ state: 'detached' });
  const realm = assertSuccess(await server.as('hamlet').post('/register', { fetch_event_types: ['realm'] }));
  const admins = assertSuccess(await server.as('hamlet').get('/user_groups')).user_groups.find((g: { name: string }) => g.name === 'role:administrators');
  assert.equal(realm.realm_can_add_custom_emoji_group, admins.id);
  assert.deepEqual(iago.errors, []);
  assert.deepEqual(hamlet.errors, []);
});

test('an administrator creates an invitation link and revokes it', async () => {
  const { page } = iago;
  await page.bringToFront();
  await go(page, '#organization/invitations');
  await page.getByRole('button', { name: 'Create invitation link' }).click();
  const link = await page.getByLabel('Invitation link').inputValue();
  assert.match(link, /\/join\/[\w-]+\/?$/);
  const row = page.locator('.invites-table tbody tr', { hasText: 'Link' });
  await row.waitFor();
  const listed = assertSuccess(await server.as('iago').get('/invites')).invites.filter((i: { is_multiuse: boolean }) => i.is_multiuse);
  assert.equal(listed.length, 1);

  await row.getByRole('button', { name: 'Revoke' }).click();
  await row.getByRole('button', { name: 'Yes' }).click();
  await row.waitFor({ state: 'detached' });
  assert.equal(assertSuccess(await server.as('iago').get('/invites')).invites.filter((i: { is_multiuse: boolean }) => i.is_multiuse).length, 0);
  // The revoked link no longer lets anyone in.
  const res = await fetch(link, { redirect: 'manual' });
  assert.notEqual(res.status, 200, 'a revoked link shows no sign-up form');
  assert.deepEqual(iago.errors, []);
});

test('an administrator invites by e-mail; the invitation is listed and revoked', async () => {
  const { page } = iago;
  await page.bringToFront();
  await go(page, '#organization/invitations');
  await page.getByLabel(/^E-mail addresses/).fill('rosalind@example.com');
  await page.getByRole('button', { name: 'Send invitations' }).click();
  const row = page.locator('.invites-table tbody tr', { hasText: 'rosalind@example.com' });
  await row.waitFor();
  await row.getByRole('button', { name: 'Revoke' }).click();
  await row.getByRole('button', { name: 'Yes' }).click();
  await row.waitFor({ state: 'detached' });
  assert.equal(assertSuccess(await server.as('iago').get('/invites')).invites.length, 0);
  assert.deepEqual(iago.errors, []);
});

test('an administrator renames the organization; everyone’s top bar follows', async () => {
  const { page } = iago;
  await page.bringToFront();
  await go(page, '#organization/organization-profile');
  await page.getByLabel('Organization name').fill('Elsinore');
  await page.locator('form', { has: page.getByLabel('Organization name') }).getByRole('button', { name: 'Save' }).click();
  await page.getByRole('status').filter({ hasText: 'Name saved' }).waitFor();
  await hamlet.page.locator('.top-bar .org-name', { hasText: 'Elsinore' }).waitFor();
  assert.equal(assertSuccess(await server.as('hamlet').post('/register', { fetch_event_types: ['realm'] })).realm_name, 'Elsinore');
  assert.deepEqual(iago.errors, []);
});

test('a guest sees their personal settings, and no page of the organization meant for members', async () => {
  const polonius = await openAs(browser, server, 'polonius', { hash: '#settings/profile' });
  const { page } = polonius;
  await page.getByLabel('Full name').waitFor();
  assert.equal(await page.locator('.settings-nav a', { hasText: 'Bots' }).count(), 0);
  await go(page, '#organization/channels');
  await page.getByRole('alert').filter({ hasText: 'Guests cannot see this page.' }).waitFor();
  await go(page, '#organization/user-groups');
  await page.getByRole('heading', { name: 'Groups' }).waitFor();
  assert.equal(await page.getByRole('button', { name: 'Create group' }).count(), 0);
  assertClientError(await server.as('polonius').post('/user_groups/create', { name: 'guests', description: '', members: '[]' }));
  assert.deepEqual(polonius.errors, []);
  await polonius.context.close();
});
