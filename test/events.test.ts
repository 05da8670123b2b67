import { test, after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import http from 'node:http';
import { promisify } from 'node:util';
import { startTestServer, BIN, type TestServer } from './helpers/server.js';
import { validateRegisterResponse } from './helpers/openapi-register.js';

const run = promisify(execFile);

// Changes the default organization's stored settings directly: there is no PATCH /realm yet.
async function setRealmSettings(server: TestServer, settings: Record<string, unknown>) {
  const { loadConfig } = await import('../src/config.js');
  const { openApp } = await import('../src/server.js');
  const { findRealmBySubdomain, updateRealm } = await import('../src/store/realms.js');
  const { app, database } = await openApp({ ...loadConfig({}, server.childEnv), logLevel: 'silent' });
  try {
    const realm = (await findRealmBySubdomain(app.db, ''))!;
    await updateRealm(app.db, realm.id, { settings: { ...realm.settings, ...settings } });
  } finally {
    app.limiter.close();
    await database.close();
  }
}

async function register(server: TestServer, name: 'hamlet' | 'iago' | 'cordelia' = 'hamlet', params: Record<string, unknown> = {}) {
  const res = await server.as(name).post('/register', { event_types: ['realm_user', 'restart', 'heartbeat'], fetch_event_types: ['realm_user'], ...params });
  assert.equal(res.status, 200, res.text);
  return res.body;
}

let counter = 0;
async function createUser(server: TestServer) {
  const n = ++counter;
  const res = await server.as('iago').post('/users', { email: `new${n}-${Date.now()}@zulip.example.com`, password: 'secret123', full_name: `New ${n}` });
  assert.equal(res.status, 200, res.text);
  return res.body.user_id as number;
}

describe('event queues', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ env: { PARLANCE_HEARTBEAT_SECONDS: '2' } });
  });
  after(() => server.close());

  test('register always returns the queue and version keys, and only the blocks asked for', async () => {
    const res = await server.as('hamlet').post('/register', { fetch_event_types: ['realm_user'] });
    assert.equal(res.status, 200, res.text);
    for (const key of ['queue_id', 'last_event_id', 'zulip_version', 'zulip_feature_level', 'zulip_merge_base', 'idle_queue_timeout_secs', 'event_queue_longpoll_timeout_seconds']) {
      assert.ok(key in res.body, key);
    }
    assert.equal(res.body.zulip_feature_level, 496);
    assert.equal(res.body.last_event_id, -1);
    assert.equal(res.body.idle_queue_timeout_secs, 600);
    assert.ok(res.body.event_queue_longpoll_timeout_seconds > 2);
    assert.ok(Array.isArray(res.body.realm_users));
    assert.equal(res.body.user_id, server.users.hamlet.id);
    assert.ok(!('user_settings' in res.body));
    assert.ok(!('realm_name' in res.body));
    const idle = await server.as('hamlet').post('/register', { fetch_event_types: [], idle_queue_timeout: 3600 });
    assert.equal(idle.body.idle_queue_timeout_secs, 3600);
    const bad = await server.as('hamlet').post('/register', { idle_queue_timeout: 8 * 24 * 3600 });
    assert.equal(bad.status, 400);
  });

  test('a poll whose client goes away while parked loses nothing: the events wait for the next poll', async () => {
    // Several queues, each with a parked poll that its client drops (as when a proxy restarts).
    const client = server.as('hamlet');
    const queues = await Promise.all(Array.from({ length: 5 }, () => register(server)));
    await Promise.all(queues.map((q) => new Promise<void>((resolve) => {
      const req = http.get(new URL(`/api/v1/events?queue_id=${q.queue_id}&last_event_id=${q.last_event_id}`, client.baseUrl), { headers: client.headers() });
      req.on('response', () => resolve());
      req.on('error', () => resolve());
      setTimeout(() => req.destroy(), 300);
    })));
    const id = await createUser(server);
    for (const q of queues) {
      const res = await client.get('/events', { queue_id: q.queue_id, last_event_id: q.last_event_id });
      assert.equal(res.status, 200, res.text);
      assert.ok(res.body.events.some((e: { type: string; person?: { user_id: number } }) => e.type === 'realm_user' && e.person?.user_id === id), res.text);
    }
  });

  test('register without fetch_event_types returns every block, matching the published schema', async () => {
    for (const name of ['desdemona', 'hamlet', 'polonius', 'bot'] as const) {
      const res = await server.as(name).post('/register', {});
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(validateRegisterResponse(res.body), []);
      for (const key of ['realm_users', 'user_settings', 'realm_name', 'max_message_length', 'max_topic_length', 'max_stream_name_length',
        'max_stream_description_length', 'max_file_upload_size_mib', 'realm_empty_topic_display_name', 'server_report_message_types',
        'realm_moderation_request_channel_id', 'realm_topics_policy']) {
        assert.ok(key in res.body, `${name}: ${key}`);
      }
      assert.equal(res.body.is_admin, name === 'desdemona');
      assert.equal(res.body.is_guest, name === 'polonius');
    }
    const grav = await server.as('hamlet').post('/register', { fetch_event_types: ['realm_user'], client_gravatar: false });
    assert.ok(grav.body.realm_users.every((u: { avatar_url: string | null }) => typeof u.avatar_url === 'string'));
    // Default avatars are drawn by the server: nothing for a client to compute, so never null.
    const dflt = await server.as('hamlet').post('/register', { fetch_event_types: ['realm_user'] });
    assert.ok(dflt.body.realm_users.every((u: { avatar_url: string | null }) => typeof u.avatar_url === 'string'));
  });

  test('unauthenticated register needs spectator access, and refuses personal options', async () => {
    const res = await server.anon().post('/register', {});
    assert.equal(res.status, 401);
    assert.equal(res.body.code, 'UNAUTHORIZED');
    await setRealmSettings(server, { enable_spectator_access: true });
    try {
      const ok = await server.anon().post('/register', {});
      assert.equal(ok.status, 200, ok.text);
      assert.equal(ok.body.queue_id, null);
      assert.deepEqual(ok.body.realm_users, []);
      assert.ok(!('user_id' in ok.body));
      assert.ok(!('user_settings' in ok.body) || typeof ok.body.user_settings === 'object');
      const grav = await server.anon().post('/register', { client_gravatar: true });
      assert.equal(grav.status, 400);
      assert.equal(grav.body.msg, "Invalid 'client_gravatar' parameter for anonymous request");
      const subs = await server.anon().post('/register', { include_subscribers: 'true' });
      assert.equal(subs.status, 400);
      assert.equal(subs.body.msg, "Invalid 'include_subscribers' parameter for anonymous request");
      const partial = await server.anon().post('/register', { include_subscribers: 'partial', client_gravatar: false });
      assert.equal(partial.status, 200);
    } finally {
      await setRealmSettings(server, { enable_spectator_access: false });
    }
  });

  test('a parked poll wakes on an event, which is acknowledged by the next poll', async () => {
    const reg = await register(server);
    const poll = server.as('hamlet').get('/events', { queue_id: reg.queue_id, last_event_id: reg.last_event_id });
    await new Promise((r) => setTimeout(r, 100));
    const started = Date.now();
    const newId = await createUser(server);
    const res = await poll;
    assert.equal(res.status, 200, res.text);
    assert.ok(Date.now() - started < 1000);
    assert.equal(res.body.events.length, 1);
    const [ev] = res.body.events;
    assert.equal(ev.type, 'realm_user');
    assert.equal(ev.op, 'add');
    assert.equal(ev.person.user_id, newId);
    assert.ok(ev.id > reg.last_event_id);
    // Not acknowledged yet: the same event comes again; acknowledged: it is gone.
    const again = await server.as('hamlet').get('/events', { queue_id: reg.queue_id, last_event_id: -1, dont_block: true });
    assert.deepEqual(again.body.events.map((e: { id: number }) => e.id), [ev.id]);
    const acked = await server.as('hamlet').get('/events', { queue_id: reg.queue_id, last_event_id: ev.id, dont_block: true });
    assert.deepEqual(acked.body.events, []);
    const pruned = await server.as('hamlet').get('/events', { queue_id: reg.queue_id, last_event_id: -1, dont_block: true });
    assert.equal(pruned.status, 400);
    assert.equal(pruned.body.msg, 'An event newer than -1 has already been pruned!');
    // An event id this queue never had (a log event's id, 1,000 log positions ahead).
    const inventedId = ev.id + 4096 * 1000;
    const invented = await server.as('hamlet').get('/events', { queue_id: reg.queue_id, last_event_id: inventedId, dont_block: true });
    assert.equal(invented.status, 400);
    assert.equal(invented.body.msg, `Event ${inventedId} was not in this queue`);
    assert.equal(invented.body.code, 'BAD_REQUEST');
  });

  test('client_gravatar changes nothing for avatars drawn by the server', async () => {
    const plain = await register(server, 'hamlet', { client_gravatar: false });
    const grav = await register(server, 'cordelia', { client_gravatar: true });
    await createUser(server);
    const a = await server.as('hamlet').get('/events', { queue_id: plain.queue_id, last_event_id: -1 });
    const b = await server.as('cordelia').get('/events', { queue_id: grav.queue_id, last_event_id: -1 });
    assert.match(a.body.events[0].person.avatar_url, /^\/user_avatars\//);
    assert.equal(b.body.events[0].person.avatar_url, a.body.events[0].person.avatar_url);
  });

  test('a parked poll gets a heartbeat', async () => {
    const reg = await register(server);
    const res = await server.as('hamlet').get('/events', { queue_id: reg.queue_id, last_event_id: -1 });
    assert.equal(res.status, 200);
    assert.equal(res.body.events.length, 1);
    assert.equal(res.body.events[0].type, 'heartbeat');
    assert.ok(res.body.events[0].id > -1);
    const next = await server.as('hamlet').get('/events', { queue_id: reg.queue_id, last_event_id: res.body.events[0].id, dont_block: true });
    assert.equal(next.status, 200, next.text);
  });

  test('a newer poll finishes the older one', async () => {
    const reg = await register(server);
    const first = server.as('hamlet').get('/events', { queue_id: reg.queue_id, last_event_id: -1 });
    await new Promise((r) => setTimeout(r, 100));
    const second = server.as('hamlet').get('/events', { queue_id: reg.queue_id, last_event_id: -1, dont_block: true });
    const [a, b] = await Promise.all([first, second]);
    assert.equal(a.status, 200);
    assert.deepEqual(a.body.events, []);
    assert.equal(b.status, 200);
  });

  test('event_types filters what a queue receives', async () => {
    const users = await register(server, 'hamlet', { event_types: ['realm_user'] });
    const other = await register(server, 'cordelia', { event_types: ['message'] });
    await createUser(server);
    const a = await server.as('hamlet').get('/events', { queue_id: users.queue_id, last_event_id: -1, dont_block: true });
    const b = await server.as('cordelia').get('/events', { queue_id: other.queue_id, last_event_id: -1, dont_block: true });
    assert.equal(a.body.events.length, 1);
    assert.deepEqual(b.body.events, []);
  });

  test('queue errors: unknown, foreign, missing arguments', async () => {
    const reg = await register(server);
    const unknown = await server.as('hamlet').get('/events', { queue_id: 'nope', last_event_id: -1 });
    assert.equal(unknown.status, 400);
    assert.deepEqual(unknown.body, { result: 'error', msg: 'Bad event queue ID: nope', code: 'BAD_EVENT_QUEUE_ID', queue_id: 'nope' });
    const foreign = await server.as('cordelia').get('/events', { queue_id: reg.queue_id, last_event_id: -1 });
    assert.equal(foreign.body.code, 'BAD_EVENT_QUEUE_ID');
    const noQueue = await server.as('hamlet').get('/events', {});
    assert.equal(noQueue.body.msg, "Missing 'queue_id' argument");
    assert.equal(noQueue.body.code, 'REQUEST_VARIABLE_MISSING');
    const noLast = await server.as('hamlet').get('/events', { queue_id: reg.queue_id });
    assert.equal(noLast.body.msg, "Missing 'last_event_id' argument");
    const del = await server.as('cordelia').delete('/events', { queue_id: reg.queue_id });
    assert.equal(del.body.code, 'BAD_EVENT_QUEUE_ID');
  });

  test('GET /events without a queue registers one when dont_block is set', async () => {
    const res = await server.as('hamlet').get('/events', { dont_block: true, event_types: ['realm_user'] });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.events, []);
    assert.equal(typeof res.body.queue_id, 'string');
    await createUser(server);
    const next = await server.as('hamlet').get('/events', { queue_id: res.body.queue_id, last_event_id: -1, dont_block: true });
    assert.equal(next.body.events.length, 1);
  });

  test('DELETE /events removes the queue', async () => {
    const reg = await register(server);
    const del = await server.as('hamlet').delete('/events', { queue_id: reg.queue_id });
    assert.equal(del.status, 200);
    const res = await server.as('hamlet').get('/events', { queue_id: reg.queue_id, last_event_id: -1 });
    assert.equal(res.body.code, 'BAD_EVENT_QUEUE_ID');
  });

  test('state and queue are consistent under concurrent changes', async () => {
    const created: Promise<number>[] = [];
    const registrations: Promise<Record<string, any>>[] = [];
    for (let i = 0; i < 8; i++) {
      created.push(createUser(server));
      registrations.push(register(server, 'hamlet', { event_types: ['realm_user'], fetch_event_types: ['realm_user'] }));
    }
    const ids = await Promise.all(created);
    const regs = await Promise.all(registrations);
    for (const reg of regs) {
      const res = await server.as('hamlet').get('/events', { queue_id: reg.queue_id, last_event_id: -1, dont_block: true });
      const inState = new Set<number>(reg.realm_users.map((u: { user_id: number }) => u.user_id));
      const inEvents = res.body.events.map((e: { person: { user_id: number } }) => e.person.user_id);
      for (const id of inEvents) assert.ok(!inState.has(id), `user ${id} both in state and in events`);
      for (const id of ids) assert.ok(inState.has(id) || inEvents.includes(id), `user ${id} lost`);
    }
  });

  test('users created with the CLI reach the running server\'s queues', async () => {
    const reg = await register(server);
    const env = { ...process.env, ...server.childEnv };
    const { stdout } = await run(process.execPath, [BIN, 'create-user', '--email', 'cli-user@zulip.example.com', '--name', 'Cli User', '--password', 'secret123', '--role', 'member', '--json'], { env });
    const created = JSON.parse(stdout);
    // Poll (past heartbeats, which a slow CLI start may let through) until the user's event arrives.
    let last = -1;
    for (let i = 0; i < 10; i++) {
      const res = await server.as('hamlet').get('/events', { queue_id: reg.queue_id, last_event_id: last });
      const added = res.body.events.find((e: { type: string }) => e.type === 'realm_user');
      if (added) {
        assert.equal(added.person.user_id, created.user_id);
        return;
      }
      last = res.body.events.at(-1).id;
    }
    assert.fail('the CLI-created user never reached the queue');
  });
});

