// Request parameters: where they may come from (query string, urlencoded or multipart body, for every method),
// how values are read (booleans, JSON, raw strings), and the errors for missing, invalid and unknown ones.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { send, type Encoding } from './helpers/client.js';
import { assertError, assertSuccess } from './helpers/assertions.js';
import { assertMatchesSchema } from './helpers/openapi.js';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server?.close());

const ENCODINGS: Encoding[] = ['query', 'urlencoded', 'multipart'];

test('GET reads its parameters from the query string, an urlencoded body or a multipart body', async () => {
  const hamlet = server.as('hamlet');
  for (const encoding of ENCODINGS) {
    // include_custom_profile_fields defaults to false (no profile_data): true must have been read.
    const on = assertSuccess(await hamlet.get('/users', { include_custom_profile_fields: true, client_gravatar: false }, { encoding }));
    assertMatchesSchema('/users', 'get', on);
    assert.ok(on.members.length > 0);
    for (const m of on.members) assert.equal('profile_data' in m, !m.is_bot, encoding);
    const off = assertSuccess(await hamlet.get('/users', { include_custom_profile_fields: false }, { encoding }));
    for (const m of off.members) assert.equal('profile_data' in m, false, encoding);
    assert.equal(on.ignored_parameters_unsupported, undefined);

    assertError(await hamlet.get('/users', { client_gravatar: 'maybe' }, { encoding }), 400, 'BAD_REQUEST',
      'client_gravatar is not a boolean', { var_name: 'client_gravatar' });
    const unknown = assertSuccess(await hamlet.get('/users/me', { not_a_parameter: 1 }, { encoding }));
    assert.deepEqual(unknown.ignored_parameters_unsupported, ['not_a_parameter'], encoding);
  }
});

test('POST reads its parameters from the query string, an urlencoded body, a multipart body, or a mix', async () => {
  const { email, password, apiKey, id } = server.users.hamlet;
  const anon = server.anon();
  const expect = (body: any) => {
    assertMatchesSchema('/fetch_api_key', 'post', body);
    assert.deepEqual([body.api_key, body.email, body.user_id], [apiKey, email, id]);
  };
  for (const encoding of ENCODINGS) {
    expect(assertSuccess(await anon.post('/fetch_api_key', { username: email, password }, { encoding })));
  }
  // Query string and body together.
  const url = new URL(`/api/v1/fetch_api_key?username=${encodeURIComponent(email)}`, server.url);
  const mixed = await send('POST', url, { 'content-type': 'application/x-www-form-urlencoded' }, new URLSearchParams({ password }).toString());
  expect(assertSuccess(mixed));
});

test('a JSON request body is read too, with or without spaces; a malformed one is INVALID_JSON', async () => {
  const { email, password, apiKey } = server.users.hamlet;
  const url = new URL('/api/v1/fetch_api_key', server.url);
  const json = { 'content-type': 'application/json' };
  for (const body of [JSON.stringify({ username: email, password }), JSON.stringify({ username: email, password }, null, 2)]) {
    const ok = assertSuccess(await send('POST', url, json, body));
    assert.equal(ok.api_key, apiKey);
  }
  for (const bad of ['{"username": ', '{username: "x"}', "{'a': 1}"]) {
    assertError(await send('POST', url, json, bad), 400, 'INVALID_JSON', /.+/);
  }
});

test('PATCH and DELETE read their parameters from the query string, an urlencoded body or a multipart body', async () => {
  // The foundation has no PATCH or DELETE endpoint of its own; PATCH /settings and DELETE /events carry the
  // parameters here.
  const hamlet = server.as('hamlet');
  const setting = async () => {
    const state = assertSuccess(await hamlet.post('/register', { fetch_event_types: ['user_settings'] }));
    await hamlet.delete('/events', { queue_id: state.queue_id });
    return state.user_settings.twenty_four_hour_time;
  };
  let value = await setting();
  for (const encoding of ENCODINGS) {
    value = !value;
    const patched = assertSuccess(await hamlet.patch('/settings', { twenty_four_hour_time: value, unknown_setting: 1 }, { encoding }));
    assert.deepEqual(patched.ignored_parameters_unsupported, ['unknown_setting'], encoding);
    assert.equal(await setting(), value, encoding);
    assertError(await hamlet.patch('/settings', { twenty_four_hour_time: 'maybe' }, { encoding }), 400, 'BAD_REQUEST',
      'twenty_four_hour_time is not a boolean', { var_name: 'twenty_four_hour_time' });

    const { queue_id } = assertSuccess(await hamlet.post('/register', { event_types: ['message'] }));
    const deleted = assertSuccess(await hamlet.delete('/events', { queue_id, unknown: 'x' }, { encoding }));
    assert.deepEqual(deleted.ignored_parameters_unsupported, ['unknown'], encoding);
    // Gone: the queue id was read.
    assertError(await hamlet.delete('/events', { queue_id }, { encoding }), 400, 'BAD_EVENT_QUEUE_ID', `Bad event queue ID: ${queue_id}`);
    assertError(await hamlet.delete('/events', {}, { encoding }), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'queue_id' argument",
      { var_name: 'queue_id' });
  }
});

