// What every incoming webhook shares (src/actions/incoming-webhooks.ts): who may call, the reference's errors,
// where the message goes (channel by name or id, the bot owner's DMs without one), and the Notification Bot's
// notice to the bot's owner when the channel does not exist.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { assertSuccess } from './helpers/assertions.js';
import { createChannel } from './helpers/messages.js';
import { send } from './helpers/client.js';
import { fixture, lastDm, lastInChannel, makeHookBot, postHook, type HookBot } from './helpers/webhooks.js';

let server: TestServer;
let bot: HookBot;
let channelId: number;
const channel = 'hooks core';
const slack = JSON.stringify({ text: 'Hello from a script' });
before(async () => {
  server = await startTestServer();
  bot = await makeHookBot(server, 'core');
  channelId = await createChannel(server, 'hamlet', ['hamlet'], {}, channel);
});
after(() => server?.close());

test('an unknown integration is a 404 naming the known ones', async () => {
  const reply = await postHook(server, 'nosuchtool', { api_key: bot.apiKey, stream: channel }, slack);
  assert.equal(reply.status, 404, reply.text);
  assert.match(reply.body.msg, /^Unknown integration 'nosuchtool'\. The integrations are: .*github/);
});

test('a wrong or missing key: 401 INVALID_API_KEY / 400 missing api_key, as the reference\'s webhook views', async () => {
  let reply = await postHook(server, 'slack_incoming', { api_key: 'x'.repeat(32), stream: channel }, slack);
  assert.equal(reply.status, 401, reply.text);
  assert.deepEqual(reply.body, { result: 'error', msg: 'Invalid API key', code: 'INVALID_API_KEY' });
  reply = await postHook(server, 'slack_incoming', { stream: channel }, slack);
  assert.equal(reply.status, 400, reply.text);
  assert.equal(reply.body.code, 'REQUEST_VARIABLE_MISSING');
  // Another organization's key names nobody here.
  reply = await postHook(server, 'slack_incoming', { api_key: server.users.lear.apiKey, stream: channel }, slack);
  assert.equal(reply.status, 401, reply.text);
});

test('the key by HTTP Basic authentication works as well', async () => {
  const url = new URL(`/api/v1/external/slack_incoming?stream=${encodeURIComponent(channel)}`, server.url);
  const reply = await send('POST', url, { 'content-type': 'application/json', authorization: 'Basic ' + Buffer.from(`${bot.email}:${bot.apiKey}`).toString('base64') }, JSON.stringify({ text: 'by basic auth' }));
  assert.equal(reply.status, 200, reply.text);
  assert.equal((await lastInChannel(server, channel)).content, 'by basic auth');
});

test('malformed JSON is a 400', async () => {
  const reply = await postHook(server, 'slack_incoming', { api_key: bot.apiKey, stream: channel }, '{"text": ');
  assert.equal(reply.status, 400, reply.text);
  assert.equal(reply.body.msg, 'Malformed JSON');
});

test('the channel by id; the topic from the URL; without a channel, a direct message to the bot\'s owner', async () => {
  let reply = await postHook(server, 'slack_incoming', { api_key: bot.apiKey, stream: String(channelId), topic: 'by id' }, slack);
  assert.equal(reply.status, 200, reply.text);
  const m = await lastInChannel(server, channel);
  assert.equal(m.topic, 'by id');
  assert.equal(m.sender_id, bot.id);
  assert.equal(m.client, 'ZulipSlackIncomingWebhook');
  reply = await postHook(server, 'slack_incoming', { api_key: bot.apiKey }, JSON.stringify({ text: 'to my owner' }));
  assert.equal(reply.status, 200, reply.text);
  const dm = await lastDm(server, 'hamlet');
  assert.equal(dm.content, 'to my owner');
  assert.equal(dm.sender_id, bot.id);
});

test('a channel that does not exist: success, and the Notification Bot tells the bot\'s owner once a minute', async () => {
  const reply = await postHook(server, 'slack_incoming', { api_key: bot.apiKey, stream: 'nowhere' }, slack);
  assert.equal(reply.status, 200, reply.text);
  assert.deepEqual(reply.body, { result: 'success', msg: '' });
  const notice = await lastDm(server, 'hamlet');
  assert.equal(notice.content, `Your bot \`${bot.email}\` tried to send a message to channel #**nowhere**, but that channel does not exist. Click [here](#channels/new) to create it.`);
  assert.match(notice.sender_email, /^notification-bot@/);
  // A second failure within the minute: still success, no second notice.
  assert.equal((await postHook(server, 'slack_incoming', { api_key: bot.apiKey, stream: 'nowhere' }, slack)).status, 200);
  assert.equal((await lastDm(server, 'hamlet')).id, notice.id);
  // By id, with the reference's other wording (another bot: its own minute).
  const other = await makeHookBot(server, 'core2');
  assert.equal((await postHook(server, 'slack_incoming', { api_key: other.apiKey, stream: '999999' }, slack)).status, 200);
  assert.equal((await lastDm(server, 'hamlet')).content, `Your bot \`${other.email}\` tried to send a message to channel ID 999999, but there is no channel with that ID.`);
});

test('an incoming-webhook bot still reaches nothing else, and a generic bot\'s key may post to a webhook too', async () => {
  const url = new URL('/api/v1/users/me', server.url);
  const reply = await send('GET', url, { authorization: 'Basic ' + Buffer.from(`${bot.email}:${bot.apiKey}`).toString('base64') });
  assert.equal(reply.status, 401);
  const res = assertSuccess(await server.as('hamlet').post('/bots', { full_name: 'Generic poster', short_name: 'genposter' }));
  assert.equal((await postHook(server, 'slack_incoming', { api_key: res.api_key, stream: channel }, JSON.stringify({ text: 'generic' }))).status, 200);
  assert.equal((await lastInChannel(server, channel)).content, 'generic');
});

test('only_events / exclude_events filter by event kind with shell patterns', async () => {
  const q = { api_key: bot.apiKey, stream: channel };
  const before = await lastInChannel(server, channel);
  let reply = await postHook(server, 'github', { ...q, only_events: '["pull_request*"]' }, fixture('github', 'issues'), { 'X-GitHub-Event': 'issues' });
  assert.equal(reply.status, 200);
  assert.equal((await lastInChannel(server, channel)).id, before.id);
  reply = await postHook(server, 'github', { ...q, exclude_events: '["push_*"]' }, fixture('github', 'issues'), { 'X-GitHub-Event': 'issues' });
  assert.equal(reply.status, 200);
  assert.notEqual((await lastInChannel(server, channel)).id, before.id);
});
