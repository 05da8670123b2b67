// Incoming-webhook tests: a webhook bot, posting a fixture as its tool would, and the message it made.
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, type TestServer } from './server.js';
import { assertSuccess } from './assertions.js';
import { send, type Reply } from './client.js';
import { fetchMessages } from './messages.js';

export const fixture = (integration: string, name: string) => fs.readFileSync(path.join(ROOT, 'test/fixtures/webhooks', integration, `${name}.json`), 'utf8');

export interface HookBot {
  id: number;
  email: string;
  apiKey: string;
}

export async function makeHookBot(server: TestServer, shortName: string, owner: 'hamlet' | 'iago' = 'hamlet'): Promise<HookBot> {
  const res = assertSuccess(await server.as(owner).post('/bots', { full_name: `Hook ${shortName}`, short_name: shortName, bot_type: 2 }));
  const { bots } = assertSuccess(await server.as(owner).get('/bots'));
  const email = bots.find((b: { api_key: string }) => b.api_key === res.api_key).username as string;
  return { id: res.user_id, email, apiKey: res.api_key };
}

export function postHook(server: TestServer, integration: string, query: Record<string, string>, body: string, headers: Record<string, string> = {}): Promise<Reply> {
  const url = new URL(`/api/v1/external/${integration}`, server.url);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  return send('POST', url, { 'content-type': 'application/json', ...headers }, body);
}

// The newest message in the channel, as hamlet (subscribed) reads it.
export async function lastInChannel(server: TestServer, channel: string): Promise<{ id: number; topic: string; content: string; sender_id: number; client: string }> {
  const { messages } = await fetchMessages(server, 'hamlet', { anchor: 'newest', num_before: 1, num_after: 0, apply_markdown: false, narrow: [{ operator: 'channel', operand: channel }] });
  const m = messages[messages.length - 1];
  return { id: m.id, topic: m.subject, content: m.content, sender_id: m.sender_id, client: m.client };
}

export async function lastDm(server: TestServer, who: 'hamlet' | 'iago'): Promise<{ id: number; content: string; sender_email: string; sender_id: number }> {
  const { messages } = await fetchMessages(server, who, { anchor: 'newest', num_before: 1, num_after: 0, apply_markdown: false, narrow: [{ operator: 'is', operand: 'dm' }] });
  return messages[messages.length - 1];
}

// Posts a payload and returns the messages it made in the channel, oldest first.
export async function postsFrom(server: TestServer, integration: string, query: Record<string, string>, body: string, headers: Record<string, string> = {}) {
  const channel = query.stream;
  const before = await lastInChannel(server, channel).catch(() => undefined);
  const reply = await postHook(server, integration, query, body, headers);
  const { messages } = await fetchMessages(server, 'hamlet', {
    anchor: before ? before.id : 'oldest', include_anchor: false, num_before: 0, num_after: 20, apply_markdown: false,
    narrow: [{ operator: 'channel', operand: channel }],
  });
  return { reply, posts: (messages as { subject: string; content: string }[]).map((m) => ({ topic: m.subject, content: m.content })) };
}
