import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type SeedName, type TestServer } from './helpers/server.js';
import { Listeners } from './helpers/events.js';
import { send } from './helpers/client.js';
import { assertError, assertSuccess } from './helpers/assertions.js';
import { assertMatchesSchema } from './helpers/openapi.js';
import { validateRegisterResponse } from './helpers/openapi-register.js';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('IHDR-and-the-rest-of-a-tiny-image')]);

async function uploadEmoji(name: string): Promise<number> {
  const form = new FormData();
  form.append('emoji.png', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'emoji.png');
  const request = new Request('http://x/', { method: 'POST', body: form });
  const headers = server.as('iago').headers({ 'content-type': request.headers.get('content-type')! });
  assertSuccess(await send('POST', new URL(`/api/v1/realm/emoji/${name}`, server.url), headers, Buffer.from(await request.arrayBuffer())));
  const list = (await server.as('iago').get('/realm/emoji')).body.emoji as Record<string, { id: string; name: string }>;
  return Number(Object.values(list).find((e) => e.name === name)!.id);
}

const set = async (as: SeedName, params: Record<string, unknown>) => {
  const body = assertSuccess(await server.as(as).post('/users/me/status', params));
  assertMatchesSchema('/users/me/status', 'post', body);
};
const statuses = async () => (await server.as('cordelia').post('/register', { fetch_event_types: ['user_status'] })).body.user_status as Record<string, Record<string, unknown>>;

test('only passed fields change; events with just those fields reach everyone', async () => {
  const l = await Listeners.open(server, ['cordelia', 'polonius', 'hamlet']);
  await set('hamlet', { status_text: '  In a meeting ', emoji_name: 'car' });
  let code = '';
  for (const who of ['cordelia', 'polonius', 'hamlet'] as const) {
    const [ev] = await l.take(who, 'user_status');
    assert.deepEqual(Object.keys(ev).sort(), ['emoji_code', 'emoji_name', 'id', 'reaction_type', 'status_text', 'type', 'user_id']);
    assert.deepEqual([ev.user_id, ev.status_text, ev.emoji_name, ev.reaction_type], [server.users.hamlet.id, 'In a meeting', 'car', 'unicode_emoji']);
    assert.match(ev.emoji_code, /^[0-9a-f-]+$/);
    code = ev.emoji_code;
  }
  await set('hamlet', { status_text: 'Lunch' });
  const [text] = await l.take('cordelia', 'user_status');
  assert.deepEqual(Object.keys(text).sort(), ['id', 'status_text', 'type', 'user_id']);
  assert.deepEqual((await statuses())[server.users.hamlet.id], { status_text: 'Lunch', emoji_name: 'car', emoji_code: code, reaction_type: 'unicode_emoji' });
  await set('hamlet', { emoji_name: 'zulip' });
  const [extra] = await l.take('cordelia', 'user_status');
  assert.deepEqual([extra.emoji_name, extra.emoji_code, extra.reaction_type, extra.status_text], ['zulip', 'zulip', 'zulip_extra_emoji', undefined]);
  assert.equal((await statuses())[server.users.hamlet.id].status_text, 'Lunch', 'the text was kept');
  await set('hamlet', { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'service_extra_emoji' });
  await set('hamlet', { status_text: '', emoji_name: '' });
  const [, cleared] = await l.take('cordelia', 'user_status');
  assert.deepEqual([cleared.status_text, cleared.emoji_name, cleared.emoji_code, cleared.reaction_type], ['', '', '', 'unicode_emoji']);
  assert.ok(!(server.users.hamlet.id in (await statuses())));
});

test('custom emoji are checked against the organization\'s emoji, as reactions are', async () => {
  const emoji = await uploadEmoji('green_tick');
  await set('shiva', { emoji_name: 'green_tick' });
  assert.deepEqual((await statuses())[server.users.shiva.id], { emoji_name: 'green_tick', emoji_code: String(emoji), reaction_type: 'realm_emoji' });
  await set('shiva', { emoji_name: 'green_tick', emoji_code: String(emoji), reaction_type: 'realm_emoji' });
  const refused = (params: Record<string, unknown>, msg: string) => server.as('shiva').post('/users/me/status', params).then((r) => assertError(r, 400, 'BAD_REQUEST', msg));
  await refused({ emoji_name: 'green_tock', emoji_code: String(emoji), reaction_type: 'realm_emoji' }, 'Invalid custom emoji name.');
  assertSuccess(await server.as('iago').delete('/realm/emoji/green_tick'));
  await refused({ emoji_name: 'green_tick', emoji_code: String(emoji), reaction_type: 'realm_emoji' }, 'This custom emoji has been deactivated.');
});

