// Slack-compatible incoming webhooks: text, blocks and attachments, as JSON or as Slack's form-encoded payload=.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { createChannel } from './helpers/messages.js';
import { fixture, makeHookBot, postsFrom, type HookBot } from './helpers/webhooks.js';

let server: TestServer;
let bot: HookBot;
const stream = 'slack';
before(async () => {
  server = await startTestServer();
  bot = await makeHookBot(server, 'slack');
  await createChannel(server, 'hamlet', ['hamlet'], {}, stream);
});
after(() => server?.close());

test('blocks and attachments become Markdown; the payload\'s channel is the topic; Slack links and emphasis are rewritten', async () => {
  const { reply, posts } = await postsFrom(server, 'slack_incoming', { api_key: bot.apiKey, stream }, fixture('slack_incoming', 'blocks'));
  assert.equal(reply.status, 200, reply.text);
  assert.deepEqual(posts, [{
    topic: 'alerts',
    content: '## Deploy finished\n\n**web-1** is [live](https://example.com/deploys/7) *now*\n\n----\n\n| | |\n|-|-|\n| Env | production |\n| By |  |\n\n## [Changelog](https://example.com/changelog)\n\nTwo fixes\n\n**Duration**: 42 s\n\ndeploy-bot',
  }]);
});

test('form-encoded payload= (as Slack tools send) with text only, the topic from the URL', async () => {
  const body = new URLSearchParams({ payload: JSON.stringify({ text: 'Build <https://ci.example.com/1|#1> passed', icon_emoji: ':tada:' }) }).toString();
  const { reply, posts } = await postsFrom(server, 'slack_incoming', { api_key: bot.apiKey, stream, topic: 'ci' }, body, { 'content-type': 'application/x-www-form-urlencoded' });
  assert.equal(reply.status, 200, reply.text);
  assert.deepEqual(posts, [{ topic: 'ci', content: ':tada: Build [#1](https://ci.example.com/1) passed' }]);
  // No text at all: success, nothing posted; no payload field: 400.
  assert.deepEqual((await postsFrom(server, 'slack_incoming', { api_key: bot.apiKey, stream }, '{}')).posts, []);
  const missing = await postsFrom(server, 'slack_incoming', { api_key: bot.apiKey, stream }, 'text=hi', { 'content-type': 'application/x-www-form-urlencoded' });
  assert.equal(missing.reply.status, 400);
});
