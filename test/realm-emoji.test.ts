import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type SeedName, type TestServer } from './helpers/server.js';
import { Listeners } from './helpers/events.js';
import { send } from './helpers/client.js';
import { validateRegisterResponse } from './helpers/openapi-register.js';

let server: TestServer;

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('IHDR-and-the-rest-of-a-tiny-image')]);
const GIF = Buffer.from('GIF89a-tiny-animation');

// The Python client's upload: one multipart file part named after the file.
async function upload(who: SeedName, name: string, files: { name: string; data: Buffer; type?: string }[] = [{ name: 'emoji.png', data: PNG }]) {
  const form = new FormData();
  for (const f of files) form.append(f.name, new Blob([new Uint8Array(f.data)], { type: f.type ?? 'image/png' }), f.name);
  const request = new Request('http://x/', { method: 'POST', body: form });
  const body = Buffer.from(await request.arrayBuffer());
  const headers = server.as(who).headers({ 'content-type': request.headers.get('content-type')! });
  return send('POST', new URL(`/api/v1/realm/emoji/${encodeURIComponent(name)}`, server.url), headers, body);
}

function assertError(res: { status: number; body: any; text: string }, msg: string, code = 'BAD_REQUEST', status = 400) {
  assert.equal(res.status, status, res.text);
  assert.equal(res.body.msg, msg);
  assert.equal(res.body.code, code);
}

async function groupId(name: string): Promise<number> {
  const groups = (await server.as('iago').get('/user_groups')).body.user_groups as { id: number; name: string }[];
  return groups.find((g) => g.name === name)!.id;
}

before(async () => {
  server = await startTestServer();
});
after(() => server.close());

test('upload: listed, served, in register, and announced in both event formats', async () => {
  const legacy = await Listeners.open(server, ['cordelia']);
  const modern = await Listeners.open(server, ['cordelia'], { client_capabilities: { individual_emoji_changes: true } });
  const res = await upload('hamlet', 'green_tick');
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body, { result: 'success', msg: '' });

  const list = await server.as('cordelia').get('/realm/emoji');
  const [emoji] = Object.values(list.body.emoji) as Record<string, any>[];
  assert.deepEqual(Object.keys(list.body.emoji), [emoji.id]);
  assert.deepEqual({ ...emoji, source_url: undefined }, { id: emoji.id, name: 'green_tick', source_url: undefined, still_url: null, deactivated: false, author_id: server.users.hamlet.id });
  assert.match(emoji.source_url, /^\/user_avatars\/\d+\/emoji\/images\/[0-9a-f]{16}\.png$/);

  const image = await send('GET', new URL(emoji.source_url, server.url), {});
  assert.equal(image.status, 200);
  assert.equal(image.headers['content-type'], 'image/png');
  assert.equal(image.headers['x-content-type-options'], 'nosniff');
  assert.equal(image.text, PNG.toString('utf8'));

  const [update] = await legacy.take('cordelia', 'realm_emoji');
  assert.equal(update.op, 'update');
  assert.deepEqual(update.realm_emoji, list.body.emoji);
  const events = await modern.take('cordelia', 'realm_emoji');
  assert.deepEqual(events.map((e) => [e.op, e.emoji]), [['add', emoji]]);

  const reg = await server.as('polonius').post('/register', { fetch_event_types: ['realm_emoji'] });
  assert.deepEqual(reg.body.realm_emoji, list.body.emoji);
  assert.deepEqual(validateRegisterResponse(reg.body), []);
});

