import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { Listeners } from './helpers/events.js';
import { assertError, assertSuccess } from './helpers/assertions.js';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

test('saved snippets: create, list, edit, delete, events, errors', async () => {
  const l = await Listeners.open(server, ['hamlet', 'cordelia']);
  const h = server.as('hamlet');
  const created = await h.post('/saved_snippets', { title: 'Greeting', content: 'Hello **there**' });
  assert.equal(created.status, 200, created.text);
  const id = created.body.saved_snippet_id;
  const [add] = await l.take('hamlet', 'saved_snippets');
  assert.equal(add.op, 'add');
  assert.deepEqual({ ...add.saved_snippet, date_created: 0 }, { id, title: 'Greeting', content: 'Hello **there**', date_created: 0 });
  assert.deepEqual(await l.take('cordelia', 'saved_snippets'), []);
  assert.equal((await h.patch(`/saved_snippets/${id}`, { content: 'Bye' })).status, 200);
  const [upd] = await l.take('hamlet', 'saved_snippets');
  assert.equal(upd.saved_snippet.content, 'Bye');
  assert.equal(upd.saved_snippet.title, 'Greeting');
  const list = await h.get('/saved_snippets');
  assert.equal(list.body.saved_snippets.length, 1);
  const reg = await h.post('/register', { fetch_event_types: ['saved_snippets'] });
  assert.equal(reg.body.saved_snippets[0].content, 'Bye');
  assert.equal((await h.post('/saved_snippets', { title: ' ', content: 'x' })).body.msg, 'Title cannot be empty.');
  assert.equal((await h.post('/saved_snippets', { title: 'x', content: ' ' })).body.msg, 'Content cannot be empty.');
  assertSuccess(await h.patch(`/saved_snippets/${id}`, {}));
  assert.deepEqual(await l.take('hamlet', 'saved_snippets'), [], 'a request changing nothing succeeds quietly');
  assertError(await h.patch(`/saved_snippets/${id}`, { title: 'x'.repeat(61) }), 400, 'BAD_REQUEST', 'Title is too long (limit: 60 characters).');
  assertError(await h.patch('/saved_snippets/999999', {}), 404, 'BAD_REQUEST', 'Saved snippet does not exist.');
  const foreign = await server.as('cordelia').delete(`/saved_snippets/${id}`);
  assert.equal(foreign.status, 404);
  assert.equal(foreign.body.msg, 'Saved snippet does not exist.');
  assert.equal((await h.delete(`/saved_snippets/${id}`)).status, 200);
  const [rem] = await l.take('hamlet', 'saved_snippets');
  assert.deepEqual([rem.op, rem.saved_snippet_id], ['remove', id]);
});

test('navigation views: built-in and custom, events, errors', async () => {
  const l = await Listeners.open(server, ['hamlet']);
  const h = server.as('hamlet');
  assert.equal((await h.post('/navigation_views', { fragment: 'inbox', is_pinned: false })).status, 200);
  assert.equal((await h.post('/navigation_views', { fragment: 'narrow/channel/9-denmark', is_pinned: true, name: 'Denmark' })).status, 200);
  const events = await l.take('hamlet', 'navigation_view');
  assert.deepEqual(events.map((e) => e.navigation_view), [{ fragment: 'inbox', is_pinned: false }, { fragment: 'narrow/channel/9-denmark', is_pinned: true, name: 'Denmark' }]);
  assert.equal((await h.post('/navigation_views', { fragment: 'inbox', is_pinned: true })).body.msg, 'Navigation view already exists.');
  assert.equal((await h.post('/navigation_views', { fragment: 'recent', is_pinned: true, name: 'Mine' })).body.msg, 'Built-in views cannot have a custom name.');
  assert.equal((await h.post('/navigation_views', { fragment: 'narrow/is/dm', is_pinned: true })).body.msg, 'Custom views must have a valid name.');
  assert.equal((await h.patch('/navigation_views/inbox', { is_pinned: true })).status, 200);
  const [upd] = await l.take('hamlet', 'navigation_view');
  assert.deepEqual([upd.op, upd.fragment, upd.data], ['update', 'inbox', { is_pinned: true }]);
  const missing = await h.patch('/navigation_views/nowhere', { is_pinned: true });
  assert.deepEqual([missing.status, missing.body.code, missing.body.msg], [404, 'NOT_FOUND', 'Navigation view does not exist.']);
  const reg = await h.post('/register', { fetch_event_types: ['navigation_views'] });
  assert.equal(reg.body.navigation_views.length, 2);
  assert.equal((await h.delete('/navigation_views/inbox')).status, 200);
  assert.equal((await h.get('/navigation_views')).body.navigation_views.length, 1);
});

