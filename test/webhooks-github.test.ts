// GitHub incoming webhook: real GitHub payloads (the reference's fixtures, test/fixtures/webhooks/github/) posted
// as GitHub posts them, and the exact topic and content the bot posts, in the reference's wording.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { startTestServer, type TestServer } from './helpers/server.js';
import { assertSuccess } from './helpers/assertions.js';
import { createChannel } from './helpers/messages.js';
import { fixture, lastInChannel, makeHookBot, postHook, type HookBot } from './helpers/webhooks.js';

let server: TestServer;
let bot: HookBot;
const channel = 'github';
before(async () => {
  server = await startTestServer();
  bot = await makeHookBot(server, 'gh');
  await createChannel(server, 'hamlet', ['hamlet'], {}, channel);
});
after(() => server?.close());

async function hook(name: string, event: string, query: Record<string, string> = {}, body = fixture('github', name)) {
  const before = await lastInChannel(server, channel).catch(() => undefined);
  const reply = await postHook(server, 'github', { api_key: bot.apiKey, stream: channel, ...query }, body, { 'X-GitHub-Event': event });
  assert.equal(reply.status, 200, reply.text);
  const last = await lastInChannel(server, channel).catch(() => undefined);
  return { reply, posted: last && last.id !== before?.id ? last : undefined };
}

async function expectPost(name: string, event: string, topic: string, content: string, query: Record<string, string> = {}) {
  const { reply, posted } = await hook(name, event, query);
  assert.deepEqual(reply.body, { result: 'success', msg: '' });
  assert.ok(posted, `${name}: nothing posted`);
  assert.equal(posted.topic, topic);
  assert.equal(posted.content, content);
  assert.equal(posted.sender_id, bot.id);
  return posted;
}

test('push: the pusher, the compare link and the commits with short links, in "<repo> / <branch>"', async () => {
  const m = await expectPost('push__force_1_commit', 'push', 'zulip / temp',
    'sbansal1999 [force pushed](https://github.com/sbansal1999/zulip/compare/b6de8891fc10...971d76ca3094) 1 commit to branch temp.\n\n* log: Add important.txt which is useful for logging errors. ([971d76ca309](https://github.com/sbansal1999/zulip/commit/971d76ca309446a9c20381f6271cea8a59b4e40a))');
  assert.equal(m.client, 'ZulipGitHubWebhook');
});

test('push of 50 commits by several authors: 20 listed, "[and 30 more commit(s)]", committers named', async () => {
  const p = JSON.parse(fixture('github', 'push__force_1_commit'));
  p.forced = false;
  const c = p.commits[0];
  p.commits = Array.from({ length: 50 }, (_, i) => ({ ...c, author: { name: i < 30 ? 'Tomasz' : i < 45 ? 'Ben' : i < 48 ? 'James' : i < 49 ? 'Ann' : 'sbansal1999' } }));
  const { posted } = await hook('', 'push', {}, JSON.stringify(p));
  const row = '* log: Add important.txt which is useful for logging errors. ([971d76ca309](https://github.com/sbansal1999/zulip/commit/971d76ca309446a9c20381f6271cea8a59b4e40a))\n';
  assert.equal(posted?.content, `sbansal1999 [pushed](https://github.com/sbansal1999/zulip/compare/b6de8891fc10...971d76ca3094) 50 commits to branch temp. Commits by Tomasz (30), Ben (15), James (3) and others (2).\n\n${row.repeat(20)}[and 30 more commit(s)]`);
});

test('the branches filter: a push to another branch posts nothing (200); a listed one or pattern posts', async () => {
  const skipped = await hook('push__force_1_commit', 'push', { branches: 'main,release' });
  assert.equal(skipped.posted, undefined);
  assert.deepEqual(skipped.reply.body, { result: 'success', msg: '' });
  const kept = await hook('push__force_1_commit', 'push', { branches: 'main, te*' });
  assert.equal(kept.posted?.topic, 'zulip / temp');
});

test('issues: "<repo> / issue #N <title>" and the body quoted; with a topic in the URL, the title moves into the message', async () => {
  await expectPost('issues', 'issues', 'public-repo / issue #2 Spelling error in the README file',
    "baxterthehacker opened [issue #2](https://github.com/baxterthehacker/public-repo/issues/2):\n\n~~~ quote\nIt looks like you accidently spelled 'commit' with two 't's.\n~~~");
  await expectPost('issues', 'issues', 'notifications',
    "baxterthehacker opened [issue #2 Spelling error in the README file](https://github.com/baxterthehacker/public-repo/issues/2):\n\n~~~ quote\nIt looks like you accidently spelled 'commit' with two 't's.\n~~~", { topic: 'notifications' });
});

