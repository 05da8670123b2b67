// GitLab: the reference's fixtures (test/fixtures/webhooks/gitlab/) and, where its tests give them, its expected
// topics and messages, word for word.
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

const post = (name: string, event: string, query: Record<string, string> = {}, body = fixture('gitlab', name)) =>
  postsFrom(server, 'gitlab', { api_key: bot.apiKey, stream, ...query }, body, { 'X-Gitlab-Event': event });

const PUSH = 'Tomasz Kolek [pushed](https://gitlab.com/tomaszkolek0/my-awesome-project/-/compare/5fcdd5551fc3085df79bece2c32b1400802ac407...eb6ae1e591e0819dc5bf187c6bfe18ec065a80e9) 2 commits to branch tomek.\n\n* b ([66abd2da288](https://gitlab.com/tomaszkolek0/my-awesome-project/commit/66abd2da28809ffa128ed0447965cf11d7f863a7))\n* c ([eb6ae1e591e](https://gitlab.com/tomaszkolek0/my-awesome-project/commit/eb6ae1e591e0819dc5bf187c6bfe18ec065a80e9))';

test('Push Hook: "<project> / <branch>", compare link, commits (the reference\'s test_push_event_message); the branches filter; a topic in the URL prefixes the project', async () => {
  const { reply, posts } = await post('push_hook', 'Push Hook');
  assert.equal(reply.status, 200, reply.text);
  assert.deepEqual(posts, [{ topic: 'my-awesome-project / tomek', content: PUSH }]);
  assert.deepEqual((await post('push_hook', 'Push Hook', { branches: 'master,tomek' })).posts, [{ topic: 'my-awesome-project / tomek', content: PUSH }]);
  const ignored = await post('push_hook', 'Push Hook', { branches: 'master,development' });
  assert.deepEqual(ignored.posts, []);
  assert.deepEqual(ignored.reply.body, { result: 'success', msg: '' });
  assert.deepEqual((await post('push_hook', 'Push Hook', { topic: 'Specific topic' })).posts, [{ topic: 'Specific topic', content: `[[my-awesome-project](https://gitlab.com/tomaszkolek0/my-awesome-project)] ${PUSH}` }]);
});

test('Push Hook removing a branch, Tag Push Hook adding and removing a tag', async () => {
  const p = JSON.parse(fixture('gitlab', 'push_hook'));
  assert.deepEqual((await post('', 'Push Hook', {}, JSON.stringify({ ...p, after: '0'.repeat(40), commits: [] }))).posts, [{ topic: 'my-awesome-project / tomek', content: 'Tomasz Kolek deleted branch tomek.' }]);
  const tag = { ...p, ref: 'refs/tags/xyz', commits: [] };
  assert.deepEqual((await post('', 'Tag Push Hook', {}, JSON.stringify(tag))).posts, [{ topic: 'my-awesome-project', content: 'Tomasz Kolek pushed tag xyz.' }]);
  assert.deepEqual((await post('', 'Tag Push Hook', {}, JSON.stringify({ ...tag, checkout_sha: null }))).posts, [{ topic: 'my-awesome-project', content: 'Tomasz Kolek removed tag xyz.' }]);
});

test('Issue Hook: created with two assignees, hidden comments dropped from the description, then closed', async () => {
  assert.deepEqual((await post('issue_hook__issue_created_with_two_assignees', 'Issue Hook')).posts, [{
    topic: 'Zulip GitLab Test / issue #2 Zulip Test Issue 2',
    content: 'Adam Birds created [issue #2](https://gitlab.com/adambirds/zulip-gitlab-test/issues/2) (assigned to Adam Birds and Eeshan Garg):\n\n~~~ quote\nZulip Test Issue 2\n~~~',
  }]);
  assert.deepEqual((await post('issue_hook__issue_created_with_hidden_comment_in_description', 'Issue Hook')).posts, [{
    topic: 'public-repo / issue #3 New Issue with hidden comment',
    content: 'Eeshan Garg created [issue #3](https://gitlab.com/eeshangarg/public-repo/issues/3):\n\n~~~ quote\nThis description actually has a hidden comment in it!\n~~~',
  }]);
  const closed = JSON.parse(fixture('gitlab', 'issue_hook__issue_created_with_hidden_comment_in_description'));
  closed.object_attributes.action = 'close';
  assert.deepEqual((await post('', 'Issue Hook', {}, JSON.stringify(closed))).posts, [{ topic: 'public-repo / issue #3 New Issue with hidden comment', content: 'Eeshan Garg closed [issue #3](https://gitlab.com/eeshangarg/public-repo/issues/3).' }]);
});

