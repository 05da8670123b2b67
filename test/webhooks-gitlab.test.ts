// GitLab: pushes, merge requests, issues, comments and pipelines, with the code-hosting topics and wording.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { assertSuccess } from './helpers/assertions.js';
import { createChannel } from './helpers/messages.js';
import { fixture, makeHookBot, postHook, postsFrom, type HookBot } from './helpers/webhooks.js';

let server: TestServer;
let bot: HookBot;
const stream = 'gitlab';
before(async () => {
  server = await startTestServer();
  bot = await makeHookBot(server, 'gl');
  await createChannel(server, 'hamlet', ['hamlet'], {}, stream);
});
after(() => server?.close());

const post = (name: string, event: string, query: Record<string, string> = {}) =>
  postsFrom(server, 'gitlab', { api_key: bot.apiKey, stream, ...query }, fixture('gitlab', name), { 'X-Gitlab-Event': event });

test('Push Hook: "<project> / <branch>", the compare link, the commits and their authors; the branches filter', async () => {
  const { reply, posts } = await post('push_hook', 'Push Hook');
  assert.equal(reply.status, 200, reply.text);
  assert.deepEqual(posts, [{
    topic: 'my-awesome-project / tomek',
    content: 'Tomasz Kolek [pushed](https://gitlab.com/tomaszkolek0/my-awesome-project/compare/5fcdd55...da15608) 2 commits to branch tomek. Commits by Ben (1) and Tomasz Kolek (1).\n\n* b ([66abd2da288](https://gitlab.com/tomaszkolek0/my-awesome-project/commit/66abd2da28809ffa128ed0447965cf11d7f863a7))\n* c ([eb6ae1e591e](https://gitlab.com/tomaszkolek0/my-awesome-project/commit/eb6ae1e591e0819dc5bf187c6bfe18ec065a80e9))',
  }]);
  assert.deepEqual((await post('push_hook', 'Push Hook', { branches: 'master' })).posts, []);
});

test('Merge Request Hook, Issue Hook, Note Hook and Pipeline Hook', async () => {
  assert.deepEqual((await post('merge_request_hook__opened', 'Merge Request Hook')).posts, [{
    topic: 'my-awesome-project / MR #1 Update README.md',
    content: 'Tomasz Kolek created [MR #1](https://gitlab.com/tomaszkolek0/my-awesome-project/merge_requests/1) from `tomek` to `master` (assigned to tomaszkolek0):\n\n~~~ quote\nPlease review.\n~~~',
  }]);
  assert.deepEqual((await post('issue_hook__created', 'Issue Hook')).posts, [{
    topic: 'public-repo / issue #1 Issue title',
    content: 'Eeshan Garg created [issue #1](https://gitlab.com/eeshangarg/public-repo/issues/1):\n\n~~~ quote\nIssue description\n~~~',
  }]);
  assert.deepEqual((await post('note_hook__mr', 'Note Hook')).posts, [{
    topic: 'my-awesome-project / MR #1 Update README.md',
    content: 'Tomasz Kolek [commented](https://gitlab.com/tomaszkolek0/my-awesome-project/merge_requests/1#note_1244) on [MR #1](https://gitlab.com/tomaszkolek0/my-awesome-project/merge_requests/1):\n\n~~~ quote\nThis MR needs work.\n~~~',
  }]);
  assert.deepEqual((await post('pipeline_hook__success', 'Pipeline Hook')).posts, [{
    topic: 'my-awesome-project / master',
    content: '[Pipeline (4414206)](https://gitlab.com/tomaszkolek0/my-awesome-project/-/pipelines/4414206) of branch `master` changed status to **success**.\n\n* test - stage test - success\n* production - stage deploy - success',
  }]);
});

test('an unhandled GitLab event: 200 with UNSUPPORTED_WEBHOOK_EVENT_TYPE; a webhook_secret must match X-Gitlab-Token', async () => {
  const { reply, posts } = await post('push_hook', 'Wiki Page Hook');
  assert.equal(reply.status, 200);
  assert.equal(reply.body.code, 'UNSUPPORTED_WEBHOOK_EVENT_TYPE');
  assert.deepEqual(posts, []);
  assertSuccess(await server.as('hamlet').patch(`/bots/${bot.id}`, { config_data: JSON.stringify({ webhook_secret: 'tok' }) }));
  const q = { api_key: bot.apiKey, stream };
  assert.equal((await postHook(server, 'gitlab', q, fixture('gitlab', 'push_hook'), { 'X-Gitlab-Event': 'Push Hook', 'X-Gitlab-Token': 'nope' })).status, 401);
  assert.equal((await postHook(server, 'gitlab', q, fixture('gitlab', 'push_hook'), { 'X-Gitlab-Event': 'Push Hook', 'X-Gitlab-Token': 'tok' })).status, 200);
});
