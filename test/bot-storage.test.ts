// Bot storage (GET, PUT, DELETE /bot_storage), as the reference server has it: string values under string keys,
// per user, with the reference's errors and size limit; and the exact requests of the reference's bot library
// (python-zulip-api: zulip.Client.update_storage/get_storage as zulip_bots' StateHandler calls them, replayed
// for the incrementor and incident bots), whose state outlives restarts of the server.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { assertError, assertSuccess } from './helpers/assertions.js';
import { send, type Reply } from './helpers/client.js';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server?.close());

const LIMIT = 10_000_000; // the reference's USER_STATE_SIZE_LIMIT, in characters

test('PUT stores strings under keys, GET reads some or all, DELETE removes some or all', async () => {
  const bot = server.as('bot');
  assert.deepEqual(assertSuccess(await bot.get('/bot_storage')).storage, {});
  assertSuccess(await bot.request('PUT', '/bot_storage', { storage: { a: '1', b: 'two', '': 'empty key', __proto__x: 'y' } }));
  assertSuccess(await bot.request('PUT', '/bot_storage', { storage: JSON.parse('{"__proto__": "not a prototype"}') }));
  assert.deepEqual(assertSuccess(await bot.get('/bot_storage')).storage, JSON.parse('{"": "empty key", "__proto__": "not a prototype", "__proto__x": "y", "a": "1", "b": "two"}'));
  assert.deepEqual(assertSuccess(await bot.get('/bot_storage', { keys: ['b', '__proto__'] })).storage, JSON.parse('{"b": "two", "__proto__": "not a prototype"}'));
  assert.deepEqual(assertSuccess(await bot.get('/bot_storage', { keys: [] })).storage, {});
  assertError(await bot.get('/bot_storage', { keys: ['a', 'missing'] }), 400, 'BAD_REQUEST', 'Key does not exist.');

  assertSuccess(await bot.request('PUT', '/bot_storage', { storage: { a: 'changed' } }));
  assert.deepEqual(assertSuccess(await bot.get('/bot_storage', { keys: ['a'] })).storage, { a: 'changed' });
  assertSuccess(await bot.delete('/bot_storage', { keys: ['a', '__proto__'] }));
  assertError(await bot.delete('/bot_storage', { keys: ['b', 'a'] }), 400, 'BAD_REQUEST', 'Key does not exist.');
  assert.deepEqual(Object.keys(assertSuccess(await bot.get('/bot_storage')).storage).sort(), ['', '__proto__x', 'b'], 'a refused DELETE removes nothing');

  // Each user has a storage of their own (the reference does not keep it to bots).
  assertSuccess(await server.as('hamlet').request('PUT', '/bot_storage', { storage: { b: 'hamlet' } }));
  assert.deepEqual(assertSuccess(await server.as('hamlet').get('/bot_storage')).storage, { b: 'hamlet' });
  assert.deepEqual(assertSuccess(await bot.get('/bot_storage', { keys: ['b'] })).storage, { b: 'two' });
  assertSuccess(await server.as('hamlet').delete('/bot_storage'));

  // A key longer than an index entry may be is stored all the same.
  const long = 'k'.repeat(4000); // PostgreSQL's b-tree entries hold about 2,700 bytes
  assertSuccess(await bot.request('PUT', '/bot_storage', { storage: { [long]: 'v' } }));
  assert.deepEqual(assertSuccess(await bot.get('/bot_storage', { keys: [long] })).storage, { [long]: 'v' });

  assertSuccess(await bot.delete('/bot_storage'));
  assert.deepEqual(assertSuccess(await bot.get('/bot_storage')).storage, {});
  assertSuccess(await bot.delete('/bot_storage')); // nothing to remove is no error
});