test('Merge Request Hook: created (branches, assignees, description), merged, approved, commits added', async () => {
  const mr = {
    object_kind: 'merge_request',
    user: { name: 'Tomasz Kolek', username: 'tomaszkolek0' },
    project: { name: 'my-awesome-project', web_url: 'https://gitlab.com/tomaszkolek0/my-awesome-project' },
    object_attributes: { iid: 3, title: 'New Merge Request', description: 'description of merge request', source_branch: 'tomek', target_branch: 'master', action: 'open', url: 'https://gitlab.com/tomaszkolek0/my-awesome-project/merge_requests/3' },
    assignees: [{ name: 'Tomasz Kolek', username: 'tomaszkolek0' }],
  };
  const topic = 'my-awesome-project / MR #3 New Merge Request';
  const send = (action: string, extra: Record<string, unknown> = {}) => post('', 'Merge Request Hook', {}, JSON.stringify({ ...mr, object_attributes: { ...mr.object_attributes, action, ...extra } }));
  assert.deepEqual((await send('open')).posts, [{ topic, content: 'Tomasz Kolek created [MR #3](https://gitlab.com/tomaszkolek0/my-awesome-project/merge_requests/3) from `tomek` to `master` (assigned to Tomasz Kolek):\n\n~~~ quote\ndescription of merge request\n~~~' }]);
  assert.deepEqual((await send('merge')).posts, [{ topic, content: 'Tomasz Kolek merged [MR #3](https://gitlab.com/tomaszkolek0/my-awesome-project/merge_requests/3) from `tomek` to `master`.' }]);
  assert.deepEqual((await send('approved')).posts, [{ topic, content: 'Tomasz Kolek approved [MR #3](https://gitlab.com/tomaszkolek0/my-awesome-project/merge_requests/3).' }]);
  assert.deepEqual((await send('update', { oldrev: 'a'.repeat(40) })).posts, [{ topic, content: 'Tomasz Kolek added commit(s) to [MR #3](https://gitlab.com/tomaszkolek0/my-awesome-project/merge_requests/3).' }]);
});

test('Note Hook on a merge request and Pipeline Hook (the reference\'s test_note_merge_request_event_message, test_pipeline_succeeded_event_message)', async () => {
  assert.deepEqual((await post('note_hook__merge_request_note', 'Note Hook')).posts, [{
    topic: 'testing-zulip-gitlab-integration / MR #1 add new-feature',
    content: 'Satyam Bansal [commented](https://gitlab.com/sbansal1999/testing-zulip-gitlab-integration/-/merge_requests/1#note_1406328457) on [MR #1](https://gitlab.com/sbansal1999/testing-zulip-gitlab-integration/-/merge_requests/1):\n\n~~~ quote\nI am not sure if this new feature is even required or not.\n~~~',
  }]);
  assert.deepEqual((await post('pipeline_hook__pipeline_succeeded', 'Pipeline Hook')).posts, [{
    topic: 'my-awesome-project / master',
    content: '[Pipeline (4414206)](https://gitlab.com/TomaszKolek/my-awesome-project/-/pipelines/4414206) changed status to success with build(s):\n* [job_name2](https://gitlab.com/TomaszKolek/my-awesome-project/-/jobs/4541113) - success\n* [job_name](https://gitlab.com/TomaszKolek/my-awesome-project/-/jobs/4541112) - success.',
  }]);
});

test('an unhandled GitLab event: 200 with UNSUPPORTED_WEBHOOK_EVENT_TYPE; a webhook_secret must match X-Gitlab-Token', async () => {
  const { reply, posts } = await post('push_hook', 'Emoji Hook');
  assert.equal(reply.status, 200);
  assert.equal(reply.body.code, 'UNSUPPORTED_WEBHOOK_EVENT_TYPE');
  assert.equal(reply.body.msg, "The 'Emoji Hook' event isn't currently supported by the GitLab webhook; ignoring");
  assert.deepEqual(posts, []);
  assertSuccess(await server.as('hamlet').patch(`/bots/${bot.id}`, { config_data: JSON.stringify({ webhook_secret: 'tok' }) }));
  const q = { api_key: bot.apiKey, stream };
  assert.equal((await postHook(server, 'gitlab', q, fixture('gitlab', 'push_hook'), { 'X-Gitlab-Event': 'Push Hook', 'X-Gitlab-Token': 'nope' })).status, 401);
  assert.equal((await postHook(server, 'gitlab', q, fixture('gitlab', 'push_hook'), { 'X-Gitlab-Event': 'Push Hook', 'X-Gitlab-Token': 'tok' })).status, 200);
});