describe('queue collection and bounds', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({
      env: { PARLANCE_QUEUE_IDLE_TIMEOUT_SECONDS: '1', PARLANCE_QUEUE_GC_INTERVAL_SECONDS: '1', PARLANCE_MAX_QUEUE_LENGTH: '3' },
    });
  });
  after(() => server.close());

  test('an idle queue is collected', async () => {
    const reg = await register(server);
    await new Promise((r) => setTimeout(r, 2500));
    const res = await server.as('hamlet').get('/events', { queue_id: reg.queue_id, last_event_id: -1, dont_block: true });
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'BAD_EVENT_QUEUE_ID');
  });

  test('a queue that overflows is removed', async () => {
    const reg = await register(server, 'hamlet', { idle_queue_timeout: 600 });
    for (let i = 0; i < 4; i++) await createUser(server);
    const res = await server.as('hamlet').get('/events', { queue_id: reg.queue_id, last_event_id: -1, dont_block: true });
    assert.equal(res.body.code, 'BAD_EVENT_QUEUE_ID');
  });
});

describe('restarts', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
    test(`queues survive ${signal}: pending events, then a restart event`, async () => {
      const reg = await register(server);
      const first = await createUser(server);
      const seen = await server.as('hamlet').get('/events', { queue_id: reg.queue_id, last_event_id: -1, dont_block: true });
      const firstEvent = seen.body.events[0];
      assert.equal(firstEvent.person.user_id, first);
      const second = await createUser(server);
      // A poll parked at shutdown is answered, not dropped.
      const parked = server.as('hamlet').get('/events', { queue_id: reg.queue_id, last_event_id: seen.body.events.at(-1).id + 0 }).catch(() => null);
      await new Promise((r) => setTimeout(r, 100));
      if (signal === 'SIGTERM') {
        const code = await server.stop('SIGTERM');
        assert.equal(code, 0);
        const answered = await parked;
        assert.ok(answered === null || answered.status === 200);
        await server.start();
      } else {
        await server.restart('SIGKILL');
        await parked;
      }
      const started = Date.now();
      const res = await server.as('hamlet').get('/events', { queue_id: reg.queue_id, last_event_id: firstEvent.id });
      assert.ok(Date.now() - started < 2000, 'answers at once');
      assert.equal(res.status, 200, res.text);
      const types = res.body.events.map((e: { type: string }) => e.type);
      assert.deepEqual(types, ['realm_user', 'restart']);
      assert.equal(res.body.events[0].person.user_id, second);
      const ids = res.body.events.map((e: { id: number }) => e.id);
      assert.ok(ids[0] > firstEvent.id && ids[1] > ids[0]);
      const third = await createUser(server);
      const next = await server.as('hamlet').get('/events', { queue_id: reg.queue_id, last_event_id: ids[1] });
      assert.equal(next.body.events[0].person.user_id, third);
      assert.ok(next.body.events[0].id > ids[1]);
    });
  }
});
