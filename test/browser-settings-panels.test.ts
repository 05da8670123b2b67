// Each settings panel does what it offers, through the browser: the personal lists (alert words, muted users,
// bots and their keys, uploaded files), the account (API key behind the password, password change, e-mail
// change request), notifications per channel; and the organization's users, emoji, linkifiers, groups and
// channels. What the page shows follows the server's events.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { PASSWORD, startTestServer, type TestServer } from './helpers/server.js';
import { createChannel } from './helpers/messages.js';
import { assertSuccess } from './helpers/assertions.js';
import { launch, openAs, type Person } from './helpers/browser.js';
import { uploaded } from './helpers/uploads.js';

let server: TestServer;
let browser: Browser;
let cordelia: Person;
let iago: Person;
let garden: number;

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP4z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==', 'base64');
const go = (page: Page, hash: string) => page.evaluate((h) => { location.hash = h; }, hash);
const saved = (page: Page, text: string | RegExp) => page.locator('.settings-panel [role="status"]', { hasText: text }).first().waitFor();

before(async () => {
  server = await startTestServer();
  garden = await createChannel(server, 'iago', ['iago', 'cordelia', 'hamlet'], {}, 'garden');
  browser = await launch();
  cordelia = await openAs(browser, server, 'cordelia', { hash: '#settings/alert-words' });
  iago = await openAs(browser, server, 'iago');
});
after(async () => {
  await browser?.close();
  await server?.close();
});

test('alert words and muted users: added and removed, the lists follow the events', async () => {
  const { page } = cordelia;
  await page.bringToFront();
  await page.getByLabel('New alert word').fill('roses');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await page.locator('.alert-words li', { hasText: 'roses' }).waitFor();
  assert.deepEqual(assertSuccess(await server.as('cordelia').get('/users/me/alert_words')).alert_words, ['roses']);
  await page.getByRole('button', { name: 'Remove roses' }).click();
  await page.locator('.alert-words li', { hasText: 'roses' }).waitFor({ state: 'detached' });

  await go(page, '#settings/muted-users');
  await page.getByLabel('Person to mute').selectOption({ label: 'King Hamlet' });
  await page.getByRole('button', { name: 'Mute', exact: true }).click();
  await page.locator('.settings-list li', { hasText: 'King Hamlet' }).waitFor();
  // Unmuted elsewhere (the API): the list follows.
  assertSuccess(await server.as('cordelia').delete(`/users/me/muted_users/${server.users.hamlet.id}`));
  await page.locator('.settings-list li', { hasText: 'King Hamlet' }).waitFor({ state: 'detached' });
  assert.deepEqual(cordelia.errors, []);
});

test('bots: create one, see its key, make a new key, deactivate it', async () => {
  const { page } = cordelia;
  await go(page, '#settings/your-bots');
  await page.getByLabel('Name', { exact: true }).fill('Weather');
  await page.getByLabel(/Bot e-mail/).fill('weather');
  await page.getByRole('button', { name: 'Create bot' }).click();
  const row = page.locator('.bots li', { hasText: 'Weather' });
  await row.waitFor();
  await row.getByRole('button', { name: 'Show key' }).click();
  const first = await row.locator('.api-key').innerText();
  assert.match(first, /^\w{20,}$/);
  await row.getByRole('button', { name: 'New key' }).click();
  await row.getByRole('button', { name: 'Yes' }).click();
  await page.waitForFunction((old) => {
    const key = document.querySelector('.bots li .api-key')?.textContent;
    return key && key !== old;
  }, first);
  await row.getByRole('button', { name: 'Deactivate' }).click();
  await row.getByRole('button', { name: 'Yes' }).click();
  await row.getByRole('button', { name: 'Reactivate' }).waitFor();
  assert.deepEqual(cordelia.errors, []);
});