test('JSON parameters are read with or without spaces; malformed ones are INVALID_JSON', async () => {
  const hamlet = server.as('hamlet');
  for (const encoding of ['urlencoded', 'multipart'] as const) {
    for (const raw of ['["realm_user","zulip_version"]', '["realm_user", "zulip_version"]', ' [ "realm_user" , "zulip_version" ] ']) {
      const state = assertSuccess(await hamlet.post('/register', { fetch_event_types: raw, narrow: '[]' }, { encoding }));
      assert.ok(Array.isArray(state.realm_users), `${encoding} ${raw}`);
      assert.equal(state.subscriptions, undefined);
      await hamlet.delete('/events', { queue_id: state.queue_id });
    }
    for (const [name, raw] of [['fetch_event_types', '["realm_user"'], ['narrow', '[['], ['event_types', '{"a": ']]) {
      assertError(await hamlet.post('/register', { [name]: raw }, { encoding }), 400, 'INVALID_JSON', `${name} is not valid JSON`,
        { var_name: name });
    }
  }
  for (const raw of ['[1,2]', '[1, 2]', '1,2']) {
    assertSuccess(await hamlet.get('/messages/matches_narrow', { msg_ids: raw, narrow: '[]' }));
  }
  assertError(await hamlet.get('/messages/matches_narrow', { msg_ids: '[1, 2', narrow: '[]' }), 400, 'INVALID_JSON',
    'msg_ids is not valid JSON', { var_name: 'msg_ids' });
});

test('a parameter given under two of its names is REQUEST_CONFUSING_VAR', async () => {
  const hamlet = server.as('hamlet');
  for (const encoding of ENCODINGS) {
    assertError(await hamlet.get('/streams', { include_all: true, include_all_active: true }, { encoding }), 400, 'REQUEST_CONFUSING_VAR',
      "Can't decide between 'include_all' and 'include_all_active' arguments", { var_name1: 'include_all', var_name2: 'include_all_active' });
  }
  // Either name alone is fine.
  assertSuccess(await hamlet.get('/streams', { include_all_active: false }));
  assertSuccess(await hamlet.get('/streams', { include_all: false }));
});

test('unknown parameters are listed in ignored_parameters_unsupported', async () => {
  const hamlet = server.as('hamlet');
  const me = assertSuccess(await hamlet.get('/users/me', { foo: 'bar', anchor: 10, client_gravatar: true }));
  assert.deepEqual([...me.ignored_parameters_unsupported].sort(), ['anchor', 'client_gravatar', 'foo']);
  assertMatchesSchema('/users/me', 'get', me);

  // Known ones are not listed; none unknown, no key at all.
  const users = assertSuccess(await hamlet.get('/users', { client_gravatar: false, include_custom_profile_fields: true, extra: 1 }));
  assert.deepEqual(users.ignored_parameters_unsupported, ['extra']);
  assert.equal(assertSuccess(await hamlet.get('/users', { client_gravatar: false })).ignored_parameters_unsupported, undefined);

  // The JavaScript client repeats path parameters in the query string.
  const id = server.users.iago.id;
  const one = assertSuccess(await hamlet.get(`/users/${id}`, { user_id: id }));
  assert.equal(one.user.user_id, id);
  assert.deepEqual(one.ignored_parameters_unsupported, ['user_id']);

  // Unauthenticated endpoints and multipart bodies too.
  const { email, password } = server.users.hamlet;
  const key = assertSuccess(await server.anon('multipart').post('/fetch_api_key', { username: email, password, client: 'test' }));
  assert.deepEqual(key.ignored_parameters_unsupported, ['client']);
  assertMatchesSchema('/fetch_api_key', 'post', key);
  const settings = assertSuccess(await server.anon().get('/server_settings', { whatever: 1 }));
  assert.deepEqual(settings.ignored_parameters_unsupported, ['whatever']);
});

test("a missing required parameter is REQUEST_VARIABLE_MISSING naming it", async () => {
  const { email, password } = server.users.hamlet;
  for (const encoding of ['urlencoded', 'multipart', 'query'] as Encoding[]) {
    assertError(await server.anon().post('/fetch_api_key', { username: email }, { encoding }), 400, 'REQUEST_VARIABLE_MISSING',
      "Missing 'password' argument", { var_name: 'password' });
    assertError(await server.anon().post('/fetch_api_key', { password }, { encoding }), 400, 'REQUEST_VARIABLE_MISSING',
      "Missing 'username' argument", { var_name: 'username' });
  }
  assertError(await server.as('iago').post('/users', { email: 'x@zulip.example.com', password: 'secret123' }), 400,
    'REQUEST_VARIABLE_MISSING', "Missing 'full_name' argument", { var_name: 'full_name' });
});

