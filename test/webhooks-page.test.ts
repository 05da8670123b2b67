// The administrators' integrations page (GET /integrations/): a server page for a browser session, with the
// strict CSP, listing each integration's URL for a chosen bot and channel; refused to others.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { send } from './helpers/client.js';
import { createChannel } from './helpers/messages.js';
import { makeHookBot, postHook, type HookBot } from './helpers/webhooks.js';

let server: TestServer;
let bot: HookBot;
before(async () => {
  server = await startTestServer();
  bot = await makeHookBot(server, 'paged', 'iago');
  await createChannel(server, 'iago', ['iago', 'hamlet'], {}, 'deploys');
});
after(() => server?.close());

const at = (p: string) => new URL(p, server.url);

async function sessionCookie(who: 'iago' | 'hamlet'): Promise<string> {
  const { email, password } = server.users[who];
  const res = await send('POST', at('/accounts/login/'), { 'content-type': 'application/x-www-form-urlencoded' }, new URLSearchParams({ username: email, password }).toString());
  assert.equal(res.status, 302, res.text);
  const cookies = ([] as string[]).concat(res.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]);
  return cookies.join('; ');
}

test('an administrator picks a bot and a channel; the page shows each integration\'s URL, which works as shown', async () => {
  const cookie = await sessionCookie('iago');
  const empty = await send('GET', at('/integrations/'), { cookie });
  assert.equal(empty.status, 200, empty.text);
  assert.match(String(empty.headers['content-security-policy']), /default-src 'none'/);
  assert.doesNotMatch(empty.text, /<script/);
  assert.match(empty.text, /<form method="get" action="\/integrations\/">/);
  assert.match(empty.text, new RegExp(`<option value="${bot.id}">Hook paged</option>`));

  const res = await send('GET', at(`/integrations/?bot=${bot.id}&stream=deploys`), { cookie });
  assert.equal(res.status, 200, res.text);
  for (const name of ['github', 'gitlab', 'alertmanager', 'grafana', 'sentry', 'jira', 'slack_incoming']) {
    assert.match(res.text, new RegExp(`/api/v1/external/${name}\\?api_key=${bot.apiKey}&amp;stream=deploys`), name);
  }
  const url = /<code>([^<]*\/external\/slack_incoming[^<]*)<\/code>/.exec(res.text)![1].replace(/&amp;/g, '&');
  const parsed = new URL(url);
  const reply = await postHook(server, 'slack_incoming', Object.fromEntries(parsed.searchParams), JSON.stringify({ text: 'pasted' }));
  assert.equal(reply.status, 200, reply.text);
});

test('a member gets a clear refusal; without a session, the login page', async () => {
  const res = await send('GET', at('/integrations/'), { cookie: await sessionCookie('hamlet') });
  assert.equal(res.status, 403);
  assert.match(res.text, /Only organization administrators can see the integrations page\./);
  const anonymous = await send('GET', at('/integrations/'), {});
  assert.equal(anonymous.status, 302);
  assert.equal(anonymous.headers.location, '/login/?next=/integrations/');
});
