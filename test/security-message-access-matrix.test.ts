// The permission matrix's "removed subscriber" column (issue 23): every by-id message endpoint of src/routes and
// every event about an existing message, for members removed from a private channel (shared and protected
// history), a member reading a public channel, a guest, and users who never received the message, each with the
// reference server's outcome. One rule decides them all: a direct message for those who received it; a public
// channel's for anyone who may read public channels; a private channel's for current subscribers, and with
// protected history only those of them who received it. What a user received stays in their own feed, its
// uploads readable, and their own flags on it changeable.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { Client, send, type Reply } from './helpers/client.js';
import { PASSWORD, startTestServer, type TestServer } from './helpers/server.js';
import { eventually } from './helpers/events.js';
import { createChannel, sendToChannel } from './helpers/messages.js';
import { uploaded } from './helpers/uploads.js';
import { allRoutes } from '../src/routes/index.js';

type Kind = 'shared' | 'protected' | 'public';
interface Channel { id: number; name: string; message: number; file: string; watched: number }
interface Column {
  label: string;
  who: () => Client;
  kind: Kind;
  access: boolean; // the by-id rule
  feed: boolean; // in their own feed (GET /messages by id, matches_narrow), flags changeable, upload readable
  subscribed: boolean; // typing notices of edits go to subscribers, as on the reference server
}

let server: TestServer;
const channels = {} as Record<Kind, Channel>;
const users = {} as Record<'removedShared' | 'removedProtected' | 'latecomer' | 'outsider', { id: number; client: Client }>;
const guest = () => server.as('polonius');

async function member(name: string) {
  const email = `${name}-${process.pid}@zulip.example.com`;
  const created = await server.as('iago').post('/users', { email, password: PASSWORD, full_name: name });
  assert.equal(created.status, 200, created.text);
  const key = await server.anon().post('/fetch_api_key', { username: email, password: PASSWORD });
  return { id: created.body.user_id as number, client: new Client(server.url, { email, apiKey: key.body.api_key }) };
}

const subscriptions = (action: 'post' | 'delete', name: string, ids: number[]) =>
  server.as('iago')[action]('/users/me/subscriptions', { subscriptions: action === 'post' ? [{ name }] : [name], principals: ids });

before(async () => {
  server = await startTestServer();
  for (const name of ['removedShared', 'removedProtected', 'latecomer', 'outsider'] as const) users[name] = await member(name);
  const moderation = await createChannel(server, 'iago', ['iago'], { invite_only: true });
  assert.equal((await server.as('iago').patch('/realm', { moderation_request_channel_id: moderation })).status, 200);
  const removed = { shared: users.removedShared, protected: users.removedProtected, public: null };
  for (const kind of ['shared', 'protected', 'public'] as const) {
    const name = `Matrix ${kind} ${process.pid}`;
    const params = kind === 'public' ? {} : { invite_only: true, history_public_to_subscribers: kind === 'shared' };
    const id = await createChannel(server, 'iago', kind === 'public' ? ['hamlet'] : ['iago', 'hamlet'], params, name);
    if (removed[kind]) assert.equal((await subscriptions('post', name, [removed[kind].id])).status, 200);
    const file = await uploaded(server, 'hamlet', `${kind}.txt`, `${kind} file`);
    const message = await sendToChannel(server, 'hamlet', id, 'matrix', `[file](${file})`);
    const watched = await sendToChannel(server, 'hamlet', id, 'watched', 'others act on this one');
    channels[kind] = { id, name, message, file, watched };
    const r = removed[kind];
    if (!r) continue;
    assert.equal((await r.client.post(`/messages/${message}/reactions`, { emoji_name: 'octopus' })).status, 200);
    assert.equal((await subscriptions('delete', name, [r.id])).status, 200);
  }
  assert.equal((await subscriptions('post', channels.protected.name, [users.latecomer.id])).status, 200);
});
after(() => server.close());

