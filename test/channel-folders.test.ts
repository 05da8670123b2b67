import { test, after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type SeedName, type TestServer } from './helpers/server.js';
import type { ParamValue } from './helpers/client.js';
import { Listeners } from './helpers/events.js';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

const EVERYONE: SeedName[] = ['desdemona', 'iago', 'shiva', 'hamlet', 'cordelia', 'polonius', 'bot'];
let n = 0;
const unique = (base: string) => `${base} ${++n}`;

async function create(as: SeedName, params: Record<string, ParamValue>) {
  return server.as(as).post('/channel_folders/create', params);
}

async function createFolder(name = unique('Folder'), description = ''): Promise<number> {
  const res = await create('iago', { name, description });
  assert.equal(res.status, 200, res.text);
  return res.body.channel_folder_id;
}

async function folders(as: SeedName, includeArchived?: boolean) {
  const res = await server.as(as).get('/channel_folders', includeArchived === undefined ? {} : { include_archived: includeArchived });
  assert.equal(res.status, 200, res.text);
  return res.body.channel_folders as Record<string, any>[];
}

async function registered(as: SeedName) {
  const res = await server.as(as).post('/register', { fetch_event_types: ['channel_folders'] });
  assert.equal(res.status, 200, res.text);
  return res.body.channel_folders as Record<string, any>[];
}

function expectError(res: { status: number; body: any; text: string }, msg: string, code = 'BAD_REQUEST') {
  assert.equal(res.status, 400, res.text);
  assert.equal(res.body.msg, msg);
  assert.equal(res.body.code, code);
}

