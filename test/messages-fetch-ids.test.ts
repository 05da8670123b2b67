// Issue 23 (conformance): GET /messages with `message_ids` (feature level 300) returns exactly the listed
// messages the caller's feed holds, narrow applied; it excludes the anchor parameters. Without it, num_before and
// num_after are required, as the reference server declares them.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { startTestServer, type TestServer } from './helpers/server.js';
import { assertError, createChannel, ids, sendDm, sendToChannel } from './helpers/messages.js';

const zulipInit: (config: Record<string, string>) => Promise<any> = createRequire(import.meta.url)('zulip-js');

let server: TestServer;
let lane: number; // public, hamlet and cordelia
let quiet: number; // public, hamlet only
let vault: number; // private, iago only
const m: Record<string, number> = {};
before(async () => {
  server = await startTestServer();
  lane = await createChannel(server, 'iago', ['hamlet', 'cordelia']);
  quiet = await createChannel(server, 'iago', ['hamlet']);
  vault = await createChannel(server, 'iago', ['iago'], { invite_only: true });
  m.lane = await sendToChannel(server, 'hamlet', lane, 'road', 'on the lane');
  m.quiet = await sendToChannel(server, 'hamlet', quiet, 'hush', 'not sent to cordelia');
  m.vault = await sendToChannel(server, 'iago', vault, 'locked', 'secret');
  m.dm = await sendDm(server, 'hamlet', ['cordelia'], 'to cordelia');
  m.otherDm = await sendDm(server, 'hamlet', ['iago'], 'to iago');
});
after(() => server.close());

const byIds = (message_ids: unknown, extra: Record<string, unknown> = {}) => server.as('cordelia').get('/messages', { message_ids, ...extra });

test('message_ids: exactly the listed messages of the caller, in id order, without anchor fields', async () => {
  const res = await byIds([m.otherDm, m.dm, m.vault, m.quiet, m.lane, m.lane, 999_999_999]);
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(ids(res.body), [m.lane, m.dm]);
  assert.deepEqual(
    [res.body.found_anchor, res.body.found_oldest, res.body.found_newest, res.body.history_limited, 'anchor' in res.body],
    [false, false, false, false, false],
  );
  assert.deepEqual(res.body.messages.map((x: { flags: string[] }) => x.flags.includes('read')), [false, false]);
  assert.deepEqual(ids((await byIds([])).body), []);
});

test('message_ids with a narrow: the narrow applies, and a channel narrow reaches its history', async () => {
  assert.deepEqual(ids((await byIds([m.lane, m.dm], { narrow: [['is', 'dm']] })).body), [m.dm]);
  assert.deepEqual(ids((await byIds([m.lane, m.quiet], { narrow: [['channel', quiet]] })).body), [m.quiet]);
  assert.deepEqual(ids((await byIds([m.lane, m.dm], { narrow: [['search', 'lane']] })).body), [m.lane]);
  assertError(await byIds([m.vault], { narrow: [['channel', vault]] }), `Invalid narrow operator: unknown channel ${vault}`, 'BAD_NARROW');
});

test('message_ids refuses the anchor parameters, and more than 5000 ids', async () => {
  const combination = 'Unsupported parameter combination: num_before, num_after, anchor, message_ids, include_anchor, use_first_unread_anchor';
  const parameters = 'num_before, num_after, anchor, message_ids, include_anchor, use_first_unread_anchor';
  assertError(await byIds([m.dm], { anchor: 'newest' }), combination, 'BAD_REQUEST', { parameters });
  assertError(await byIds([m.dm], { num_before: 5 }), combination, 'BAD_REQUEST', { parameters });
  assertError(await byIds([m.dm], { num_after: 5 }), combination, 'BAD_REQUEST', { parameters });
  assertError(await byIds([m.dm], { use_first_unread_anchor: true }), combination, 'BAD_REQUEST', { parameters });
  const many = Array.from({ length: 5001 }, (_, i) => i + 1);
  // That many ids do not fit in a query string: they come in the body, as parameters of any method may.
  const tooMany = await server.as('cordelia').get('/messages', { message_ids: many }, { encoding: 'urlencoded' });
  assertError(tooMany, 'Too many messages requested (maximum 5000).');
  assert.equal((await byIds([-1])).status, 400);
});

test('without message_ids, num_before and num_after are required', async () => {
  const c = server.as('cordelia');
  assertError(await c.get('/messages', { anchor: 'newest', num_after: 0 }), "Missing 'num_before' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'num_before' });
  assertError(await c.get('/messages', { anchor: 'newest', num_before: 5 }), "Missing 'num_after' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'num_after' });
  assertError(await c.get('/messages', {}), "Missing 'num_before' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'num_before' });
  const ok = await c.get('/messages', { anchor: 'newest', num_before: 5, num_after: 0 });
  assert.equal(ok.status, 200, ok.text);
  assert.deepEqual(ids(ok.body), [m.lane, m.dm]);
});

test('the JavaScript client reads windows and lists of ids', async () => {
  const { email, apiKey } = server.users.cordelia;
  const client = await zulipInit({ realm: server.url, username: email, apiKey });
  const window = await client.messages.retrieve({ anchor: 'newest', num_before: 10, num_after: 0, narrow: [{ operator: 'channel', operand: lane }] });
  assert.equal(window.result, 'success', JSON.stringify(window));
  assert.deepEqual(ids(window), [m.lane]);
  const listed = await client.messages.retrieve({ message_ids: [m.dm, m.lane] });
  assert.equal(listed.result, 'success', JSON.stringify(listed));
  assert.deepEqual(ids(listed), [m.lane, m.dm]);
});
