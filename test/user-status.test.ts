import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { Listeners } from './helpers/events.js';
import type { ParamValue } from './helpers/client.js';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

test('status: only passed fields change; events to everyone; register block', async () => {
  const l = await Listeners.open(server, ['cordelia', 'polonius']);
  const h = server.as('hamlet');
  assert.equal((await h.post('/users/me/status', { status_text: 'In a meeting', emoji_name: 'car' })).status, 200);
  for (const who of ['cordelia', 'polonius'] as const) {
    const [ev] = await l.take(who, 'user_status');
    assert.equal(ev.user_id, server.users.hamlet.id);
    assert.equal(ev.status_text, 'In a meeting');
    assert.equal(ev.emoji_name, 'car');
    assert.equal(ev.reaction_type, 'unicode_emoji');
    assert.match(ev.emoji_code, /^[0-9a-f-]+$/);
  }
  assert.equal((await h.post('/users/me/status', { status_text: 'Lunch' })).status, 200);
  const [ev] = await l.take('cordelia', 'user_status');
  assert.ok(!('emoji_name' in ev), 'only passed fields are sent');
  const reg = await server.as('cordelia').post('/register', { fetch_event_types: ['user_status'] });
  assert.equal(reg.body.user_status[server.users.hamlet.id].status_text, 'Lunch');
  assert.equal(reg.body.user_status[server.users.hamlet.id].emoji_name, 'car', 'the emoji was kept');
  assert.equal((await h.post('/users/me/status', { status_text: '', emoji_name: '' })).status, 200);
  const cleared = await server.as('cordelia').post('/register', { fetch_event_types: ['user_status'] });
  assert.ok(!(server.users.hamlet.id in cleared.body.user_status));
});

test('status errors', async () => {
  const h = server.as('hamlet');
  const cases: [Record<string, ParamValue>, string][] = [
    [{}, 'Client did not pass any new values.'],
    [{ status_text: 'x'.repeat(61) }, 'status_text is too long (limit: 60 characters)'],
    [{ emoji_code: '1f697' }, 'Client must pass emoji_name if they pass either emoji_code or reaction_type.'],
    [{ reaction_type: 'unicode_emoji' }, 'Client must pass emoji_name if they pass either emoji_code or reaction_type.'],
    [{ emoji_name: 'no_such_emoji_here' }, "Emoji 'no_such_emoji_here' does not exist"],
    [{ emoji_name: 'car', emoji_code: '1f600' }, 'Invalid emoji name.'],
    [{ emoji_name: 'car', emoji_code: '99999', reaction_type: 'realm_emoji' }, 'Invalid custom emoji.'],
  ];
  for (const [params, msg] of cases) {
    const res = await h.post('/users/me/status', params);
    assert.equal(res.status, 400, JSON.stringify(params));
    assert.deepEqual([res.body.msg, res.body.code], [msg, 'BAD_REQUEST']);
  }
  assert.equal((await h.post('/users/me/status', { status_text: '😀'.repeat(60) })).status, 200, 'code points are counted');
});

test('away is the inverse of presence_enabled', async () => {
  const l = await Listeners.open(server, ['shiva', 'cordelia']);
  assert.equal((await server.as('shiva').post('/users/me/status', { away: true })).status, 200);
  const settings = await l.take('shiva', 'user_settings');
  assert.deepEqual(settings.map((e) => [e.property, e.value]), [['presence_enabled', false]]);
  const [ev] = await l.take('cordelia', 'user_status');
  assert.equal(ev.away, true);
  const reg = await server.as('shiva').post('/register', { fetch_event_types: ['user_settings'] });
  assert.equal(reg.body.user_settings.presence_enabled, false);
});