test('account: the API key after the password; a wrong password is refused; password and e-mail changes', async () => {
  const { page } = cordelia;
  await go(page, '#settings/account-and-privacy');
  await page.getByLabel('Enter your password to see your API key').fill('not my password');
  await page.getByRole('button', { name: 'Show API key' }).click();
  await page.locator('.settings-panel [role="alert"]').first().waitFor();
  assert.equal(await page.locator('.api-key').count(), 0);
  await page.getByLabel('Enter your password to see your API key').fill(PASSWORD);
  await page.getByRole('button', { name: 'Show API key' }).click();
  assert.equal(await page.locator('.api-key').innerText(), server.users.cordelia.apiKey);
  // A new key replaces the old one (after a confirmation); the old one stops working.
  page.once('dialog', (d) => void d.accept());
  await page.getByRole('button', { name: 'Generate a new key' }).click();
  await saved(page, 'New key made');
  const fresh = await page.locator('.api-key').innerText();
  assert.notEqual(fresh, server.users.cordelia.apiKey);
  assert.equal((await server.as('cordelia').get('/users/me')).status, 401);
  server.users.cordelia.apiKey = fresh;
  assert.equal((await server.as('cordelia').get('/users/me')).status, 200);

  await page.getByLabel('Current password').fill(PASSWORD);
  await page.getByLabel('New password', { exact: true }).fill('a much longer new password');
  await page.getByRole('button', { name: 'Change password' }).click();
  await saved(page, 'Password changed');
  const login = await fetch(`${server.url}/api/v1/fetch_api_key`, { method: 'POST', body: new URLSearchParams({ username: server.users.cordelia.email, password: 'a much longer new password' }) });
  assert.equal(login.status, 200);

  await page.getByLabel('New e-mail address').fill('cordelia.new@example.com');
  await page.getByRole('button', { name: 'Change', exact: true }).click();
  await saved(page, /Check cordelia\.new@example\.com/);
  assert.deepEqual(cordelia.errors, []);
});

test('notifications per channel, and uploaded files with their quota', async () => {
  const { page } = cordelia;
  await go(page, '#settings/notifications');
  await page.getByLabel('E-mail: garden').check();
  await saved(page, 'Saved');
  const subs = assertSuccess(await server.as('cordelia').get('/users/me/subscriptions')).subscriptions;
  assert.equal(subs.find((s: { stream_id: number }) => s.stream_id === garden).email_notifications, true);

  await go(page, '#settings/uploaded-files');
  await page.locator('.settings-table').waitFor();
  // Uploaded elsewhere while the panel is open: the attachment event brings it in.
  await uploaded(server, 'cordelia', 'dot.png', PNG, 'image/png');
  const row = page.locator('.settings-table tbody tr', { hasText: 'dot.png' });
  await row.waitFor();
  await page.locator('.upload-quota', { hasText: 'Used:' }).waitFor();
  await row.getByRole('button', { name: 'Delete' }).click();
  await row.getByRole('button', { name: 'Yes' }).click();
  await row.waitFor({ state: 'detached' });
  assert.equal(assertSuccess(await server.as('cordelia').get('/attachments')).attachments.length, 0);
  assert.deepEqual(cordelia.errors, []);
});

test('organization: a role changed by an administrator reaches the member live; a user deactivated and reactivated', async () => {
  const { page } = iago;
  await page.bringToFront();
  await go(cordelia.page, '#organization/users');
  await cordelia.page.locator('.users-table').waitFor();
  assert.equal(await cordelia.page.locator('.settings-nav a', { hasText: 'Permissions' }).count(), 0);

  await go(page, '#organization/users');
  await page.getByLabel('Role of Cordelia, Lear\'s daughter').selectOption({ label: 'Administrator' });
  await saved(page, 'Role changed');
  // Cordelia's own overlay offers the administrators' pages without a reload.
  await cordelia.page.locator('.settings-nav a', { hasText: 'Permissions' }).waitFor();
  await page.getByLabel('Role of Cordelia, Lear\'s daughter').selectOption({ label: 'Member' });
  await cordelia.page.locator('.settings-nav a', { hasText: 'Permissions' }).waitFor({ state: 'detached' });

  const row = page.locator('.users-table tr', { hasText: 'Polonius' });
  await row.getByRole('button', { name: 'Deactivate' }).click();
  await row.getByRole('button', { name: 'Yes' }).click();
  await row.waitFor({ state: 'detached' });
  await page.getByRole('tab', { name: 'Deactivated' }).click();
  await page.locator('.users-table tr', { hasText: 'Polonius' }).getByRole('button', { name: 'Reactivate' }).click();
  await page.locator('.users-table tr', { hasText: 'Polonius' }).waitFor({ state: 'detached' });
  // Bots: the one Cordelia deactivated is reactivated, then deactivated again, by an administrator.
  await page.getByRole('tab', { name: 'Bots' }).click();
  const bot = page.locator('.users-table tr', { hasText: 'Weather' });
  await bot.getByRole('button', { name: 'Reactivate' }).click();
  await bot.getByRole('button', { name: 'Deactivate' }).click();
  await bot.getByRole('button', { name: 'Yes' }).click();
  await bot.getByRole('button', { name: 'Reactivate' }).waitFor();
  await page.getByPlaceholder('Search by name or e-mail').fill('polo');
  await page.getByRole('tab', { name: 'Active' }).click();
  await page.locator('.users-table tbody tr').filter({ hasText: 'Polonius' }).waitFor();
  assert.equal(await page.locator('.users-table tbody tr').count(), 1);
  assert.deepEqual(iago.errors, []);
});

