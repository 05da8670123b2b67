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

let n = 0;
const unique = (base: string) => `${base} ${++n}`;

async function createChannel(as: SeedName, params: Record<string, ParamValue> = {}): Promise<{ id: number; name: string }> {
  const name = unique('Denmark');
  const res = await server.as(as).post('/users/me/subscriptions', { subscriptions: [{ name }], ...params });
  assert.equal(res.status, 200, res.text);
  const id = await server.as(as).get('/get_stream_id', { stream: name });
  return { id: id.body.stream_id, name };
}

async function setTopic(as: SeedName, streamId: number, topic: string, policy: number) {
  return server.as(as).post('/user_topics', { stream_id: streamId, topic, visibility_policy: policy });
}

async function userTopics(as: SeedName, params: Record<string, ParamValue> = {}) {
  const res = await server.as(as).post('/register', { fetch_event_types: ['user_topic'], ...params });
  assert.equal(res.status, 200, res.text);
  return res.body.user_topics as { stream_id: number; topic_name: string; last_updated: number; visibility_policy: number }[];
}

function expectError(res: { status: number; body: any; text: string }, msg: string, code = 'BAD_REQUEST') {
  assert.equal(res.status, 400, res.text);
  assert.equal(res.body.result, 'error');
  assert.equal(res.body.msg, msg);
  assert.equal(res.body.code, code);
}

// Archives a channel directly in the database: there is no endpoint for it yet.
async function archive(streamId: number) {
  const { loadConfig } = await import('../src/config.js');
  const { openApp } = await import('../src/server.js');
  const { updateStream } = await import('../src/store/streams.js');
  const { app, database } = await openApp({ ...loadConfig({}, server.childEnv), logLevel: 'silent' });
  try {
    await updateStream(app.db, streamId, { isArchived: true });
  } finally {
    app.limiter.close();
    await database.close();
  }
}

