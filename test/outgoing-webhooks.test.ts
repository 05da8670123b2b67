// Outgoing webhooks against a real local HTTP service (reached through PARLANCE_FETCH_ALLOWED_HOSTS): the
// reference's payloads (generic JSON and the Slack-compatible form), answers posted by the bot, retries of 5xx
// answers, the notices after the last failure, the bound on bots answering bots, and no delivery lost to kill -9.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestServer, type TestServer } from './helpers/server.js';
import { assertSuccess } from './helpers/assertions.js';
import { createChannel, fetchMessages, sendToChannel, unique } from './helpers/messages.js';

interface Received {
  path: string;
  contentType: string;
  body: string;
}

let server: TestServer;
let service: http.Server;
let base = '';
const received: Received[] = [];
// Per path: what to answer to its n-th request (status, body), or null to hold the request unanswered.
const behaviour = new Map<string, (n: number, body: string) => [number, unknown] | null>();
const held: http.ServerResponse[] = [];

before(async () => {
  service = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      const path = req.url ?? '';
      received.push({ path, contentType: String(req.headers['content-type']), body });
      const n = received.filter((r) => r.path === path).length;
      const rule = behaviour.get(path);
      const answer: [number, unknown] | null = rule ? rule(n, body) : [200, { response_not_required: true }];
      if (answer === null) return void held.push(res);
      res.writeHead(answer[0], { 'content-type': 'application/json' });
      res.end(typeof answer[1] === 'string' ? answer[1] : JSON.stringify(answer[1]));
    });
  });
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
  server = await startTestServer({ env: { PARLANCE_FETCH_ALLOWED_HOSTS: '127.0.0.1' } });
});
after(async () => {
  for (const r of held) r.destroy();
  service.closeAllConnections();
  service.close();
  await server?.close();
});

async function waitFor<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const found = await fn();
    if (found !== undefined) return found;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
const requestsTo = (path: string) => received.filter((r) => r.path === path);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function makeBot(fullName: string, path: string, interfaceType = 1): Promise<{ id: number; email: string; fullName: string; token: string }> {
  const res = assertSuccess(await server.as('hamlet').post('/bots', {
    full_name: fullName, short_name: fullName.toLowerCase().replace(/\W+/g, ''), bot_type: 3, payload_url: JSON.stringify(`${base}${path}`), interface_type: interfaceType,
  }));
  const reg = assertSuccess(await server.as('hamlet').post('/register', { fetch_event_types: ['realm_bot'] }));
  const record = reg.realm_bots.find((b: { user_id: number }) => b.user_id === res.user_id);
  return { id: res.user_id, email: record.email, fullName, token: record.services[0].token };
}

const topicMessages = async (channel: number, topic: string) =>
  (await fetchMessages(server, 'hamlet', { narrow: JSON.stringify([{ operator: 'channel', operand: channel }, { operator: 'topic', operand: topic }]) })).messages as Record<string, any>[];
const dmsWith = async (who: 'hamlet', otherId: number) =>
  (await fetchMessages(server, who, { narrow: JSON.stringify([{ operator: 'dm', operand: [otherId] }]) })).messages as Record<string, any>[];

test('a mention in a channel POSTs the reference payload; the JSON answer is posted by the bot in the topic, once', async () => {
  behaviour.set('/echo', (_n, body) => [200, { content: `echo: ${JSON.parse(body).data}` }]);
  const bot = await makeBot(unique('Echo'), '/echo');
  const channel = await createChannel(server, 'hamlet', ['hamlet', 'cordelia']);
  const id = await sendToChannel(server, 'cordelia', channel, 'greetings', `@**${bot.fullName}** hello *there*`);
  const reply = await waitFor('the reply', async () => (await topicMessages(channel, 'greetings')).find((m) => m.sender_id === bot.id));
  assert.equal(reply.content, `<p>echo: <span class="user-mention" data-user-id="${bot.id}">@${bot.fullName}</span> hello <em>there</em></p>`);
  assert.equal(reply.client, 'OutgoingWebhookResponse');

  const [req] = requestsTo('/echo');
  assert.equal(req.contentType, 'application/json');
  const payload = JSON.parse(req.body);
  assert.deepEqual(Object.keys(payload).sort(), ['bot_email', 'bot_full_name', 'data', 'message', 'token', 'trigger']);
  assert.deepEqual([payload.bot_email, payload.bot_full_name, payload.token, payload.trigger, payload.data], [bot.email, bot.fullName, bot.token, 'mention', `@**${bot.fullName}** hello *there*`]);
  const m = payload.message;
  assert.deepEqual([m.id, m.type, m.stream_id, m.subject, m.sender_id, m.content], [id, 'stream', channel, 'greetings', server.users.cordelia.id, `@**${bot.fullName}** hello *there*`]);
  assert.match(m.rendered_content, /<em>there<\/em>/);
  for (const key of ['display_recipient', 'sender_email', 'sender_full_name', 'timestamp', 'recipient_id', 'reactions', 'submessages', 'sender_realm_str', 'avatar_url']) assert.ok(key in m, key);
  // The bot's own answer mentions it (the echo), yet triggers nothing.
  await sleep(1500);
  assert.equal(requestsTo('/echo').length, 1);
});