const COLUMNS: Column[] = [
  { label: 'removed, shared history', who: () => users.removedShared.client, kind: 'shared', access: false, feed: true, subscribed: false },
  { label: 'removed, protected history', who: () => users.removedProtected.client, kind: 'protected', access: false, feed: true, subscribed: false },
  { label: 'member, public channel', who: () => users.outsider.client, kind: 'public', access: true, feed: false, subscribed: false },
  { label: 'guest, public channel', who: guest, kind: 'public', access: false, feed: false, subscribed: false },
  { label: 'subscribed after it, protected history', who: () => users.latecomer.client, kind: 'protected', access: false, feed: false, subscribed: true },
  { label: 'never subscribed, private channel', who: () => users.outsider.client, kind: 'shared', access: false, feed: false, subscribed: false },
];

const INVALID: [number, string] = [400, 'Invalid message(s)'];
type Expected = [number, string?];
const soon = () => Math.floor(Date.now() / 1000) + 3600;

// In order: reads of the feed first, as reacting and starring give a row (and a place in the feed).
const ROWS: { key: string; route?: string; call: (c: Client, id: number, ch: Channel) => Promise<Reply>; expect: (col: Column) => Expected; check?: (r: Reply, col: Column, ch: Channel) => void }[] = [
  {
    key: 'GET /messages (message_ids)', route: 'GET /messages', call: (c, id) => c.get('/messages', { message_ids: [id] }), expect: () => [200],
    check: (r, col, ch) => assert.deepEqual(r.body.messages.map((m: { id: number }) => m.id), col.feed ? [ch.message] : []),
  },
  {
    key: 'GET /messages/matches_narrow', call: (c, id) => c.get('/messages/matches_narrow', { msg_ids: [id], narrow: [] }), expect: () => [200],
    check: (r, col, ch) => assert.deepEqual(Object.keys(r.body.messages), col.feed ? [String(ch.message)] : []),
  },
  {
    key: 'GET /user_uploads/{path}', call: (c, _id, ch) => send('GET', new URL(ch.file, server.url), c.headers()),
    expect: (col) => (col.feed || col.access ? [200] : [404, 'This file does not exist or has been deleted.']),
  },
  { key: 'GET /messages/{message_id}', call: (c, id) => c.get(`/messages/${id}`), expect: (col) => (col.access ? [200] : INVALID) },
  { key: 'GET /messages/{message_id}/history', call: (c, id) => c.get(`/messages/${id}/history`), expect: (col) => (col.access ? [200] : INVALID) },
  {
    key: 'PATCH /messages/{message_id}', call: (c, id) => c.patch(`/messages/${id}`, { content: 'hijacked' }),
    expect: (col) => (col.access ? [400, "You don't have permission to edit this message"] : INVALID),
  },
  {
    key: 'POST /messages/{message_id}/typing', call: (c, id) => c.post(`/messages/${id}/typing`, { op: 'start' }),
    expect: (col) => (col.access ? [400, "You don't have permission to edit this message"] : INVALID),
  },
  {
    key: 'DELETE /messages/{message_id}', call: (c, id) => c.delete(`/messages/${id}`),
    expect: (col) => (col.access ? [400, "You don't have permission to delete this message"] : INVALID),
  },
  { key: 'POST /messages/{message_id}/report', call: (c, id) => c.post(`/messages/${id}/report`, { report_type: 'spam' }), expect: (col) => (col.access ? [200] : INVALID) },
  { key: 'POST /reminders', call: (c, id) => c.post('/reminders', { message_id: id, scheduled_delivery_timestamp: soon() }), expect: (col) => (col.access ? [200] : INVALID) },
  { key: 'POST /messages/{message_id}/reactions', call: (c, id) => c.post(`/messages/${id}/reactions`, { emoji_name: 'octopus' }), expect: (col) => (col.access ? [200] : INVALID) },
  // The removed users reacted while subscribed; the public channel's reader just did.
  { key: 'DELETE /messages/{message_id}/reactions', call: (c, id) => c.delete(`/messages/${id}/reactions`, { emoji_name: 'octopus' }), expect: (col) => (col.access ? [200] : INVALID) },
  {
    key: 'POST /messages/flags', call: (c, id) => c.post('/messages/flags', { messages: [id], op: 'add', flag: 'starred' }),
    expect: (col) => (col.feed || col.access ? [200] : INVALID),
  },
];