test('every error of the contract, with its exact text', async () => {
  const cases: [Record<string, unknown>, string][] = [
    [{}, 'Client did not pass any new values.'],
    [{ emoji_code: '1f697' }, 'Client did not pass any new values.'],
    [{ status_text: 'x'.repeat(61) }, 'status_text is too long (limit: 60 characters)'],
    [{ status_text: 'In a meeting', emoji_code: '1f4bb' }, 'Client must pass emoji_name if they pass either emoji_code or reaction_type.'],
    [{ status_text: 'In a meeting', reaction_type: 'unicode_emoji' }, 'Client must pass emoji_name if they pass either emoji_code or reaction_type.'],
    [{ emoji_name: 'no_such_emoji_here' }, "Emoji 'no_such_emoji_here' does not exist"],
    [{ status_text: 'In a meeting', emoji_code: '1f4bb', emoji_name: 'invalid' }, "Emoji 'invalid' does not exist"],
    [{ emoji_name: 'car', emoji_code: '1f600' }, 'Invalid emoji name.'],
    [{ emoji_name: 'car', emoji_code: 'ffffff', reaction_type: 'unicode_emoji' }, 'Invalid emoji code.'],
    [{ emoji_name: 'car', emoji_code: '99999', reaction_type: 'realm_emoji' }, 'Invalid custom emoji.'],
    [{ emoji_name: 'car', emoji_code: 'car', reaction_type: 'zulip_extra_emoji' }, 'Invalid emoji code.'],
    [{ emoji_name: 'car', reaction_type: 'sticker' }, 'Invalid emoji type.'],
  ];
  for (const [params, msg] of cases) {
    assertError(await server.as('hamlet').post('/users/me/status', params), 400, 'BAD_REQUEST', msg);
  }
  await set('hamlet', { status_text: `  ${'😀'.repeat(60)}  ` }); // code points are counted, after trimming
  assertError(await server.as('bot').post('/users/me/status', { status_text: 'beep' }), 400, 'BAD_REQUEST', 'This endpoint does not accept bot requests.');
});

test('every human role sets a status', async () => {
  for (const who of ['desdemona', 'iago', 'shiva', 'cordelia', 'polonius'] as const) {
    await set(who, { status_text: `${who} here` });
    assert.equal((await statuses())[server.users[who].id].status_text, `${who} here`);
  }
});

test('away is the inverse of presence_enabled, with everything that setting brings', async () => {
  const l = await Listeners.open(server, ['cordelia', 'iago']);
  const own = await Listeners.open(server, ['iago']);
  await server.as('iago').post('/users/me/presence', { status: 'active' });
  await l.clear();
  await own.clear();
  await set('iago', { away: true });
  assert.deepEqual((await own.take('iago', 'user_settings')).map((e) => [e.property, e.value]), [['presence_enabled', false]]);
  const events = await l.take('cordelia');
  const [ev] = events.filter((e) => e.type === 'user_status');
  assert.deepEqual([ev.user_id, ev.away, 'status_text' in ev], [server.users.iago.id, true, false]);
  const [offline] = events.filter((e) => e.type === 'presence');
  assert.ok(offline.presence.website.timestamp < Math.floor(Date.now() / 1000) - 140, 'looks offline at once');
  const reg = await server.as('iago').post('/register', { fetch_event_types: ['user_settings', 'user_status'] });
  assert.equal(reg.body.user_settings.presence_enabled, false);
  assert.equal(reg.body.user_status[server.users.iago.id].away, true);
  assert.equal(reg.body.user_status[server.users.iago.id].status_text, 'iago here', 'the text was kept');
  assert.deepEqual(validateRegisterResponse(assertSuccess(reg)), []);

  assertSuccess(await server.as('iago').patch('/settings', { presence_enabled: true }));
  assert.ok(!('away' in (await statuses())[server.users.iago.id]), 'the setting and away are one thing');
  await set('iago', { away: true });
  await set('iago', { away: false });
  assert.equal((await server.as('iago').post('/register', { fetch_event_types: ['user_settings'] })).body.user_settings.presence_enabled, true);
});