describe('POST /user_topics', () => {
  test('each policy is set, announced to the user only, and shown by register', async () => {
    const ch = await createChannel('hamlet');
    const l = await Listeners.open(server, ['hamlet', 'cordelia', 'iago']);
    const before = Math.floor(Date.now() / 1000);
    for (const policy of [1, 2, 3]) {
      const res = await setTopic('hamlet', ch.id, 'dinner', policy);
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, { result: 'success', msg: '' });
      const events = await l.take('hamlet');
      assert.deepEqual(events.map((e) => e.type), ['muted_topics', 'user_topic']);
      const { id: _id, last_updated, ...rest } = events[1];
      assert.deepEqual(rest, { type: 'user_topic', stream_id: ch.id, topic_name: 'dinner', visibility_policy: policy });
      assert.ok(last_updated >= before && last_updated <= Date.now() / 1000 + 1);
      const muted = events[0].muted_topics as [string, string, number][];
      assert.deepEqual(muted.filter((m) => m[0] === ch.name).map((m) => m.slice(0, 2)), policy === 1 ? [[ch.name, 'dinner']] : []);
      const block = (await userTopics('hamlet')).filter((t) => t.stream_id === ch.id);
      assert.deepEqual(block, [{ stream_id: ch.id, topic_name: 'dinner', last_updated, visibility_policy: policy }]);
    }
    const removed = await setTopic('hamlet', ch.id, 'dinner', 0);
    assert.equal(removed.status, 200, removed.text);
    const [, ev] = await l.take('hamlet');
    assert.equal(ev.visibility_policy, 0);
    assert.equal(ev.topic_name, 'dinner');
    assert.deepEqual((await userTopics('hamlet')).filter((t) => t.stream_id === ch.id), []);
    assert.deepEqual(await l.take('cordelia'), []);
    assert.deepEqual(await l.take('iago'), []);
  });

  test('topics match case-insensitively; the stored spelling is the first one', async () => {
    const ch = await createChannel('hamlet');
    assert.equal((await setTopic('hamlet', ch.id, 'Lunch', 1)).status, 200);
    const l = await Listeners.open(server, ['hamlet']);
    assert.equal((await setTopic('hamlet', ch.id, 'LUNCH', 3)).status, 200);
    const [ev] = await l.take('hamlet', 'user_topic');
    assert.equal(ev.topic_name, 'LUNCH');
    assert.deepEqual((await userTopics('hamlet')).filter((t) => t.stream_id === ch.id).map((t) => [t.topic_name, t.visibility_policy]), [['Lunch', 3]]);
    assert.equal((await setTopic('hamlet', ch.id, 'lunch', 0)).status, 200);
    assert.deepEqual((await userTopics('hamlet')).filter((t) => t.stream_id === ch.id), []);
  });

  test('setting the current policy or removing a missing one succeeds without events', async () => {
    const ch = await createChannel('hamlet');
    assert.equal((await setTopic('hamlet', ch.id, 'tea', 1)).status, 200);
    const l = await Listeners.open(server, ['hamlet']);
    assert.equal((await setTopic('hamlet', ch.id, 'tea', 1)).status, 200);
    assert.equal((await setTopic('hamlet', ch.id, 'never set', 0)).status, 200);
    assert.deepEqual(await l.take('hamlet'), []);
  });

  test('queues get the legacy event only when they did not ask for user_topic', async () => {
    const ch = await createChannel('hamlet');
    const both = await Listeners.open(server, ['hamlet'], { event_types: ['user_topic', 'muted_topics'] });
    const legacy = await Listeners.open(server, ['hamlet'], { event_types: ['muted_topics'] });
    assert.equal((await setTopic('hamlet', ch.id, 'supper', 1)).status, 200);
    assert.deepEqual((await both.take('hamlet')).map((e) => e.type), ['user_topic']);
    const old = await legacy.take('hamlet');
    assert.deepEqual(old.map((e) => e.type), ['muted_topics']);
    assert.ok(old[0].muted_topics.some((m: unknown[]) => m[0] === ch.name && m[1] === 'supper' && typeof m[2] === 'number'));
  });

  test('register: muted_topics alone, with user_topic, and with every block', async () => {
    const ch = await createChannel('cordelia');
    assert.equal((await setTopic('cordelia', ch.id, 'muted one', 1)).status, 200);
    assert.equal((await setTopic('cordelia', ch.id, 'followed one', 3)).status, 200);
    const legacy = await server.as('cordelia').post('/register', { fetch_event_types: ['muted_topics'] });
    const mine = (legacy.body.muted_topics as [string, string, number][]).filter((m) => m[0] === ch.name);
    assert.deepEqual(mine.map((m) => m.slice(0, 2)), [[ch.name, 'muted one']]);
    assert.ok(!('user_topics' in legacy.body));
    const both = await server.as('cordelia').post('/register', { fetch_event_types: ['muted_topics', 'user_topic'] });
    assert.ok(!('muted_topics' in both.body));
    assert.equal(both.body.user_topics.filter((t: { stream_id: number }) => t.stream_id === ch.id).length, 2);
    const all = await server.as('cordelia').post('/register', {});
    assert.ok(Array.isArray(all.body.muted_topics) && Array.isArray(all.body.user_topics));
  });

  test('the empty topic: "(no topic)" names it; clients without empty_topic_name see its display name', async () => {
    const ch = await createChannel('hamlet');
    assert.equal((await setTopic('hamlet', ch.id, '(no topic)', 1)).status, 200);
    const modern = await userTopics('hamlet', { client_capabilities: { notification_settings_null: false, empty_topic_name: true } });
    assert.deepEqual(modern.filter((t) => t.stream_id === ch.id).map((t) => t.topic_name), ['']);
    const old = await userTopics('hamlet');
    assert.deepEqual(old.filter((t) => t.stream_id === ch.id).map((t) => t.topic_name), ['general chat']);
    assert.equal((await setTopic('hamlet', ch.id, 'general chat', 0)).status, 200);
    assert.deepEqual((await userTopics('hamlet')).filter((t) => t.stream_id === ch.id), []);
  });

  test('every role may set policies on channels it can read', async () => {
    const ch = await createChannel('iago', { principals: ['polonius@zulip.example.com', 'iago@zulip.example.com'] });
    for (const who of ['desdemona', 'iago', 'shiva', 'hamlet', 'polonius', 'bot'] as const) {
      const res = await setTopic(who, ch.id, `by ${who}`, 3);
      assert.equal(res.status, 200, `${who}: ${res.text}`);
      assert.ok((await userTopics(who)).some((t) => t.stream_id === ch.id && t.topic_name === `by ${who}`), who);
    }
  });

  test('parameter and access errors', async () => {
    const pub = await createChannel('iago');
    const secret = await createChannel('iago', { invite_only: true });
    expectError(await setTopic('hamlet', pub.id, 'x', 4), 'Invalid visibility_policy');
    expectError(await setTopic('hamlet', pub.id, 'x', -1), 'Invalid visibility_policy');
    expectError(await setTopic('hamlet', pub.id, 't'.repeat(61), 1), 'topic is too long (limit: 60 characters)');
    assert.equal((await setTopic('hamlet', pub.id, '🙂'.repeat(60), 1)).status, 200, 'the limit counts code points');
    expectError(await server.as('hamlet').post('/user_topics', { topic: 'x', visibility_policy: 1 }), "Missing 'stream_id' argument", 'REQUEST_VARIABLE_MISSING');
    expectError(await server.as('hamlet').post('/user_topics', { stream_id: pub.id, visibility_policy: 1 }), "Missing 'topic' argument", 'REQUEST_VARIABLE_MISSING');
    expectError(await server.as('hamlet').post('/user_topics', { stream_id: 'abc', topic: 'x', visibility_policy: 1 }), 'stream_id is not an integer');
    expectError(await setTopic('hamlet', 999999, 'x', 1), 'Invalid channel ID');
    expectError(await setTopic('hamlet', 999999, 'x', 0), 'Invalid channel ID');
    expectError(await setTopic('hamlet', secret.id, 'x', 1), 'Invalid channel ID');
    expectError(await setTopic('polonius', pub.id, 'x', 1), 'Invalid channel ID');
    assert.equal((await setTopic('iago', secret.id, 'x', 1)).status, 200);
    const lear = await server.as('lear').post('/user_topics', { stream_id: pub.id, topic: 'x', visibility_policy: 1 });
    expectError(lear, 'Invalid channel ID');
  });

  test('a policy can be removed after losing access, and archived channels take no new ones', async () => {
    const secret = await createChannel('iago', { invite_only: true, principals: ['hamlet@zulip.example.com', 'iago@zulip.example.com'] });
    assert.equal((await setTopic('hamlet', secret.id, 'plans', 1)).status, 200);
    const out = await server.as('iago').delete('/users/me/subscriptions', { subscriptions: [secret.name], principals: ['hamlet@zulip.example.com'] });
    assert.equal(out.status, 200, out.text);
    expectError(await setTopic('hamlet', secret.id, 'plans', 3), 'Invalid channel ID');
    const l = await Listeners.open(server, ['hamlet']);
    assert.equal((await setTopic('hamlet', secret.id, 'plans', 0)).status, 200);
    assert.deepEqual((await l.take('hamlet', 'user_topic')).map((e) => e.visibility_policy), [0]);

    const ch = await createChannel('hamlet');
    assert.equal((await setTopic('hamlet', ch.id, 'old', 1)).status, 200);
    await archive(ch.id);
    assert.deepEqual((await userTopics('hamlet')).filter((t) => t.stream_id === ch.id), [], 'archived channels are not listed');
    expectError(await setTopic('hamlet', ch.id, 'new', 1), 'Invalid channel ID');
    assert.equal((await setTopic('hamlet', ch.id, 'old', 0)).status, 200);
  });
});