test('organization: emoji, linkifiers, default channels', async () => {
  const { page } = iago;
  await go(page, '#organization/emoji-settings');
  await page.getByLabel('Emoji name').fill('dot');
  await page.getByLabel('Emoji image').setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: PNG });
  await page.getByRole('button', { name: 'Add emoji' }).click();
  await page.locator('.settings-table tr', { hasText: ':dot:' }).waitFor();

  await go(page, '#organization/linkifier-settings');
  await page.getByLabel('Pattern').fill('#(?P<id>[0-9]+)');
  await page.getByLabel('URL template').fill('https://example.com/issues/{id}');
  await page.getByRole('button', { name: 'Add linkifier' }).click();
  const linkifier = page.locator('.settings-table tr', { hasText: 'https://example.com/issues/{id}' });
  await linkifier.waitFor();
  await linkifier.getByRole('button', { name: 'Remove' }).click();
  await linkifier.getByRole('button', { name: 'Yes' }).click();
  await linkifier.waitFor({ state: 'detached' });

  await go(page, '#organization/default-channels-list');
  await page.getByLabel('Default channel to add').selectOption({ label: '#garden' });
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await page.locator('.settings-list li', { hasText: '#garden' }).waitFor();
  assert.deepEqual(iago.errors, []);
});

test('organization: a group with members and a subgroup; a channel created, renamed and archived', async () => {
  const { page } = iago;
  const diggers = assertSuccess(await server.as('iago').post('/user_groups/create', { name: 'diggers', description: 'Spades', members: JSON.stringify([server.users.shiva.id]) })).group_id;
  await go(page, '#organization/user-groups');
  await page.getByLabel('Name').fill('gardeners');
  await page.getByLabel('Description').fill('People who dig');
  await page.getByRole('button', { name: 'Create group' }).click();
  await page.getByRole('link', { name: 'gardeners' }).click();
  await page.getByLabel('Add a member').selectOption({ label: 'King Hamlet' });
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await page.locator('.members li', { hasText: 'King Hamlet' }).waitFor();
  await page.getByLabel('Subgroup to add').selectOption({ label: 'diggers' });
  await page.getByRole('button', { name: 'Add subgroup' }).click();
  await page.locator('.settings-list li', { hasText: 'diggers' }).waitFor();
  const groups = assertSuccess(await server.as('iago').get('/user_groups')).user_groups;
  const gardeners = groups.find((g: { name: string }) => g.name === 'gardeners');
  assert.deepEqual([...gardeners.members].sort(), [server.users.iago.id, server.users.hamlet.id].sort());
  assert.deepEqual(gardeners.direct_subgroup_ids, [diggers]);
  await page.getByLabel('Who can join').selectOption({ label: 'Members' });
  await saved(page, 'Saved');
  const members = groups.find((g: { name: string }) => g.name === 'role:members');
  const after = assertSuccess(await server.as('iago').get('/user_groups')).user_groups.find((g: { name: string }) => g.name === 'gardeners');
  assert.equal(after.can_join_group, members.id);

  await go(page, '#organization/channels');
  await page.getByLabel('Name').fill('orchard');
  await page.getByRole('button', { name: 'Create channel' }).click();
  await page.getByRole('link', { name: '#orchard' }).click();
  await page.getByLabel('Subscribe someone').selectOption({ label: 'Shiva' });
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await page.locator('.members li', { hasText: 'Shiva' }).waitFor();
  await page.getByLabel('Who can post').selectOption({ label: 'Administrators' });
  await saved(page, 'Saved');
  const orchard = assertSuccess(await server.as('iago').get('/streams')).streams.find((c: { name: string }) => c.name === 'orchard');
  const admins = groups.find((g: { name: string }) => g.name === 'role:administrators');
  assert.equal(orchard.can_send_message_group, admins.id);
  assert.ok(assertSuccess(await server.as('iago').get(`/streams/${orchard.stream_id}/members`)).subscribers.includes(server.users.shiva.id));
  await page.getByLabel('Name').fill('orchards');
  await page.getByRole('button', { name: 'Save' }).first().click();
  await page.locator('.settings-section h3', { hasText: '#orchards' }).waitFor();
  await page.getByRole('button', { name: 'Archive channel' }).click();
  await page.getByRole('button', { name: 'Yes' }).click();
  await page.getByRole('button', { name: 'Unarchive channel' }).waitFor();
  assert.deepEqual(iago.errors, []);
});