test('invalid values are 400 BAD_REQUEST naming the parameter', async () => {
  const hamlet = server.as('hamlet');
  for (const value of ['yes', '1', '', 'null', '"true"', '[true]']) {
    assertError(await hamlet.get('/users', { client_gravatar: value }), 400, 'BAD_REQUEST', 'client_gravatar is not a boolean',
      { var_name: 'client_gravatar' });
  }
  assertError(await hamlet.get(`/users/${server.users.iago.id}`, { include_custom_profile_fields: 'nope' }), 400, 'BAD_REQUEST',
    'include_custom_profile_fields is not a boolean', { var_name: 'include_custom_profile_fields' });
  // Strings containing NUL are refused.
  assertError(await server.as('iago').post('/users', { email: 'nul@zulip.example.com', password: 'secret123', full_name: 'A\u0000B' }),
    400, 'BAD_REQUEST', 'full_name contains NULL (0x00) characters', { var_name: 'full_name' });
});

test('booleans are JSON true/false, with surrounding spaces tolerated', async () => {
  const hamlet = server.as('hamlet');
  for (const [raw, included] of [['true', true], ['false', false], [' false ', false], ['\ttrue\n', true]] as const) {
    for (const encoding of ENCODINGS) {
      const body = assertSuccess(await hamlet.get(`/users/${server.users.iago.id}`, { include_custom_profile_fields: raw }, { encoding }));
      assert.equal('profile_data' in body.user, included, `${JSON.stringify(raw)} ${encoding}`);
    }
  }
});

test('a repeated parameter takes its last value', async () => {
  const hamlet = server.as('hamlet');
  const url = new URL(`/api/v1/users/${server.users.iago.id}?include_custom_profile_fields=true&include_custom_profile_fields=false`, server.url);
  const last = assertSuccess(await send('GET', url, hamlet.headers()));
  assert.equal('profile_data' in last.user, false);
});

test('plain string parameters are taken raw, even when they look like JSON', async () => {
  const iago = server.as('iago');
  const cases = [
    { fullName: '[1, 2]', password: '"quoted password"' },
    { fullName: '42', password: '{"a": 1}' },
    { fullName: 'null', password: 'true and false' },
    { fullName: 'Ophélie 🎭 ünïcode', password: 'pässwörd 🔑' },
  ];
  for (const [i, c] of cases.entries()) {
    for (const encoding of ['urlencoded', 'multipart'] as const) {
      const email = `raw${i}-${encoding}@zulip.example.com`;
      const created = assertSuccess(await iago.post('/users', { email, password: c.password, full_name: c.fullName }, { encoding }));
      const user = assertSuccess(await iago.get(`/users/${created.user_id}`)).user;
      assert.equal(user.full_name, c.fullName);
      const key = assertSuccess(await server.anon(encoding).post('/fetch_api_key', { username: email, password: c.password }));
      assert.equal(key.user_id, created.user_id);
    }
  }
});

test('GET /api/v1/openapi.json lists the routes with their parameters', async () => {
  const doc = assertJson(await server.anon().get('/api/v1/openapi.json'));
  assert.equal(doc.openapi.startsWith('3.'), true);
  const param = (path: string, method: string, name: string) =>
    doc.paths[path]?.[method]?.parameters.find((p: { name: string }) => p.name === name);

  assert.deepEqual(Object.keys(doc.paths['/api/v1/users']).sort(), ['get', 'post']);
  for (const [path, method] of [['/api/v1/users/me', 'get'], ['/api/v1/users', 'get'], ['/api/v1/users/{user_id}', 'get'], ['/api/v1/users', 'post']]) {
    assert.deepEqual(doc.paths[path][method].security, [{ basicAuth: [] }], `${method} ${path}`);
  }
  for (const [path, method] of [['/api/v1/server_settings', 'get'], ['/api/v1/fetch_api_key', 'post'], ['/health', 'get']]) {
    assert.deepEqual(doc.paths[path][method].security, [], `${method} ${path}`);
  }
  assert.deepEqual(param('/api/v1/users/{user_id}', 'get', 'user_id'), {
    name: 'user_id', in: 'path', required: true, schema: { type: 'string' }, description: 'a user id, or an e-mail address',
  });
  assert.deepEqual(param('/api/v1/users', 'get', 'client_gravatar'), {
    name: 'client_gravatar', in: 'query', required: false, schema: { type: 'boolean', default: true },
  });
  for (const name of ['username', 'password']) {
    assert.deepEqual(param('/api/v1/fetch_api_key', 'post', name), { name, in: 'query', required: true, schema: { type: 'string' } });
  }
  for (const name of ['email', 'password', 'full_name']) assert.equal(param('/api/v1/users', 'post', name).required, true);
  assert.deepEqual(doc.paths['/api/v1/users/me'].get.parameters, []);
});

function assertJson(reply: { status: number; body: any; text: string }): any {
  assert.equal(reply.status, 200, reply.text);
  assert.ok(reply.body, reply.text);
  return reply.body;
}