test('pull_request opened: "<repo> / PR #N <title>" (cut to 60 characters), branches and body', async () => {
  await expectPost('pull_request__opened', 'pull_request', 'public-repo / PR #1 This is a very long Pull request titl...',
    'baxterthehacker opened [PR #1](https://github.com/baxterthehacker/public-repo/pull/1) from `baxterthehacker:changes` to `baxterthehacker:master`:\n\n~~~ quote\nThis is a pretty simple change that we need to pull into master.\n~~~');
  const p = JSON.parse(fixture('github', 'pull_request__opened'));
  p.action = 'closed';
  p.pull_request.merged = true;
  const { posted } = await hook('', 'pull_request', {}, JSON.stringify(p));
  assert.equal(posted?.content, 'baxterthehacker merged [PR #1](https://github.com/baxterthehacker/public-repo/pull/1).');
});

test('issue_comment, pull_request_review_comment, release, check_run, workflow_run and ping', async () => {
  const issue = JSON.parse(fixture('github', 'issues'));
  const comment = { action: 'created', issue: issue.issue, repository: issue.repository, sender: issue.sender,
    comment: { html_url: 'https://github.com/baxterthehacker/public-repo/issues/2#issuecomment-99262140', body: "You are totally right! I'll get this fixed right away." } };
  let r = await hook('', 'issue_comment', {}, JSON.stringify(comment));
  assert.equal(r.posted?.topic, 'public-repo / issue #2 Spelling error in the README file');
  assert.equal(r.posted?.content, "baxterthehacker [commented](https://github.com/baxterthehacker/public-repo/issues/2#issuecomment-99262140) on [issue #2](https://github.com/baxterthehacker/public-repo/issues/2):\n\n~~~ quote\nYou are totally right! I'll get this fixed right away.\n~~~");

  const pr = JSON.parse(fixture('github', 'pull_request__opened'));
  const review = { action: 'created', pull_request: pr.pull_request, repository: pr.repository, sender: pr.sender,
    comment: { html_url: 'https://github.com/baxterthehacker/public-repo/pull/1#discussion_r29724692', body: 'Maybe you should use more emojji on this line.' } };
  r = await hook('', 'pull_request_review_comment', {}, JSON.stringify(review));
  assert.equal(r.posted?.content, 'baxterthehacker created [PR review comment](https://github.com/baxterthehacker/public-repo/pull/1#discussion_r29724692):\n\n~~~ quote\nMaybe you should use more emojji on this line.\n~~~');

  const release = { action: 'published', repository: pr.repository, sender: pr.sender,
    release: { tag_name: '0.0.1', name: null, html_url: 'https://github.com/baxterthehacker/public-repo/releases/tag/0.0.1' } };
  r = await hook('', 'release', {}, JSON.stringify(release));
  assert.equal(r.posted?.topic, 'public-repo');
  assert.equal(r.posted?.content, 'baxterthehacker published release [0.0.1](https://github.com/baxterthehacker/public-repo/releases/tag/0.0.1) for tag 0.0.1.');

  const run = { action: 'completed', repository: { name: 'hello-world', html_url: 'http://github.com/github/hello-world' }, sender: pr.sender,
    check_run: { name: 'randscape', html_url: 'http://github.com/github/hello-world/runs/4', status: 'completed', conclusion: 'success', head_sha: 'd6fde92930d4715a2b49857d24b940956b26d2d3' } };
  r = await hook('', 'check_run', {}, JSON.stringify(run));
  assert.equal(r.posted?.topic, 'hello-world / checks');
  assert.equal(r.posted?.content, 'Check [randscape](http://github.com/github/hello-world/runs/4) completed (success). ([d6fde92930d](http://github.com/github/hello-world/commit/d6fde92930d4715a2b49857d24b940956b26d2d3))');
  // Still running: nothing.
  r = await hook('', 'check_run', {}, JSON.stringify({ ...run, check_run: { ...run.check_run, status: 'in_progress' } }));
  assert.equal(r.posted, undefined);

  const workflow = { action: 'completed', repository: run.repository, sender: pr.sender,
    workflow_run: { name: 'CI', html_url: 'http://github.com/github/hello-world/actions/runs/7', conclusion: 'failure', head_branch: 'main', head_sha: run.check_run.head_sha } };
  r = await hook('', 'workflow_run', {}, JSON.stringify(workflow));
  assert.equal(r.posted?.content, 'Workflow [CI](http://github.com/github/hello-world/actions/runs/7) completed (failure) on branch main. ([d6fde92930d](http://github.com/github/hello-world/commit/d6fde92930d4715a2b49857d24b940956b26d2d3))');

  r = await hook('', 'ping', {}, JSON.stringify({ zen: 'Design for failure.', hook_id: 1, repository: pr.repository, sender: { login: 'TomaszKolek' } }));
  assert.equal(r.posted?.topic, 'public-repo');
  assert.equal(r.posted?.content, 'GitHub webhook has been successfully configured by TomaszKolek.');
});

