import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { Listeners } from './helpers/events.js';
import { assertError, assertSuccess } from './helpers/assertions.js';
import { assertMatchesSchema } from './helpers/openapi.js';
import { validateRegisterResponse } from './helpers/openapi-register.js';

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
  assertMatchesSchema('/drafts', 'post', assertSuccess(created));
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
  assertMatchesSchema('/drafts/{draft_id}', 'patch', assertSuccess(edit));
  const [upd] = await l.take('cordelia', 'drafts');
  assert.equal(upd.op, 'update');
  assert.equal(upd.draft.content, 'edited');
  const list = await c.get('/drafts');
  assertMatchesSchema('/drafts', 'get', assertSuccess(list));
  assert.equal(list.body.count, 3);
  const reg = await c.post('/register', { fetch_event_types: ['drafts'] });
  assert.deepEqual(validateRegisterResponse(assertSuccess(reg)), []);
  assert.equal(reg.body.drafts.length, 3);

  assertMatchesSchema('/drafts/{draft_id}', 'delete', assertSuccess(await c.delete(`/drafts/${b}`)));
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
  assertError(await s.patch('/drafts/1', { draft: { type: '', to: [], topic: '', content: 'no' } }), 400, 'BAD_REQUEST', 'User has disabled synchronizing drafts.');
  assertSuccess(await s.patch('/settings', { enable_drafts_synchronization: true }));
});

test('drafts per role: every user keeps their own; guests address only channels they may read', async () => {
  for (const who of ['desdemona', 'iago', 'shiva', 'hamlet', 'polonius', 'bot'] as const) {
    const res = await server.as(who).post('/drafts', { drafts: [{ type: 'private', to: [server.users.cordelia.id], topic: '', content: `from ${who}` }] });
    assertSuccess(res);
    const mine = (await server.as(who).get('/drafts')).body.drafts as { id: number; content: string }[];
    assert.ok(mine.some((d) => d.id === res.body.ids[0] && d.content === `from ${who}`), who);
    assert.ok(!((await server.as('cordelia').get('/drafts')).body.drafts as { id: number }[]).some((d) => d.id === res.body.ids[0]));
  }
  assertError(await server.as('polonius').post('/drafts', { drafts: [{ type: 'stream', to: [denmark], topic: 't', content: 'x' }] }), 400, 'BAD_REQUEST', 'Invalid channel ID');
  await server.as('hamlet').post('/users/me/subscriptions', { subscriptions: [{ name: 'Denmark' }], principals: [server.users.polonius.id] });
  assertSuccess(await server.as('polonius').post('/drafts', { drafts: [{ type: 'stream', to: [denmark], topic: 't', content: 'x' }] }));
});

test('the server fills and refreshes timestamps; addressing is normalised', async () => {
  const before = Math.floor(Date.now() / 1000);
  const [id] = (await server.as('iago').post('/drafts', { drafts: [{ type: '', to: [server.users.hamlet.id], topic: 'ignored', content: 'loose' }] })).body.ids;
  let draft = ((await server.as('iago').get('/drafts')).body.drafts as Record<string, any>[]).find((d) => d.id === id)!;
  assert.deepEqual([draft.to, draft.topic], [[], '']);
  assert.ok(draft.timestamp >= before);
  assertSuccess(await server.as('iago').patch(`/drafts/${id}`, { draft: { type: 'stream', to: [denmark], topic: 'x'.repeat(70), content: 'aimed', timestamp: 1600000000 } }));
  draft = ((await server.as('iago').get('/drafts')).body.drafts as Record<string, any>[]).find((d) => d.id === id)!;
  assert.deepEqual([draft.type, draft.to, [...draft.topic].length, draft.timestamp], ['stream', [denmark], 60, 1600000000]);
  assertError(await server.as('iago').patch(`/drafts/${id}`, { draft: { type: 'stream', to: [], topic: 't', content: 'x' } }), 400, 'BAD_REQUEST', 'Must specify exactly 1 channel ID for channel messages');
  assertError(await server.as('iago').patch('/drafts/999999', { draft: { type: '', to: [], topic: '', content: 'x' } }), 404, 'BAD_REQUEST', 'Draft does not exist');
});