test('a mention in a private channel the bot is not subscribed to triggers nothing', async () => {
  behaviour.set('/nosy', () => [200, { content: 'I saw that' }]);
  const bot = await makeBot(unique('Nosy'), '/nosy');
  const secret = await createChannel(server, 'hamlet', ['hamlet'], { invite_only: true });
  await sendToChannel(server, 'hamlet', secret, 's', `@**${bot.fullName}** secret plans`);
  const open = await createChannel(server, 'hamlet', ['hamlet']);
  await sendToChannel(server, 'hamlet', open, 'o', `@**${bot.fullName}** public plans`);
  await waitFor('the public trigger', async () => (requestsTo('/nosy').length ? true : undefined));
  await sleep(1000);
  assert.deepEqual(requestsTo('/nosy').map((r) => JSON.parse(r.body).data), [`@**${bot.fullName}** public plans`]);
});

test('a direct message to the bot triggers direct_message; the answer comes back in the conversation', async () => {
  behaviour.set('/dm', () => [200, { content: 'at your service' }]);
  const bot = await makeBot(unique('Dm'), '/dm');
  await server.as('hamlet').post('/messages', { type: 'direct', to: JSON.stringify([bot.id]), content: 'help me' });
  const reply = await waitFor('the reply', async () => (await dmsWith('hamlet', bot.id)).find((m) => m.sender_id === bot.id));
  assert.equal(reply.content, '<p>at your service</p>');
  const payload = JSON.parse(requestsTo('/dm')[0].body);
  assert.equal(payload.trigger, 'direct_message');
  assert.equal(payload.data, 'help me');
  assert.equal(payload.message.type, 'private');
});

test('response_not_required, or no content, posts nothing', async () => {
  behaviour.set('/quiet', (n) => [200, n === 1 ? { response_not_required: true } : { content: '' }]);
  const bot = await makeBot(unique('Quiet'), '/quiet');
  const channel = await createChannel(server, 'hamlet', ['hamlet']);
  await sendToChannel(server, 'hamlet', channel, 'q', `@**${bot.fullName}** one`);
  await sendToChannel(server, 'hamlet', channel, 'q', `@**${bot.fullName}** two`);
  await waitFor('both requests', async () => (requestsTo('/quiet').length === 2 ? true : undefined));
  await sleep(1000);
  assert.deepEqual((await topicMessages(channel, 'q')).map((m) => m.sender_id), [server.users.hamlet.id, server.users.hamlet.id]);
});

test('interface 2 sends the Slack-compatible form and posts its text', async () => {
  behaviour.set('/slack', () => [200, { text: 'slack says hi' }]);
  const bot = await makeBot(unique('Slacky'), '/slack', 2);
  const channel = await createChannel(server, 'hamlet', ['hamlet']);
  const id = await sendToChannel(server, 'hamlet', channel, 'sl', `@**${bot.fullName}** ping`);
  const reply = await waitFor('the reply', async () => (await topicMessages(channel, 'sl')).find((m) => m.sender_id === bot.id));
  assert.equal(reply.content, '<p>slack says hi</p>');
  const [req] = requestsTo('/slack');
  assert.equal(req.contentType, 'application/x-www-form-urlencoded');
  const form = Object.fromEntries(new URLSearchParams(req.body));
  assert.deepEqual(Object.keys(form).sort(), ['channel_id', 'channel_name', 'service_id', 'team_domain', 'team_id', 'text', 'thread_ts', 'timestamp', 'token', 'trigger_word', 'user_id', 'user_name']);
  assert.deepEqual([form.token, form.channel_id, form.user_id, form.user_name, form.text, form.trigger_word, form.service_id],
    [bot.token, `C${channel}`, `U${server.users.hamlet.id}`, 'King Hamlet', `@**${bot.fullName}** ping`, 'mention', String(bot.id)]);
  assert.ok(Number(form.timestamp) > 0 && id > 0);

  // Slack's outgoing webhooks have no direct messages: the bot says so, and nothing is sent.
  await server.as('hamlet').post('/messages', { type: 'direct', to: JSON.stringify([bot.id]), content: 'psst' });
  const failure = await waitFor('the failure', async () => (await dmsWith('hamlet', bot.id)).find((m) => m.sender_id === bot.id));
  assert.equal(failure.content, "<p>Failure! Slack outgoing webhooks don't support direct messages.</p>");
  assert.equal(requestsTo('/slack').length, 1);
});

test('5xx answers are tried again with back-off, and the later answer is posted', async () => {
  behaviour.set('/flaky', (n) => (n <= 2 ? [502, 'bad gateway'] : [200, { content: 'third time lucky' }]));
  const bot = await makeBot(unique('Flaky'), '/flaky');
  const channel = await createChannel(server, 'hamlet', ['hamlet']);
  await sendToChannel(server, 'hamlet', channel, 'f', `@**${bot.fullName}** try`);
  const reply = await waitFor('the reply', async () => (await topicMessages(channel, 'f')).find((m) => m.sender_id === bot.id), 20_000);
  assert.equal(reply.content, '<p>third time lucky</p>');
  assert.equal(requestsTo('/flaky').length, 3);
});

