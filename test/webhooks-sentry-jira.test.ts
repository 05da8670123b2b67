// Sentry (issue and alert webhooks) and Jira (issue events): the reference's fixtures and expected texts.
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

const post = (integration: string, body: string) => postsFrom(server, integration, { api_key: bot.apiKey, stream }, body);

test('Sentry issue created and resolved (the reference\'s test_issue_created_for_exception, test_issue_resolved)', async () => {
  const created = await post('sentry', fixture('sentry', 'issue_created_for_exception'));
  assert.equal(created.reply.status, 200, created.reply.text);
  assert.deepEqual(created.posts, [{
    topic: 'Exception: Custom exception!',
    content: '**New issue created:** Exception: Custom exception!\n```quote\n**level:** error\n**timestamp:** 2020-04-28 13:56:05\n**assignee:** No one\n```',
  }]);
  assert.deepEqual((await post('sentry', fixture('sentry', 'issue_resolved'))).posts, [{
    topic: 'Exception: program has entered an invalid state.',
    content: 'Issue **Exception: program has entered an invalid state.** was marked as resolved by **Hemanth V. Alluri**.',
  }]);
  const assigned = JSON.parse(fixture('sentry', 'issue_resolved'));
  assigned.action = 'assigned';
  assigned.data.issue.assignedTo = { type: 'team', name: 'lone-wolf' };
  assert.equal((await post('sentry', JSON.stringify(assigned))).posts[0].content, 'Issue **Exception: program has entered an invalid state.** has now been assigned to **team lone-wolf** by **Hemanth V. Alluri**.');
});

test('Sentry issue alert for an exception: the frame that raised it as a highlighted traceback (test_event_for_exception_python)', async () => {
  const { posts } = await post('sentry', fixture('sentry', 'event_for_exception_python'));
  assert.deepEqual(posts, [{
    topic: 'Exception: Custom exception!',
    content: '**New exception:** [Exception: Custom exception!](https://sentry.io/organizations/hypro999-personal-organization/issues/1635244907/events/599349254a1447a99774b5310711c1a8/)\n```quote\n**level:** error\n**timestamp:** 2020-04-28 13:56:05\n**filename:** trigger-exception.py\n```\n\nTraceback:\n```python3\n\n\n     if __name__ == "__main__":\n         sentry_sdk.init(dsn=SECRET_DSN)\n         try:\n--->         raise Exception("Custom exception!")\n         except Exception as e:\n             sentry_sdk.capture_exception(e)\n\n```',
  }]);
  // An installation's own event carries neither: the reference's notice, nothing posted.
  const other = await post('sentry', JSON.stringify({ action: 'created', data: { installation: {} } }));
  assert.deepEqual(other.posts, []);
  assert.equal(other.reply.body.code, 'UNSUPPORTED_WEBHOOK_EVENT_TYPE');
  assert.equal(other.reply.body.event_type, "['installation']");
});

test('Jira issue created (test_created_assignee), updated, commented; ignored and anomalous events', async () => {
  const { reply, posts } = await post('jira', fixture('jira', 'issue_created_with_assignee'));
  assert.equal(reply.status, 200, reply.text);
  const topic = 'TEST-4: Test Created Assignee';
  const issue = '[TEST-4: Test Created Assignee](https://zulipp.atlassian.net/browse/TEST-4)';
  assert.deepEqual(posts, [{ topic, content: `Bo Williams created ${issue} with major priority (assigned to Kevin Lin).` }]);

  const updated = JSON.parse(fixture('jira', 'issue_created_with_assignee'));
  updated.webhookEvent = 'jira:issue_updated';
  updated.changelog = { items: [{ field: 'priority', fromString: 'Critical', toString: 'Major' }] };
  assert.deepEqual((await post('jira', JSON.stringify(updated))).posts, [{ topic, content: `Bo Williams updated ${issue} (assigned to Kevin Lin):\n\n* Changed priority from **Critical** to **Major**` }]);

  const comment = { ...updated, webhookEvent: 'comment_updated', changelog: undefined, comment: { body: 'This is a very important issue! I’m on it!', author: { displayName: 'Hemanth V. Alluri' }, updateAuthor: { displayName: 'Hemanth V. Alluri' } } };
  assert.deepEqual((await post('jira', JSON.stringify(comment))).posts, [{ topic, content: `Hemanth V. Alluri updated their comment on ${issue}\n\`\`\` quote\nThis is a very important issue! I’m on it!\n\`\`\`` }]);

  const ignored = await post('jira', JSON.stringify({ webhookEvent: 'sprint_started' }));
  assert.deepEqual(ignored.posts, []);
  assert.deepEqual(ignored.reply.body, { result: 'success', msg: '' });
  const anomalous = await post('jira', JSON.stringify({ issue: {} }));
  assert.equal(anomalous.reply.status, 400);
  assert.equal(anomalous.reply.body.msg, 'Unable to parse request: Did Jira generate this event?');
  const unknown = await post('jira', JSON.stringify({ ...updated, webhookEvent: 'jira:issue_frobbed' }));
  assert.equal(unknown.reply.body.code, 'UNSUPPORTED_WEBHOOK_EVENT_TYPE');
});