test('bad storage and keys are refused with 400', async () => {
  const bot = server.as('bot');
  for (const storage of ['[1]', '"text"', '{"a": 1}', '{"a": null}', '{"a": ["x"]}', 'not json']) {
    const reply = await bot.request('PUT', '/bot_storage', { storage });
    assert.equal(reply.status, 400, `${storage}: ${reply.text}`);
    assert.equal(reply.body.result, 'error');
  }
  assertError(await bot.request('PUT', '/bot_storage', {}), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'storage' argument");
  for (const keys of ['"a"', '[1]', '{"a": "b"}']) {
    assert.equal((await bot.get('/bot_storage', { keys })).status, 400, keys);
    assert.equal((await bot.delete('/bot_storage', { keys })).status, 400, keys);
  }
  assert.deepEqual(assertSuccess(await bot.get('/bot_storage')).storage, {});
});

test('the size limit counts characters of keys and values, as the reference does', async () => {
  const cordelia = server.as('cordelia');
  // Exactly at the limit, counting "é" and "😀" as one character each.
  assertSuccess(await cordelia.request('PUT', '/bot_storage', { storage: { big: 'x'.repeat(LIMIT - 3 - 2) } }));
  assertSuccess(await cordelia.request('PUT', '/bot_storage', { storage: { é: '😀' } }));
  assertError(await cordelia.request('PUT', '/bot_storage', { storage: { c: 'd', e: 'f' } }), 400, 'BAD_REQUEST',
    `Request exceeds storage limit by 4 characters. The limit is ${LIMIT} characters.`);
  // Replacing a value counts the difference only.
  assertSuccess(await cordelia.request('PUT', '/bot_storage', { storage: { é: 'b' } }));
  assertError(await cordelia.request('PUT', '/bot_storage', { storage: { é: 'bc' } }), 400, 'BAD_REQUEST',
    `Request exceeds storage limit by 1 characters. The limit is ${LIMIT} characters.`);
  assert.deepEqual(assertSuccess(await cordelia.get('/bot_storage', { keys: ['é'] })).storage, { é: 'b' });
  assertSuccess(await cordelia.delete('/bot_storage', { keys: ['big'] }));
  assertSuccess(await cordelia.request('PUT', '/bot_storage', { storage: { c: 'd', e: 'f' } }));
  assertSuccess(await cordelia.delete('/bot_storage'));
});

test('a storage body larger than other routes take is read only for a caller who authenticates', async () => {
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const body = `storage=${encodeURIComponent(JSON.stringify({ big: 'x'.repeat(3 * 1024 * 1024) }))}`;
  const bot = server.as('bot');
  const wrongKey = `Basic ${Buffer.from(`${server.users.bot.email}:${'x'.repeat(32)}`).toString('base64')}`;
  assertError(await send('PUT', new URL('/api/v1/bot_storage', server.url), { ...form, authorization: wrongKey }, body), 401, 'UNAUTHORIZED', 'Invalid API key');
  assertError(await send('PUT', new URL('/api/v1/bot_storage', server.url), form, body), 401, 'UNAUTHORIZED', 'Not logged in: API authentication or user session required');
  // Not parsed at all: malformed JSON is not what a stranger learns about.
  const malformed = `{"storage": "${'x'.repeat(3 * 1024 * 1024)}`;
  assertError(await send('PUT', new URL('/api/v1/bot_storage', server.url), { 'content-type': 'application/json', authorization: wrongKey }, malformed), 401, 'UNAUTHORIZED', 'Invalid API key');
  assertSuccess(await send('PUT', new URL('/api/v1/bot_storage', server.url), { ...form, ...bot.headers() }, body));
  // Elsewhere a text body of that size is refused unread.
  assertError(await send('POST', new URL('/api/v1/messages/render', server.url), { ...form, ...bot.headers() }, `content=${'x'.repeat(3 * 1024 * 1024)}`), 413, 'BAD_REQUEST', 'Request body is too large');
  assertSuccess(await bot.delete('/bot_storage'));
});

// python-zulip-api's zulip.Client: form-encoded bodies (GET: query string) whose non-string values are
// json.dumps'ed, keys and values escaped as urllib's quote_plus does.
const quotePlus = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).replace(/%20/g, '+');
// json.dumps with its default separators (", " and ": "); the values here hold no characters it would escape.
const dumps = (v: unknown): string =>
  Array.isArray(v) ? `[${v.map(dumps).join(', ')}]`
  : v !== null && typeof v === 'object' ? `{${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}: ${dumps(x)}`).join(', ')}}`
  : JSON.stringify(v);

class PythonBotClient {
  constructor(private email: string, private apiKey: string) {}

  callEndpoint(url: string, method: string, request: Record<string, unknown> = {}): Promise<Reply> {
    const encoded = Object.entries(request).filter(([, v]) => v !== null && v !== undefined)
      .map(([k, v]) => `${quotePlus(k)}=${quotePlus(typeof v === 'string' ? v : dumps(v))}`).join('&');
    const target = new URL(`/api/v1/${url}`, server.url);
    const headers: Record<string, string> = {
      authorization: 'Basic ' + Buffer.from(`${this.email}:${this.apiKey}`).toString('base64'),
      'user-agent': 'ZulipIncrementorBot (Linux; 6.1)',
    };
    if (method === 'GET') {
      if (encoded) target.search = encoded;
      return send(method, target, headers);
    }
    headers['content-type'] = 'application/x-www-form-urlencoded';
    return send(method, target, headers, encoded);
  }

  updateStorage = (request: Record<string, unknown>) => this.callEndpoint('bot_storage', 'PUT', request);
  getStorage = (request?: Record<string, unknown>) => this.callEndpoint('bot_storage', 'GET', request);
}

// zulip_bots' StateHandler: values json.dumps'ed; put writes through, get reads the server once per key.
class StateHandler {
  private state = new Map<string, string>();
  requests: string[] = [];
  constructor(private client: PythonBotClient) {}

  async put(key: string, value: unknown): Promise<void> {
    this.state.set(key, dumps(value));
    const res = await this.client.updateStorage({ storage: { [key]: this.state.get(key) } });
    this.requests.push(`PUT ${key}`);
    if (res.body?.result !== 'success') throw new Error(`Error updating state: ${res.text}`);
  }

  async get(key: string): Promise<unknown> {
    if (!this.state.has(key)) {
      const res = await this.client.getStorage({ keys: [key] });
      this.requests.push(`GET ${key}`);
      if (res.body?.result !== 'success') throw new KeyError(key);
      this.state.set(key, res.body.storage[key]);
    }
    return JSON.parse(this.state.get(key)!);
  }

  contains(key: string): boolean {
    return this.state.has(key);
  }
}
class KeyError extends Error {}

test('the reference bot library keeps its state across restarts of the server', async () => {
  const { email, apiKey } = server.users.bot;
  const client = new PythonBotClient(email, apiKey);
  const hamlet = server.users.hamlet;
  const sendReply = async (content: string) => {
    const res = await client.callEndpoint('messages', 'POST', { type: 'private', to: [hamlet.email], content });
    return assertSuccess(res).id as number;
  };

  // incrementor: initialize puts number and message_id; each mention increments number and edits one message.
  const incrementor = new StateHandler(client);
  if (!incrementor.contains('number') || !incrementor.contains('message_id')) {
    await incrementor.put('number', 0);
    await incrementor.put('message_id', null);
  }
  const mention = async () => {
    // use_storage(storage, ["number"]): read once, written back when the handler is done.
    const num = Number(await incrementor.get('number')) + 1;
    const messageId = (await incrementor.get('message_id')) as number | null;
    if (messageId !== null) {
      assertSuccess(await client.callEndpoint(`messages/${messageId}`, 'PATCH', { message_id: messageId, content: String(num) }));
      await incrementor.put('number', num);
    } else {
      const id = await sendReply(String(num));
      await incrementor.put('message_id', id);
      await incrementor.put('number', num);
    }
  };
  await mention();
  await mention();

  // incident: a ticket number kept under "ticket_id", read from the server the first time.
  const ticket = async (storage: StateHandler) => {
    let n: number;
    try {
      n = (await storage.get('ticket_id')) as number;
    } catch (err) {
      if (!(err instanceof KeyError)) throw err;
      n = 0;
    }
    await storage.put('ticket_id', (n + 1) % 1000);
    return `TICKET${String((n + 1) % 1000).padStart(4, '0')}`;
  };
  const incident = new StateHandler(client);
  assert.equal(await ticket(incident), 'TICKET0001');
  assert.deepEqual(incident.requests, ['GET ticket_id', 'PUT ticket_id'], 'the first ticket reads the server, which has none');

  await server.restart();
  // The running incrementor carries on from its cache, writing through to the server.
  await mention();
  await server.restart('SIGKILL');

  // A bot process started afresh reads what the earlier one stored.
  const stored = assertSuccess(await client.getStorage()).storage;
  const messageId = JSON.parse(stored.message_id);
  assert.deepEqual(stored, { number: '3', message_id: String(messageId), ticket_id: '1' });
  const fresh = new StateHandler(client);
  assert.equal(await ticket(fresh), 'TICKET0002');
  assert.equal(await fresh.get('number'), 3);
  assert.equal(await fresh.get('message_id'), messageId);
  assert.deepEqual(fresh.requests, ['GET ticket_id', 'PUT ticket_id', 'GET number', 'GET message_id']);
  const message = assertSuccess(await server.as('hamlet').get(`/messages/${messageId}`));
  assert.equal(message.raw_content, '3', 'the incrementor edited its one message');
});