test('upload errors, with their exact messages', async () => {
  assertError(await upload('polonius', 'guest_emoji'), 'Insufficient permission');
  assertError(await upload('hamlet', 'green_tick'), 'A custom emoji with this name already exists.');
  assertError(await upload('hamlet', 'no_file', []), 'You must upload exactly one file.');
  assertError(await upload('hamlet', 'two_files', [{ name: 'a.png', data: PNG }, { name: 'b.png', data: PNG }]), 'You must upload exactly one file.');
  assertError(await upload('hamlet', 'smile'), 'Only administrators can override built-in emoji.');
  assertError(await upload('hamlet', 'bad!name'), 'Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.');
  assertError(await upload('hamlet', 'trailing_'), 'Emoji names must end with either a letter or digit.');
  assertError(await upload('hamlet', ' '), 'Emoji name is missing');
  assertError(await upload('hamlet', 'not_an_image', [{ name: 'x.png', data: Buffer.from('<svg onload="alert(1)"/>') }]), 'Invalid image format', 'BAD_IMAGE');
  const big = Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]);
  assertError(await upload('hamlet', 'too_big', [{ name: 'big.png', data: big }]), 'Uploaded file is larger than the allowed limit of 5 MiB');
  assert.deepEqual(Object.values((await server.as('hamlet').get('/realm/emoji')).body.emoji).map((e: any) => e.name), ['green_tick']);
});

test('names: spaces read as underscores and capitals as small letters; administrators may shadow a built-in name', async () => {
  assert.equal((await upload('cordelia', 'Party Parrot', [{ name: 'p.gif', data: GIF, type: 'application/octet-stream' }])).status, 200);
  assert.equal((await upload('iago', 'smile')).status, 200);
  const emoji = Object.values((await server.as('hamlet').get('/realm/emoji')).body.emoji) as Record<string, any>[];
  const parrot = emoji.find((e) => e.name === 'party_parrot')!;
  assert.match(parrot.source_url, /\.gif$/);
  assert.equal((await send('GET', new URL(parrot.source_url, server.url), {})).headers['content-type'], 'image/gif');
  // A custom emoji shadows the Unicode one of the same name, in messages and reactions.
  const sent = await server.as('hamlet').post('/messages', { type: 'private', to: [server.users.cordelia.id], content: ':smile: :party_parrot: :octopus:' });
  const rendered = (await server.as('hamlet').get(`/messages/${sent.body.id}`)).body.message.content;
  const smile = emoji.find((e) => e.name === 'smile')!;
  assert.equal(rendered, `<p><img alt=":smile:" class="emoji" src="${smile.source_url}" title="smile"> <img alt=":party_parrot:" class="emoji" src="${parrot.source_url}" title="party parrot"> <span aria-label="octopus" class="emoji emoji-1f419" role="img" title="octopus">:octopus:</span></p>`);
  assert.equal((await server.as('cordelia').post(`/messages/${sent.body.id}/reactions`, { emoji_name: 'smile' })).status, 200);
  const [reaction] = (await server.as('cordelia').get(`/messages/${sent.body.id}`)).body.message.reactions;
  assert.deepEqual([reaction.emoji_name, reaction.emoji_code, reaction.reaction_type], ['smile', smile.id, 'realm_emoji']);
});