describe('creating channel folders', () => {
  test('an administrator creates a folder: every user is told, and register and GET agree', async () => {
    const l = await Listeners.open(server, EVERYONE);
    const name = unique('Backend');
    const start = Math.floor(Date.now() / 1000);
    const res = await create('iago', { name, description: 'Channels for **backend** discussions' });
    assert.equal(res.status, 200, res.text);
    const id = res.body.channel_folder_id;
    assert.deepEqual(res.body, { result: 'success', msg: '', channel_folder_id: id });
    const listed = (await folders('hamlet')).find((f) => f.id === id)!;
    assert.deepEqual(listed, {
      id,
      name,
      description: 'Channels for **backend** discussions',
      rendered_description: '<p>Channels for <strong>backend</strong> discussions</p>',
      creator_id: server.users.iago.id,
      date_created: listed.date_created,
      is_archived: false,
      order: id,
    });
    assert.ok(listed.date_created >= start && listed.date_created <= Date.now() / 1000 + 1);
    for (const who of EVERYONE) {
      const events = await l.take(who);
      assert.deepEqual(events.map(({ id: _id, ...e }) => e), [{ type: 'channel_folder', op: 'add', channel_folder: listed }], who);
      assert.deepEqual((await registered(who)).find((f) => f.id === id), listed, who);
    }
  });

  test('owners and administrators may create folders; other roles may not', async () => {
    for (const who of ['desdemona', 'iago'] as const) assert.equal((await create(who, { name: unique(`By ${who}`) })).status, 200, who);
    for (const who of ['shiva', 'hamlet', 'polonius', 'bot'] as const) {
      expectError(await create(who, { name: unique(`By ${who}`) }), 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
    }
  });

  test('names and descriptions are checked', async () => {
    const taken = unique('Frontend');
    await createFolder(taken);
    expectError(await create('iago', { name: '' }), "Channel folder name can't be empty.");
    expectError(await create('iago', { name: '   ' }), "Channel folder name can't be empty.");
    expectError(await create('iago', { name: 'abc\u0001' }), 'Invalid character in channel folder name, at position 4.');
    expectError(await create('iago', { name: taken }), 'Channel folder name already in use');
    expectError(await create('iago', { name: taken.toUpperCase() }), 'Channel folder name already in use');
    expectError(await create('iago', { name: `  ${taken.toLowerCase()} ` }), 'Channel folder name already in use');
    expectError(await create('iago', { name: 'x'.repeat(61) }), 'name is too long (limit: 60 characters)');
    expectError(await create('iago', { name: unique('d'), description: 'x'.repeat(1025) }), 'description is too long (limit: 1024 characters)');
    expectError(await create('iago', { description: 'x' }), "Missing 'name' argument", 'REQUEST_VARIABLE_MISSING');
    assert.equal((await create('iago', { name: '📁'.repeat(60) })).status, 200, 'the limit counts code points');
    const spaced = unique('Spaced');
    const trimmed = await create('iago', { name: `  ${spaced}  ` });
    assert.equal((await folders('iago')).find((f) => f.id === trimmed.body.channel_folder_id)!.name, spaced, 'surrounding spaces are dropped');
  });
});

describe('listing channel folders', () => {
  test('every role sees every folder; archived ones only when asked, and always in register', async () => {
    const a = await createFolder();
    const b = await createFolder();
    assert.equal((await server.as('iago').patch(`/channel_folders/${b}`, { is_archived: true })).status, 200);
    for (const who of EVERYONE) {
      const active = (await folders(who)).map((f) => f.id);
      assert.ok(active.includes(a) && !active.includes(b), who);
      const all = await folders(who, true);
      assert.ok(all.some((f) => f.id === b && f.is_archived === true), who);
      assert.deepEqual(all.map((f) => f.order), [...all.map((f) => f.order)].sort((x, y) => x - y), 'sorted by order');
      assert.deepEqual((await registered(who)).map((f) => f.id), all.map((f) => f.id), who);
    }
  });

  test('folders belong to one organization', async () => {
    const id = await createFolder();
    const lear = await server.as('lear').get('/channel_folders', { include_archived: true });
    assert.equal(lear.status, 200, lear.text);
    assert.ok(!lear.body.channel_folders.some((f: { id: number }) => f.id === id));
    expectError(await server.as('lear').patch(`/channel_folders/${id}`, { name: 'Stolen' }), 'Invalid channel folder ID');
  });
});

describe('updating channel folders', () => {
  test('rename, describe, archive and unarchive: one event per change, to every user', async () => {
    const id = await createFolder(unique('Web'), 'old');
    const l = await Listeners.open(server, EVERYONE);
    const name = unique('Web frontend');
    const res = await server.as('iago').patch(`/channel_folders/${id}`, { name, description: 'Channels for *web*' });
    assert.deepEqual(res.body, { result: 'success', msg: '' });
    const archived = await server.as('desdemona').patch(`/channel_folders/${id}`, { is_archived: true });
    assert.equal(archived.status, 200, archived.text);
    const expected = [
      { type: 'channel_folder', op: 'update', channel_folder_id: id, data: { name } },
      { type: 'channel_folder', op: 'update', channel_folder_id: id, data: { description: 'Channels for *web*', rendered_description: '<p>Channels for <em>web</em></p>' } },
      { type: 'channel_folder', op: 'update', channel_folder_id: id, data: { is_archived: true } },
    ];
    for (const who of EVERYONE) assert.deepEqual((await l.take(who)).map(({ id: _id, ...e }) => e), expected, who);
    const stored = (await registered('hamlet')).find((f) => f.id === id)!;
    assert.equal(stored.name, name);
    assert.equal(stored.rendered_description, '<p>Channels for <em>web</em></p>');
    assert.equal(stored.is_archived, true);

    assert.equal((await server.as('iago').patch(`/channel_folders/${id}`, { is_archived: false, description: '' })).status, 200);
    const back = (await folders('hamlet')).find((f) => f.id === id)!;
    assert.equal(back.is_archived, false);
    assert.equal(back.description, '');
    assert.equal(back.rendered_description, '');
    assert.deepEqual((await l.take('hamlet')).map((e) => e.data), [{ description: '', rendered_description: '' }, { is_archived: false }]);

    for (const params of [{}, { name }, { description: '' }, { is_archived: false }]) {
      assert.equal((await server.as('iago').patch(`/channel_folders/${id}`, params)).status, 200);
    }
    assert.deepEqual(await l.take('hamlet'), [], 'unchanged values send nothing');
    const recased = await server.as('iago').patch(`/channel_folders/${id}`, { name: name.toUpperCase() });
    assert.equal(recased.status, 200, 'a folder may change the case of its own name');
  });

  test('errors and permissions', async () => {
    const id = await createFolder();
    const other = unique('Other');
    await createFolder(other);
    for (const who of ['shiva', 'hamlet', 'polonius', 'bot'] as const) {
      expectError(await server.as(who).patch(`/channel_folders/${id}`, { name: unique('x') }), 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
    }
    expectError(await server.as('iago').patch('/channel_folders/999999', { name: unique('x') }), 'Invalid channel folder ID');
    expectError(await server.as('iago').patch(`/channel_folders/${id}`, { name: '' }), "Channel folder name can't be empty.");
    expectError(await server.as('iago').patch(`/channel_folders/${id}`, { name: other.toLowerCase() }), 'Channel folder name already in use');
    expectError(await server.as('iago').patch(`/channel_folders/${id}`, { name: 'abc\u0007' }), 'Invalid character in channel folder name, at position 4.');
    expectError(await server.as('iago').patch(`/channel_folders/${id}`, { is_archived: 'maybe' }), 'is_archived is not a boolean');
    expectError(await server.as('iago').patch(`/channel_folders/${id}`, { description: 'x'.repeat(1025) }), 'description is too long (limit: 1024 characters)');
    expectError(await server.as('iago').patch('/channel_folders/abc', { name: 'x' }), 'channel_folder_id is not an integer');
  });

  test('a folder holding channels cannot be archived', async () => {
    const id = await createFolder();
    const channel = unique('Filed');
    const sub = await server.as('iago').post('/users/me/subscriptions', { subscriptions: [{ name: channel }], folder_id: id });
    assert.equal(sub.status, 200, sub.text);
    expectError(await server.as('iago').patch(`/channel_folders/${id}`, { is_archived: true }), 'You need to remove all the channels from this folder to archive it.');
    assert.equal((await folders('iago')).find((f) => f.id === id)!.is_archived, false);
  });
});