test('navigation views: fragments and names are unique per user; errors', async () => {
  const c = server.as('cordelia');
  assertError(await c.post('/navigation_views', { fragment: ' ', is_pinned: true }), 400, 'BAD_REQUEST', 'fragment cannot be blank');
  assertSuccess(await c.post('/navigation_views', { fragment: 'narrow/is/alerted', is_pinned: true, name: 'Alert words' }));
  assertSuccess(await c.post('/navigation_views', { fragment: 'narrow/has/attachment', is_pinned: true, name: 'Attachments' }));
  assertError(await c.post('/navigation_views', { fragment: 'narrow/is/resolved', is_pinned: true, name: 'Attachments' }), 400, 'BAD_REQUEST', 'Navigation view already exists.');
  assertError(await c.patch('/navigation_views/narrow/has/attachment', { name: 'Alert words' }), 400, 'BAD_REQUEST', 'Navigation view already exists.');
  assertSuccess(await c.patch('/navigation_views/narrow/has/attachment', { name: 'Attachments', is_pinned: false }));
  assertError(await c.patch('/navigation_views/inbox', { is_pinned: true }), 404, 'NOT_FOUND', 'Navigation view does not exist.');
  assertError(await server.as('hamlet').delete('/navigation_views/narrow/is/alerted'), 404, 'NOT_FOUND', 'Navigation view does not exist.');
  assertError(await c.patch('/navigation_views/narrow/is/alerted', { name: ' ' }), 400, 'BAD_REQUEST', 'Custom views must have a valid name.');
  assertSuccess(await c.post('/navigation_views', { fragment: 'recent', is_pinned: true }));
  assertError(await c.patch('/navigation_views/recent', { name: 'Recent' }), 400, 'BAD_REQUEST', 'Built-in views cannot have a custom name.');
  assertError(await c.patch('/navigation_views/recent', {}), 400, 'BAD_REQUEST', 'No new data supplied');
  const views = (await c.get('/navigation_views')).body.navigation_views;
  assert.deepEqual(views, [
    { fragment: 'narrow/is/alerted', is_pinned: true, name: 'Alert words' },
    { fragment: 'narrow/has/attachment', is_pinned: false, name: 'Attachments' },
    { fragment: 'recent', is_pinned: true },
  ]);
});

test('every role, bots included, keeps its own snippets and views', async () => {
  for (const who of ['desdemona', 'iago', 'shiva', 'polonius', 'bot'] as const) {
    const res = await server.as(who).post('/saved_snippets', { title: `${who}'s`, content: 'text' });
    assertSuccess(res);
    assert.deepEqual((await server.as(who).get('/saved_snippets')).body.saved_snippets.map((s: { id: number }) => s.id), [res.body.saved_snippet_id]);
    assertSuccess(await server.as(who).post('/navigation_views', { fragment: 'inbox', is_pinned: true }));
    assert.equal((await server.as(who).get('/navigation_views')).body.navigation_views.length, 1);
    const reg = await server.as(who).post('/register', { fetch_event_types: ['saved_snippets', 'navigation_views'] });
    assert.equal(reg.body.saved_snippets.length, 1);
    assert.equal(reg.body.navigation_views.length, 1);
  }
});

test('a fragment with slashes may also come percent-encoded', async () => {
  const h = server.as('shiva');
  assertSuccess(await h.post('/navigation_views', { fragment: 'narrow/is/starred', is_pinned: false }));
  assertSuccess(await h.patch(`/navigation_views/${encodeURIComponent('narrow/is/starred')}`, { is_pinned: true }));
  assert.deepEqual((await h.get('/navigation_views')).body.navigation_views.find((v: { fragment: string }) => v.fragment === 'narrow/is/starred'), { fragment: 'narrow/is/starred', is_pinned: true });
  assertSuccess(await h.delete('/navigation_views/narrow/is/starred'));
  assert.ok(!(await h.get('/navigation_views')).body.navigation_views.some((v: { fragment: string }) => v.fragment === 'narrow/is/starred'));
});