test('deactivation: by the author or an administrator; events; the name becomes free; old reactions still count', async () => {
  assert.equal((await upload('shiva', 'shiva_emoji')).status, 200);
  const all = () => server.as('hamlet').get('/realm/emoji').then((r) => Object.values(r.body.emoji) as Record<string, any>[]);
  const target = (await all()).find((e) => e.name === 'shiva_emoji')!;
  const message = (await server.as('hamlet').post('/messages', { type: 'private', to: [server.users.shiva.id], content: 'hi' })).body.id;
  assert.equal((await server.as('shiva').post(`/messages/${message}/reactions`, { emoji_name: 'shiva_emoji' })).status, 200);

  assertError(await server.as('hamlet').delete('/realm/emoji/shiva_emoji'), 'Must be an organization administrator or emoji author');
  assertError(await server.as('hamlet').delete('/realm/emoji/nothing_here'), "Emoji 'nothing_here' does not exist", 'BAD_REQUEST', 404);

  const legacy = await Listeners.open(server, ['hamlet']);
  const modern = await Listeners.open(server, ['hamlet'], { client_capabilities: { individual_emoji_changes: true } });
  assert.equal((await server.as('shiva').delete('/realm/emoji/shiva_emoji')).status, 200);
  const [update] = await legacy.take('hamlet', 'realm_emoji');
  assert.equal(update.op, 'update');
  assert.equal(update.realm_emoji[target.id].deactivated, true);
  const events = await modern.take('hamlet', 'realm_emoji');
  assert.deepEqual(events.map((e) => [e.op, e.emoji_id, e.data]), [['edit', target.id, { deactivated: true }]]);
  assertError(await server.as('shiva').delete('/realm/emoji/shiva_emoji'), "Emoji 'shiva_emoji' does not exist", 'BAD_REQUEST', 404);
  assert.equal((await all()).find((e) => e.id === target.id)!.deactivated, true);
  // Its image goes with it, so that it no longer takes space from the upload quota (hostile-uploads.test.ts).
  assert.equal((await send('GET', new URL(target.source_url, server.url), {})).status, 404);

  // New reactions refuse it; a vote for the existing one is still taken.
  assertError(await server.as('hamlet').post(`/messages/${message}/reactions`, { emoji_name: 'shiva_emoji' }), "Emoji 'shiva_emoji' does not exist");
  const other = (await server.as('hamlet').post('/messages', { type: 'private', to: [server.users.shiva.id], content: 'again' })).body.id;
  assertError(await server.as('hamlet').post(`/messages/${other}/reactions`, { emoji_name: 'shiva_emoji', emoji_code: target.id, reaction_type: 'realm_emoji' }), 'This custom emoji has been deactivated.');
  assert.equal((await server.as('hamlet').post(`/messages/${message}/reactions`, { emoji_name: 'shiva_emoji', emoji_code: target.id, reaction_type: 'realm_emoji' })).status, 200);
  assert.equal((await server.as('hamlet').delete(`/messages/${message}/reactions`, { emoji_code: target.id, reaction_type: 'realm_emoji' })).status, 200);

  // The name can be used again; an administrator may deactivate anyone's emoji.
  assert.equal((await upload('hamlet', 'shiva_emoji')).status, 200);
  assert.equal((await server.as('iago').delete('/realm/emoji/shiva_emoji')).status, 200);
  assert.deepEqual((await all()).filter((e) => e.name === 'shiva_emoji').map((e) => e.deactivated), [true, true]);
});

test('can_add_custom_emoji_group decides who may upload', async () => {
  const admins = await groupId('role:administrators');
  const changed = await server.as('iago').patch('/realm', { can_add_custom_emoji_group: { new: admins } });
  assert.equal(changed.status, 200, changed.text);
  assertError(await upload('hamlet', 'members_emoji'), 'Insufficient permission');
  assertError(await upload('shiva', 'moderators_emoji'), 'Insufficient permission');
  assert.equal((await upload('iago', 'admins_emoji')).status, 200);
  assert.equal((await upload('desdemona', 'owners_emoji')).status, 200);
  const everyone = await groupId('role:members');
  assert.equal((await server.as('iago').patch('/realm', { can_add_custom_emoji_group: { new: everyone } })).status, 200);
  assert.equal((await upload('hamlet', 'members_emoji')).status, 200);
  assertError(await upload('polonius', 'guest_emoji'), 'Insufficient permission');
});

test('images are served to anyone, and only stored images are', async () => {
  const emoji = Object.values((await server.as('hamlet').get('/realm/emoji')).body.emoji) as Record<string, any>[];
  assert.equal((await send('GET', new URL(emoji[0].source_url, server.url), {})).status, 200);
  const realmId = /\/user_avatars\/(\d+)\//.exec(emoji[0].source_url)![1];
  for (const bad of ['0123456789abcdef.png', '..%2F..%2Fparlance.sqlite3', 'x.svg']) {
    const res = await send('GET', new URL(`/user_avatars/${realmId}/emoji/images/${bad}`, server.url), {});
    assert.equal(res.status, 404, bad);
  }
  const data = await send('GET', new URL('/static/generated/emoji/emoji_api.json', server.url), {});
  assert.equal(data.status, 200);
  assert.deepEqual(data.body.code_to_names['1f44d'].slice(0, 1), ['+1']);
  assert.ok(data.body.code_to_names['1f44d'].includes('thumbs_up'));
  assert.equal(data.body.code_to_names['2764'][0], 'heart');
});