// Every route that names a message (in its path or its parameters) has a row.
test('the rows cover every route of src/routes that names a message', () => {
  const naming = allRoutes()
    .filter((r) => r.path.includes('{message_id}') || Object.keys(r.params).some((p) => ['message_id', 'message_ids', 'msg_ids', 'messages'].includes(p)))
    .map((r) => `${r.method} ${r.path}`);
  const covered = new Set(ROWS.map((row) => row.route ?? row.key));
  assert.deepEqual(naming.filter((key) => !covered.has(key)), []);
});

for (const row of ROWS) {
  test(`by id: ${row.key}`, async () => {
    const failures: string[] = [];
    for (const col of COLUMNS) {
      const ch = channels[col.kind];
      const reply = await row.call(col.who(), ch.message, ch);
      const [status, msg] = row.expect(col);
      if (reply.status !== status || (msg !== undefined && reply.body?.msg !== msg)) {
        failures.push(`${col.label}: expected ${status} ${msg ?? ''}, got ${reply.status} ${reply.text.slice(0, 160)}`);
        continue;
      }
      try {
        row.check?.(reply, col, ch);
      } catch (err) {
        failures.push(`${col.label}: ${(err as Error).message}`);
      }
    }
    assert.deepEqual(failures, []);
  });
}

// A queue per column (and hamlet, as a control), and what each heard about `watched` of its channel.
async function openQueue(c: Client) {
  const res = await c.post('/register', { fetch_event_types: [] });
  assert.equal(res.status, 200, res.text);
  return { id: res.body.queue_id as string, events: [] as Record<string, any>[] };
}
async function drain(c: Client, q: { id: string; events: Record<string, any>[] }) {
  const res = await c.get('/events', { queue_id: q.id, last_event_id: -1, dont_block: true });
  assert.equal(res.status, 200, res.text);
  q.events = res.body.events;
}
const heard = (events: Record<string, any>[], id: number) => events
  .filter((e) => e.message_id === id || e.message_ids?.includes(id))
  .map((e) => `${e.type}${e.op ? `:${e.op}` : ''}`);

test('events about a message reach only those who may access it', async () => {
  const queues = await Promise.all(COLUMNS.map((col) => openQueue(col.who())));
  const control = await openQueue(server.as('hamlet'));
  // A reader of a public channel hears of a message once they hold a row for it (here by starring it).
  const star = await users.outsider.client.post('/messages/flags', { messages: [channels.public.watched], op: 'add', flag: 'starred' });
  assert.equal(star.status, 200, star.text);
  for (const kind of ['shared', 'protected', 'public'] as const) {
    const id = channels[kind].watched;
    const ok = (r: Reply) => assert.equal(r.status, 200, r.text);
    ok(await server.as('iago').post(`/messages/${id}/reactions`, { emoji_name: 'heart' }));
    ok(await server.as('iago').delete(`/messages/${id}/reactions`, { emoji_name: 'heart' }));
    ok(await server.as('hamlet').patch(`/messages/${id}`, { content: 'edited' }));
    ok(await server.as('hamlet').post(`/messages/${id}/typing`, { op: 'start' }));
    ok(await server.as('iago').patch(`/messages/${id}`, { topic: 'moved' }));
    ok(await server.as('iago').delete(`/messages/${id}`));
  }
  const all = ['reaction:add', 'reaction:remove', 'update_message', 'typing_edit_message:start', 'update_message', 'delete_message'];
  await eventually(async () => {
    await drain(server.as('hamlet'), control);
    return heard(control.events, channels.public.watched).includes('delete_message') ? true : undefined;
  });
  for (const kind of ['shared', 'protected', 'public'] as const) assert.deepEqual(heard(control.events, channels[kind].watched), all, `hamlet, ${kind}`);
  const failures: string[] = [];
  for (const [i, col] of COLUMNS.entries()) {
    await drain(col.who(), queues[i]);
    const got = heard(queues[i].events, channels[col.kind].watched);
    const expected = all.filter((e) => (e.startsWith('typing') ? col.subscribed : col.access));
    if (JSON.stringify(got) !== JSON.stringify(expected)) failures.push(`${col.label}: expected ${expected.join(' ')}, got ${got.join(' ')}`);
  }
  assert.deepEqual(failures, []);
});