test('an event kind GitHub sends that is not handled: 200 with the reference\'s notice, nothing posted; an ignored one: success', async () => {
  const pr = JSON.parse(fixture('github', 'pull_request__opened'));
  const { reply, posted } = await hook('', 'deployment_review', {}, JSON.stringify({ action: 'approved', repository: pr.repository, sender: pr.sender }));
  assert.equal(posted, undefined);
  assert.deepEqual(reply.body, {
    result: 'error', code: 'UNSUPPORTED_WEBHOOK_EVENT_TYPE', webhook_name: 'GitHub', event_type: 'deployment_review:approved',
    msg: "The 'deployment_review:approved' event isn't currently supported by the GitHub webhook; ignoring",
  });
  const ignored = await hook('', 'check_suite', {}, JSON.stringify({ action: 'completed', repository: pr.repository, sender: pr.sender }));
  assert.equal(ignored.posted, undefined);
  assert.deepEqual(ignored.reply.body, { result: 'success', msg: '' });
});

test('a payload without the fields of its event is a 400, not a 500; no X-GitHub-Event header is a 400', async () => {
  let reply = await postHook(server, 'github', { api_key: bot.apiKey, stream: channel }, '{"ref": 5}', { 'X-GitHub-Event': 'push' });
  assert.equal(reply.status, 400, reply.text);
  assert.equal(reply.body.code, 'ANOMALOUS_WEBHOOK_PAYLOAD');
  assert.equal(reply.body.msg, 'Unable to parse request: Did GitHub generate this event?');
  reply = await postHook(server, 'github', { api_key: bot.apiKey, stream: channel }, fixture('github', 'issues'));
  assert.equal(reply.status, 400);
  assert.equal(reply.body.msg, "Missing the HTTP event header 'X-GitHub-Event'");
  assert.equal(reply.body.code, 'MISSING_HTTP_EVENT_HEADER');
  // The bot's owner hears why, from the Notification Bot (the reference's notice).
  const { messages } = (await server.as('hamlet').get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, apply_markdown: false, narrow: [{ operator: 'is', operand: 'dm' }] })).body;
  assert.match(messages[0].sender_email, /^notification-bot@/);
  assert.equal(messages[0].content, "Hi there!  Your bot Hook gh just sent an HTTP request to /api/v1/external/github that\nis missing the HTTP X-GitHub-Event header.  Because this header is how\nGitHub indicates the event type, this usually indicates a configuration\nissue, where you either entered the URL for a different integration, or are running\nan older version of the third-party service that doesn't provide that header.\nAsk your organization's administrators if you need help debugging!");
});

test('X-Hub-Signature-256: with a webhook_secret in the bot\'s config_data, only requests signed with it post', async () => {
  const signed = await makeHookBot(server, 'ghsigned');
  assertSuccess(await server.as('hamlet').patch(`/bots/${signed.id}`, { config_data: JSON.stringify({ webhook_secret: 's3cret' }) }));
  const body = fixture('github', 'issues');
  const sign = (secret: string) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
  const q = { api_key: signed.apiKey, stream: channel };
  for (const headers of [{}, { 'X-Hub-Signature-256': sign('wrong') }] as Record<string, string>[]) {
    const reply = await postHook(server, 'github', q, body, { 'X-GitHub-Event': 'issues', ...headers });
    assert.equal(reply.status, 401, reply.text);
    assert.equal(reply.body.code, 'INVALID_WEBHOOK_SIGNATURE');
  }
  const reply = await postHook(server, 'github', q, body, { 'X-GitHub-Event': 'issues', 'X-Hub-Signature-256': sign('s3cret') });
  assert.equal(reply.status, 200, reply.text);
  assert.equal((await lastInChannel(server, channel)).sender_id, signed.id);
  // The secret is write-only: the bot's record does not show it.
  const { bots } = assertSuccess(await server.as('hamlet').get('/bots'));
  assert.doesNotMatch(JSON.stringify(bots.find((b: { user_id: number }) => b.user_id === signed.id) ?? bots), /s3cret/);
  // Given at creation, and turned off with an empty value.
  const created = assertSuccess(await server.as('hamlet').post('/bots', { full_name: 'Hook born signed', short_name: 'ghborn', bot_type: 2, config_data: JSON.stringify({ webhook_secret: 'early' }) }));
  assert.equal((await postHook(server, 'github', { api_key: created.api_key, stream: channel }, body, { 'X-GitHub-Event': 'issues' })).status, 401);
  assertSuccess(await server.as('hamlet').patch(`/bots/${created.user_id}`, { config_data: JSON.stringify({ webhook_secret: '' }) }));
  assert.equal((await postHook(server, 'github', { api_key: created.api_key, stream: channel }, body, { 'X-GitHub-Event': 'issues' })).status, 200);
});