test('after the last failure: "Bot is unavailable" in the topic, and the owner hears from the Notification Bot', async () => {
  behaviour.set('/down', () => [503, 'maintenance']);
  const bot = await makeBot(unique('Down'), '/down');
  const channel = await createChannel(server, 'hamlet', ['hamlet']);
  const started = Date.now();
  const id = await sendToChannel(server, 'hamlet', channel, 'd', `@**${bot.fullName}** anyone?`);
  const failure = await waitFor('the failure', async () => (await topicMessages(channel, 'd')).find((m) => m.sender_id === bot.id), 40_000);
  assert.equal(failure.content, '<p>Failure! Bot is unavailable</p>');
  assert.equal(requestsTo('/down').length, 4);
  const notice = await waitFor('the notice', async () => {
    const res = await fetchMessages(server, 'hamlet', { narrow: JSON.stringify([{ operator: 'is', operand: 'dm' }]), apply_markdown: 'false' });
    return (res.messages as Record<string, any>[]).find((m) => m.content.includes(`@_**${bot.fullName}**`));
  });
  assert.ok(Date.now() - started < 60_000);
  assert.equal(notice.sender_full_name, 'Notification Bot');
  assert.match(notice.content, new RegExp(`^\\[A message\\]\\(http://[^)]+/#narrow/channel/${channel}-[^)]+/topic/d/near/${id}\\) to your bot @_\\*\\*${bot.fullName}\\*\\* triggered an outgoing webhook\\.\n`));
  assert.match(notice.content, /\nThird party responded with 503\nThe webhook got a response with status code \*503\*\.\nThe response contains the following payload:\n```\nmaintenance\n```$/);
});

test('a 4xx answer fails at once, and an address that is not allowed is never contacted', async () => {
  behaviour.set('/missing', () => [404, { error: 'no such hook' }]);
  const bot = await makeBot(unique('Missing'), '/missing');
  const channel = await createChannel(server, 'hamlet', ['hamlet']);
  await sendToChannel(server, 'hamlet', channel, 'm', `@**${bot.fullName}** hello`);
  const failure = await waitFor('the failure', async () => (await topicMessages(channel, 'm')).find((m) => m.sender_id === bot.id));
  assert.equal(failure.content, '<p>Failure! Third party responded with 404</p>');
  assert.equal(requestsTo('/missing').length, 1);

  const fullName = unique('Private');
  const res = assertSuccess(await server.as('hamlet').post('/bots', {
    full_name: fullName, short_name: 'private', bot_type: 3, payload_url: JSON.stringify('http://10.0.0.1/hook'), interface_type: 1,
  }));
  await sendToChannel(server, 'hamlet', channel, 'p', `@**${fullName}** hello`);
  const notice = await waitFor('the notice', async () => {
    const r = await fetchMessages(server, 'hamlet', { narrow: JSON.stringify([{ operator: 'is', operand: 'dm' }]), apply_markdown: 'false' });
    return (r.messages as Record<string, any>[]).find((m) => m.content.includes(`@_**${fullName}**`));
  });
  assert.match(notice.content, /\nThe URL configured for the webhook is for a private or disallowed network\.$/);
  assert.ok(res.user_id);
});

test('bots answering bots stop after three answers', async () => {
  const a = unique('Ping');
  const b = unique('Pong');
  behaviour.set('/ping', () => [200, { content: `@**${b}** ping` }]);
  behaviour.set('/pong', () => [200, { content: `@**${a}** pong` }]);
  await makeBot(a, '/ping');
  await makeBot(b, '/pong');
  const channel = await createChannel(server, 'hamlet', ['hamlet']);
  await sendToChannel(server, 'hamlet', channel, 'chain', `@**${a}** start`);
  await waitFor('three answers', async () => ((await topicMessages(channel, 'chain')).length === 4 ? true : undefined));
  await sleep(2000);
  assert.equal((await topicMessages(channel, 'chain')).length, 4);
  assert.deepEqual([requestsTo('/ping').length, requestsTo('/pong').length], [2, 1]);
});

test('a delivery in flight when the server is killed (-9) is delivered after the restart', async () => {
  behaviour.set('/crash', (n) => (n === 1 ? null : [200, { content: 'survived' }]));
  const bot = await makeBot(unique('Crash'), '/crash');
  const channel = await createChannel(server, 'hamlet', ['hamlet']);
  await sendToChannel(server, 'hamlet', channel, 'c', `@**${bot.fullName}** are you there?`);
  await waitFor('the first attempt', async () => (requestsTo('/crash').length ? true : undefined));
  await server.restart('SIGKILL');
  const reply = await waitFor('the reply', async () => (await topicMessages(channel, 'c')).find((m) => m.sender_id === bot.id), 40_000);
  assert.equal(reply.content, '<p>survived</p>');
  assert.equal(requestsTo('/crash').length, 2);
});
