import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { Listeners } from './helpers/events.js';

let server: TestServer;
let denmark: number;
before(async () => {
  server = await startTestServer();
  await server.as('hamlet').post('/users/me/subscriptions', { subscriptions: [{ name: 'Denmark' }] });
  await server.as('hamlet').post('/users/me/subscriptions', { subscriptions: [{ name: 'Secret' }], invite_only: true });
  denmark = (await server.as('hamlet').get('/get_stream_id', { stream: 'Denmark' })).body.stream_id;
});
after(() => server.close());

test('drafts: create in order, edit, list, delete, with events to the owner only', async () => {
  const l = await Listeners.open(server, ['cordelia', 'hamlet']);
  const c = server.as('cordelia');
  const created = await c.post('/drafts', {
    drafts: [
      { type: 'stream', to: [denmark], topic: 'castle', content: 'first' },
      { type: 'private', to: [server.users.hamlet.id], topic: 'ignored', content: 'second', timestamp: 1700000000 },
      { type: '', to: [], topic: '', content: 'third' },
    ],
  });
  assert.equal(created.status, 200, created.text);
  assert.equal(created.body.ids.length, 3);
  const [a, b, cId] = created.body.ids;
  assert.ok(a < b && b < cId);
  const added = await l.take('cordelia', 'drafts');
  assert.equal(added[0].op, 'add');
  assert.deepEqual(added[0].drafts.map((d: { id: number }) => d.id), created.body.ids);
  assert.equal(added[0].drafts[1].topic, '');
  assert.equal(added[0].drafts[1].timestamp, 1700000000);
  assert.equal(typeof added[0].drafts[0].timestamp, 'number');
  assert.deepEqual(await l.take('hamlet', 'drafts'), []);

  const edit = await c.patch(`/drafts/${a}`, { draft: { type: 'stream', to: [denmark], topic: 'castle', content: 'edited' } });
  assert.equal(edit.status, 200, edit.text);
  const [upd] = await l.take('cordelia', 'drafts');
  assert.equal(upd.op, 'update');
  assert.equal(upd.draft.content, 'edited');
  const list = await c.get('/drafts');
  assert.equal(list.body.count, 3);
  const reg = await c.post('/register', { fetch_event_types: ['drafts'] });
  assert.equal(reg.body.drafts.length, 3);

  assert.equal((await c.delete(`/drafts/${b}`)).status, 200);
  const [rem] = await l.take('cordelia', 'drafts');
  assert.deepEqual([rem.op, rem.draft_id], ['remove', b]);
  for (const res of [await c.delete(`/drafts/${b}`), await c.patch(`/drafts/${b}`, { draft: { type: '', to: [], topic: '', content: 'x' } }), await server.as('hamlet').delete(`/drafts/${a}`)]) {
    assert.equal(res.status, 404);
    assert.deepEqual(res.body, { result: 'error', msg: 'Draft does not exist', code: 'BAD_REQUEST' });
  }
});

test('draft validation', async () => {
  const secret = (await server.as('hamlet').get('/get_stream_id', { stream: 'Secret' })).body.stream_id;
  const cases: [Record<string, unknown>, string][] = [
    [{ type: 'stream', to: [], topic: 't', content: 'x' }, 'Must specify exactly 1 channel ID for channel messages'],
    [{ type: 'stream', to: [denmark, denmark + 1], topic: 't', content: 'x' }, 'Must specify exactly 1 channel ID for channel messages'],
    [{ type: 'stream', to: [secret], topic: 't', content: 'x' }, 'Invalid channel ID'],
    [{ type: 'private', to: [999999], topic: '', content: 'x' }, 'Invalid user ID 999999'],
    [{ type: 'stream', to: [denmark], topic: 't', content: 'a\u0000b' }, 'drafts contains NULL (0x00) characters'],
    [{ type: 'other', to: [], topic: '', content: 'x' }, 'Invalid draft type: other'],
  ];
  for (const [draft, msg] of cases) {
    const res = await server.as('cordelia').post('/drafts', { drafts: [draft] });
    assert.equal(res.status, 400, JSON.stringify(draft));
    assert.equal(res.body.msg, msg);
  }
});

test('turning synchronisation off deletes stored drafts and refuses new ones', async () => {
  const s = server.as('shiva');
  await s.post('/drafts', { drafts: [{ type: '', to: [], topic: '', content: 'keep?' }] });
  assert.equal((await s.patch('/settings', { enable_drafts_synchronization: false })).status, 200);
  assert.equal((await s.get('/drafts')).body.count, 0);
  const refused = await s.post('/drafts', { drafts: [{ type: '', to: [], topic: '', content: 'no' }] });
  assert.equal(refused.body.msg, 'User has disabled synchronizing drafts.');
});