test('profile: an avatar cropped to a square and uploaded, a status, a custom profile field', async () => {
  const { page } = iago;
  await go(page, '#organization/profile-field-settings');
  await page.getByLabel('Label').fill('Favourite plant');
  await page.getByRole('button', { name: 'Add field' }).click();
  await page.locator('.settings-list li', { hasText: 'Favourite plant' }).waitFor();
  await page.getByLabel('Type').selectOption({ label: 'People' });
  await page.getByLabel('Label').fill('Mentor');
  await page.getByRole('button', { name: 'Add field' }).click();
  await page.locator('.settings-list li', { hasText: 'Mentor' }).waitFor();

  await go(page, '#settings/profile');
  // A wide picture: what is uploaded is its central square.
  const wide = await page.evaluate(async () => {
    const c = document.createElement('canvas');
    c.width = 300;
    c.height = 100;
    const g = c.getContext('2d')!;
    g.fillStyle = '#3461b8';
    g.fillRect(0, 0, 300, 100);
    const blob: Blob = await new Promise((r) => c.toBlob((b) => r(b!), 'image/png'));
    return [...new Uint8Array(await blob.arrayBuffer())];
  });
  await page.getByLabel('Choose an avatar image').setInputFiles({ name: 'wide.png', mimeType: 'image/png', buffer: Buffer.from(wide) });
  const preview = page.getByRole('img', { name: 'New avatar' });
  await preview.waitFor();
  assert.deepEqual(await preview.evaluate((img: HTMLImageElement) => new Promise((r) => (img.complete ? r([img.naturalWidth, img.naturalHeight]) : img.addEventListener('load', () => r([img.naturalWidth, img.naturalHeight]))))), [100, 100]);
  await page.getByRole('button', { name: 'Use this avatar' }).click();
  await saved(page, 'Avatar uploaded');
  await page.locator('.top-bar img.avatar').waitFor();
  const me = assertSuccess(await server.as('iago').get('/users/me'));
  assert.match(me.avatar_url, /user_avatars/);

  await page.getByLabel('Status message').fill('In the greenhouse');
  await page.locator('form', { has: page.getByLabel('Status message') }).getByRole('button', { name: 'Save' }).click();
  await saved(page, 'Status saved');
  const status = assertSuccess(await server.as('hamlet').get(`/users/${server.users.iago.id}/status`)).status;
  assert.equal(status.status_text, 'In the greenhouse');

  await page.getByLabel('Favourite plant').fill('Fern');
  await page.locator('form', { has: page.getByLabel('Favourite plant') }).getByRole('button', { name: 'Save' }).click();
  await saved(page, 'Saved');
  const profile = assertSuccess(await server.as('hamlet').get(`/users/${server.users.iago.id}`, { include_custom_profile_fields: 'true' })).user.profile_data;
  assert.deepEqual(Object.values(profile).map((v) => (v as { value: string }).value), ['Fern']);
  await page.getByLabel('Mentor').selectOption({ label: 'King Hamlet' });
  for (let i = 0; i < 50; i++) {
    const data = assertSuccess(await server.as('hamlet').get(`/users/${server.users.iago.id}`, { include_custom_profile_fields: 'true' })).user.profile_data;
    if (Object.keys(data).length === 2) {
      assert.ok(Object.values(data).some((v) => (v as { value: string }).value === JSON.stringify([server.users.hamlet.id])), JSON.stringify(data));
      break;
    }
    assert.ok(i < 49, 'the people field is saved');
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.deepEqual(iago.errors, []);
});

test('organization: code playgrounds and channel folders', async () => {
  const { page } = iago;
  await go(page, '#organization/playground-settings');
  await page.getByLabel(/^Language/).fill('python');
  await page.getByLabel('Name').fill('Python runner');
  await page.getByLabel(/^URL template/).fill('https://play.example.com/?code={code}');
  await page.getByRole('button', { name: 'Add playground' }).click();
  const row = page.locator('.settings-table tr', { hasText: 'Python runner' });
  await row.waitFor();
  await row.getByRole('button', { name: 'Remove' }).click();
  await row.getByRole('button', { name: 'Yes' }).click();
  await row.waitFor({ state: 'detached' });

  await go(page, '#organization/channel-folders');
  await page.getByLabel('Folder name').fill('Outdoors');
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  const folder = page.locator('.settings-list li', { hasText: 'Outdoors' });
  await folder.waitFor();
  await folder.getByRole('button', { name: 'Archive' }).click();
  await folder.getByRole('button', { name: 'Unarchive' }).waitFor();
  assert.deepEqual(iago.errors, []);
});

test('topics: a muted topic listed, followed instead, then reset', async () => {
  const { page } = cordelia;
  await page.bringToFront();
  assertSuccess(await server.as('cordelia').post('/user_topics', { stream_id: garden, topic: 'Weeds', visibility_policy: 1 }));
  await go(page, '#settings/topics');
  const select = page.getByLabel(/^Status of weeds$/i);
  await select.waitFor();
  await select.selectOption({ label: 'Followed' });
  await saved(page, 'Saved');
  const policy = () => server.as('cordelia').post('/register', { fetch_event_types: ['user_topic'] }).then((r) => assertSuccess(r).user_topics.map((t: { visibility_policy: number }) => t.visibility_policy));
  assert.deepEqual(await policy(), [3]);
  await page.locator('.settings-table tr', { hasText: /weeds/i }).getByRole('button', { name: 'Reset' }).click();
  await page.locator('.settings-table tr', { hasText: /weeds/i }).waitFor({ state: 'detached' });
  assert.deepEqual(await policy(), []);
  assert.deepEqual(cordelia.errors, []);
});

test("organization: an administrator uploads the organization's icon, and goes back to the default", async () => {
  const { page } = iago;
  await page.bringToFront();
  await go(page, '#organization/organization-profile');
  const icon = page.locator('img.realm-icon');
  const before = await icon.getAttribute('src');
  const png = await sharp({ create: { width: 40, height: 40, channels: 3, background: '#2a7a4b' } }).png().toBuffer();
  await page.getByLabel('Upload an icon').setInputFiles({ name: 'icon.png', mimeType: 'image/png', buffer: png });
  await saved(page, 'Icon saved');
  await page.waitForFunction((b) => document.querySelector('img.realm-icon')?.getAttribute('src') !== b, before);
  const reg = assertSuccess(await server.as('hamlet').post('/register', { fetch_event_types: ['realm'] }));
  assert.equal(await icon.getAttribute('src'), reg.realm_icon_url);
  assert.equal(reg.realm_icon_source, 'U');
  await page.getByRole('button', { name: 'Use the default icon' }).click();
  await saved(page, 'Icon removed');
  await page.getByRole('button', { name: 'Use the default icon' }).waitFor({ state: 'detached' });
  assert.deepEqual(iago.errors, []);
});
