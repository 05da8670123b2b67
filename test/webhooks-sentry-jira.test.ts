// Sentry (issue and alert webhooks) and Jira (issue events).
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { createChannel } from './helpers/messages.js';
import { fixture, makeHookBot, postsFrom, type HookBot } from './helpers/webhooks.js';

let server: TestServer;
let bot: HookBot;
const stream = 'ops';
before(async () => {
  server = await startTestServer();
  bot = await makeHookBot(server, 'ops');
  await createChannel(server, 'hamlet', ['hamlet'], {}, stream);
});
after(() => server?.close());

test('Sentry issue created: the issue title as topic, level, first seen and assignee', async () => {
  const { reply, posts } = await postsFrom(server, 'sentry', { api_key: bot.apiKey, stream }, fixture('sentry', 'issue_created'), { 'Sentry-Hook-Resource': 'issue' });
  assert.equal(reply.status, 200, reply.text);
  assert.deepEqual(posts, [{
    topic: 'ReferenceError: blooopy is not defined',
    content: '**New issue created**: [ReferenceError: blooopy is not defined](https://sentry.io/organizations/test-org/issues/1170820242/)\n```quote\n**level:** error\n**timestamp:** 2019-08-19T20:58:37.391000Z\n**assignee:** No one\n```',
  }]);
});

test('Sentry event alert; an installation event posts nothing', async () => {
  const alert = { action: 'triggered', data: { event: { title: 'Error: boom', web_url: 'https://sentry.io/organizations/o/issues/1/events/abc/', level: 'error', culprit: 'app/main.js' }, triggered_rule: 'Send to chat' } };
  const { posts } = await postsFrom(server, 'sentry', { api_key: bot.apiKey, stream }, JSON.stringify(alert), { 'Sentry-Hook-Resource': 'event_alert' });
  assert.deepEqual(posts, [{ topic: 'Error: boom', content: '**New exception:** [Error: boom](https://sentry.io/organizations/o/issues/1/events/abc/)\n```quote\n**level:** error\n**culprit:** app/main.js\n**rule:** Send to chat\n```' }]);
  const none = await postsFrom(server, 'sentry', { api_key: bot.apiKey, stream }, '{"action":"created","data":{}}', { 'Sentry-Hook-Resource': 'installation' });
  assert.deepEqual(none.posts, []);
  assert.deepEqual(none.reply.body, { result: 'success', msg: '' });
});

test('Jira issue created and updated: "<KEY>: <summary>", who, what changed, comments quoted', async () => {
  const { reply, posts } = await postsFrom(server, 'jira', { api_key: bot.apiKey, stream }, fixture('jira', 'created_v2'));
  assert.equal(reply.status, 200, reply.text);
  assert.deepEqual(posts, [{
    topic: 'BUG-15: New bug with hook',
    content: '**Leo Franchi** created [BUG-15](https://zulipp.atlassian.net/browse/BUG-15) with priority Major, assigned to **Leo Franchi**:\n\n``` quote\nThis is a bug with a description\n```',
  }]);
  const updated = JSON.parse(fixture('jira', 'created_v2'));
  updated.webhookEvent = 'jira:issue_updated';
  updated.changelog = { items: [{ field: 'status', fromString: 'To Do', toString: 'In Progress' }] };
  updated.comment = { body: 'Working on it.', author: { displayName: 'Leo Franchi' } };
  const r = await postsFrom(server, 'jira', { api_key: bot.apiKey, stream }, JSON.stringify(updated));
  assert.deepEqual(r.posts, [{ topic: 'BUG-15: New bug with hook', content: '**Leo Franchi** commented on [BUG-15](https://zulipp.atlassian.net/browse/BUG-15):\n\n``` quote\nWorking on it.\n```\n* Changed status from **To Do** to **In Progress**' }]);
  const unknown = await postsFrom(server, 'jira', { api_key: bot.apiKey, stream }, JSON.stringify({ ...updated, webhookEvent: 'jira:issue_frobbed' }));
  assert.equal(unknown.reply.body.code, 'UNSUPPORTED_WEBHOOK_EVENT_TYPE');
  assert.deepEqual(unknown.posts, []);
});
