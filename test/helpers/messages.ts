// Small steps the message tests share: creating channels, sending, fetching, and changing stored settings the
// API cannot change yet.
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config.js';
import { openApp } from '../../src/server.js';
import type { App } from '../../src/app.js';
import type { Listeners } from './events.js';
import type { SeedName, TestServer } from './server.js';

let counter = 0;
export const unique = (base: string) => `${base} ${process.pid}-${++counter}`;

// Creates a channel as `creator` with `subscribers` (the creator is not subscribed unless listed) and returns
// its id. `params` are creation parameters of POST /users/me/subscriptions.
export async function createChannel(server: TestServer, creator: SeedName, subscribers: SeedName[], params: Record<string, unknown> = {}, name = unique('Channel')): Promise<number> {
  const res = await server.as(creator).post('/users/me/subscriptions', {
    subscriptions: [{ name }],
    principals: subscribers.map((s) => server.users[s].id),
    ...params,
  });
  assert.equal(res.status, 200, res.text);
  const id = await server.as('desdemona').get('/get_stream_id', { stream: name });
  assert.equal(id.status, 200, id.text);
  return id.body.stream_id;
}

// `by` must be able to add subscribers: for a private channel, one of its subscribers.
export async function subscribe(server: TestServer, who: SeedName[], channelName: string, by: SeedName = 'iago'): Promise<void> {
  const res = await server.as(by).post('/users/me/subscriptions', { subscriptions: [{ name: channelName }], principals: who.map((s) => server.users[s].id) });
  assert.equal(res.status, 200, res.text);
}

export async function channelName(server: TestServer, id: number): Promise<string> {
  const res = await server.as('desdemona').get(`/streams/${id}`);
  assert.equal(res.status, 200, res.text);
  return res.body.stream.name;
}

export async function sendToChannel(server: TestServer, who: SeedName, channel: number | string, topic: string, content: string, extra: Record<string, unknown> = {}): Promise<number> {
  const res = await server.as(who).post('/messages', { type: 'stream', to: channel, topic, content, ...extra });
  assert.equal(res.status, 200, res.text);
  return res.body.id;
}

export async function sendDm(server: TestServer, who: SeedName, to: SeedName[], content: string, extra: Record<string, unknown> = {}): Promise<number> {
  const res = await server.as(who).post('/messages', { type: 'direct', to: to.map((n) => server.users[n].id), content, ...extra });
  assert.equal(res.status, 200, res.text);
  return res.body.id;
}

export async function fetchMessages(server: TestServer, who: SeedName, params: Record<string, unknown>): Promise<Record<string, any>> {
  const res = await server.as(who).get('/messages', { anchor: 'newest', num_before: 100, num_after: 0, ...params });
  assert.equal(res.status, 200, res.text);
  return res.body;
}

export const ids = (body: Record<string, any>) => (body.messages as { id: number }[]).map((m) => m.id);

export async function messageFlags(server: TestServer, who: SeedName, id: number): Promise<string[]> {
  const res = await server.as(who).get(`/messages/${id}`);
  assert.equal(res.status, 200, res.text);
  return res.body.message.flags;
}

export function assertError(res: { status: number; body: any; text: string }, msg: string, code = 'BAD_REQUEST', extra: Record<string, unknown> = {}): void {
  assert.equal(res.status, 400, res.text);
  assert.equal(res.body.result, 'error');
  assert.equal(res.body.msg, msg);
  assert.equal(res.body.code, code);
  for (const [k, v] of Object.entries(extra)) assert.deepEqual(res.body[k], v, k);
}

// Opens the test server's database from the test process (the server re-reads organizations per request).
export async function withApp<T>(server: TestServer, fn: (app: App) => Promise<T>): Promise<T> {
  const config = loadConfig({}, { ...server.childEnv, PARLANCE_PORT: '0' });
  const { app, database } = await openApp({ ...config, logLevel: 'silent' });
  try {
    return await fn(app);
  } finally {
    app.limiter.close();
    await database.close();
  }
}

// Events reach queues shortly after the commit, not before the reply. One event reaches every queue at once, so
// once `who` has it, every other queue that should have it has it too.
export async function takeUntil(l: Listeners, who: SeedName, type: string, found: (e: Record<string, any>) => boolean = () => true, timeoutMs = 5000) {
  const events: Record<string, any>[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    events.push(...(await l.take(who, type)));
    if (events.some(found) || Date.now() > deadline) return events;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
