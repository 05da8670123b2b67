// What a bot may do, and who may hold its secrets: incoming-webhook bots only send messages (refused everywhere
// else by the authentication layer); a bot's API key is seen and replaced only by those who administer it and
// whose role is not below the bot's; role and owner changes follow the reference server's rules.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { allRoutes } from '../src/routes/index.js';
import { fullPath } from '../src/http/route.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { assertError, assertSuccess, assertUnauthorized } from './helpers/assertions.js';
import { Client } from './helpers/client.js';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server?.close());

// A bot created by `owner`, with the client that acts as it.
async function makeBot(owner: 'hamlet' | 'iago' | 'desdemona' | 'cordelia', shortName: string, params: Record<string, unknown> = {}) {
  const res = assertSuccess(await server.as(owner).post('/bots', { full_name: `Bot ${shortName}`, short_name: shortName, ...params }));
  const { bots } = assertSuccess(await server.as(owner).get('/bots'));
  const email = bots.find((b: { api_key: string }) => b.api_key === res.api_key).username as string;
  return { id: res.user_id as number, email, apiKey: res.api_key as string, client: new Client(server.url, { email, apiKey: res.api_key }) };
}

test('an incoming-webhook bot may send messages and nothing else: every other endpoint answers 401', async () => {
  const hook = await makeBot('hamlet', 'hook', { bot_type: 2 });
  const sent = assertSuccess(await hook.client.post('/messages', { type: 'private', to: [server.users.hamlet.id], content: 'from the hook' }));
  assert.ok(sent.id > 0);

  const refused: string[] = [];
  for (const r of allRoutes()) {
    if (r.auth !== 'user' && r.auth !== 'optional') continue; // those take no credentials
    if (r.method === 'POST' && r.path === '/messages') continue;
    const path = fullPath(r).replace(/\{\w+\*?\}/g, '1');
    const reply = await hook.client.request(r.method, path, {}, { root: true });
    if (r.method === 'HEAD' || r.method === 'OPTIONS') {
      if (reply.status !== 401) refused.push(`${r.method} ${path}: ${reply.status}`);
      continue;
    }
    try {
      assertUnauthorized(reply, 'This API is not available to incoming webhook bots.');
    } catch {
      refused.push(`${r.method} ${path}: ${reply.status} ${reply.text.slice(0, 120)}`);
    }
  }
  assert.deepEqual(refused, [], 'endpoints an incoming-webhook bot reached');
  // A generic bot of the same owner is not affected.
  const generic = await makeBot('hamlet', 'plain');
  assertSuccess(await generic.client.get('/users/me'));
});