describe('PATCH /users/me/subscriptions/muted_topics (deprecated)', () => {
  const patch = (as: SeedName, params: Record<string, ParamValue>) => server.as(as).patch('/users/me/subscriptions/muted_topics', params);

  test('add and remove by channel id or name, idempotently, with both events', async () => {
    const ch = await createChannel('hamlet');
    const l = await Listeners.open(server, ['hamlet', 'cordelia']);
    assert.equal((await patch('hamlet', { stream_id: ch.id, topic: 'news', op: 'add' })).status, 200);
    let events = await l.take('hamlet');
    assert.deepEqual(events.map((e) => e.type), ['muted_topics', 'user_topic']);
    assert.equal(events[1].visibility_policy, 1);
    assert.ok(events[0].muted_topics.some((m: unknown[]) => m[0] === ch.name && m[1] === 'news'));
    const again = await patch('hamlet', { stream: ch.name, topic: 'NEWS', op: 'add' });
    assert.deepEqual(again.body, { result: 'success', msg: '' });
    assert.deepEqual(await l.take('hamlet'), [], 'already muted: no change');
    assert.equal((await patch('hamlet', { stream: ch.name, topic: 'news', op: 'remove' })).status, 200);
    events = await l.take('hamlet');
    assert.deepEqual(events.map((e) => [e.type, e.visibility_policy]), [['muted_topics', undefined], ['user_topic', 0]]);
    assert.ok(!events[0].muted_topics.some((m: unknown[]) => m[0] === ch.name));
    assert.equal((await patch('hamlet', { stream_id: ch.id, topic: 'news', op: 'remove' })).status, 200, 'not muted: still succeeds');
    assert.deepEqual(await l.take('hamlet'), []);
    assert.deepEqual(await l.take('cordelia'), []);
  });

  test('errors', async () => {
    const ch = await createChannel('iago');
    expectError(await patch('hamlet', { topic: 'x', op: 'add' }), "Missing 'stream_id' argument");
    const both = await patch('hamlet', { stream_id: ch.id, stream: ch.name, topic: 'x', op: 'add' });
    expectError(both, 'Unsupported parameter combination: stream_id, stream');
    assert.equal(both.body.parameters, 'stream_id, stream');
    expectError(await patch('hamlet', { stream_id: ch.id, topic: 'x', op: 'mute' }), 'Invalid op: "mute"');
    expectError(await patch('hamlet', { stream_id: ch.id, op: 'add' }), "Missing 'topic' argument", 'REQUEST_VARIABLE_MISSING');
    expectError(await patch('hamlet', { stream_id: ch.id, topic: 'x'.repeat(61), op: 'add' }), 'topic is too long (limit: 60 characters)');
    expectError(await patch('hamlet', { stream: 'Nowhere at all', topic: 'x', op: 'add' }), "Invalid channel name 'Nowhere at all'");
    expectError(await patch('hamlet', { stream_id: 999999, topic: 'x', op: 'add' }), 'Invalid channel ID');
    expectError(await patch('hamlet', { stream: 'Nowhere at all', topic: 'x', op: 'remove' }), 'Topic is not muted');
    expectError(await patch('polonius', { stream: ch.name, topic: 'x', op: 'add' }), `Invalid channel name '${ch.name}'`);
  });
});
