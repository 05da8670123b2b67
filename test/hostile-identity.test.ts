// Hostile identity input. A forged `Host` may pick the organization but must never reach anything stored or sent:
// notices with links, reports, reminders, bot and system-bot addresses, invitation links, realm_url. And names
// with control, surrogate or non-character code points are refused with the reference's messages, positions
// counted in code points from 1.
import { test, after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type SeedName, type TestServer } from './helpers/server.js';
import { send, type Reply } from './helpers/client.js';
import { assertSuccess } from './helpers/assertions.js';
import { createChannel, sendToChannel } from './helpers/messages.js';

describe('names with invalid code points', () => {
  let server: TestServer;
  let channel: number;
  let group: number;
  let bot: number;
  let message: number;
  before(async () => {
    server = await startTestServer();
    channel = await createChannel(server, 'iago', ['iago', 'hamlet']);
    message = await sendToChannel(server, 'hamlet', channel, 'fine', 'a message');
    group = assertSuccess(await server.as('iago').post('/user_groups/create', { name: 'Valid group', description: '', members: [server.users.iago.id] })).group_id;
    bot = assertSuccess(await server.as('hamlet').post('/bots', { full_name: 'Valid Bot', short_name: 'valid' })).user_id;
  });
  after(() => server?.close());

  // JSON bodies carry lone surrogates, which no percent-encoding can.
  const json = (who: SeedName, method: string, path: string, body: Record<string, unknown>) =>
    send(method, new URL(`/api/v1${path}`, server.url), { ...server.as(who).headers(), 'content-type': 'application/json' }, JSON.stringify(body));

  // Each bad character at a known code-point position: a lone surrogate (after an emoji, which counts once), a
  // control character, a C1 control, a non-character.
  const BAD: [string, number][] = [['a\u{1F600}\ud800b', 3], ['ab\udfff', 3], ['a\u0007b', 2], ['ab\u009f', 3], ['x\ufffe', 2], ['x\u{1FFFF}y', 2]];

  function refused(res: Reply, msg: string, what: string): void {
    assert.equal(res.status, 400, `${what}: ${res.text}`);
    assert.equal(res.body.msg, msg, what);
    assert.equal(res.body.code, 'BAD_REQUEST', what);
  }

  test('channel names', async () => {
    for (const [name, at] of BAD) {
      const msg = `Invalid character in channel name, at position ${at}.`;
      refused(await server.as('iago').post('/users/me/subscriptions', { subscriptions: JSON.stringify([{ name }]) }), msg, `create ${JSON.stringify(name)}`);
      refused(await json('iago', 'PATCH', `/streams/${channel}`, { new_name: name }), msg, `rename ${JSON.stringify(name)}`);
    }
  });

  test('topics: sending, editing, moving, scheduling', async () => {
    for (const [topic, at] of [...BAD, ['two\nlines', 4] as [string, number]]) {
      const msg = `Invalid character in topic, at position ${at}!`;
      refused(await json('hamlet', 'POST', '/messages', { type: 'stream', to: channel, topic, content: 'x' }), msg, `send ${JSON.stringify(topic)}`);
      refused(await json('hamlet', 'PATCH', `/messages/${message}`, { topic }), msg, `edit ${JSON.stringify(topic)}`);
      refused(await json('hamlet', 'POST', '/scheduled_messages', { type: 'stream', to: channel, topic, content: 'x', scheduled_delivery_timestamp: Math.floor(Date.now() / 1000) + 3600 }), msg,
        `schedule ${JSON.stringify(topic)}`);
    }
  });

  test('user and bot names', async () => {
    for (const [name] of BAD) {
      const msg = 'Invalid characters in name!';
      refused(await json('hamlet', 'PATCH', '/settings', { full_name: name.padEnd(4, 'z') }), msg, `settings ${JSON.stringify(name)}`);
      refused(await json('iago', 'PATCH', `/users/${server.users.cordelia.id}`, { full_name: name.padEnd(4, 'z') }), msg, `admin ${JSON.stringify(name)}`);
      refused(await json('iago', 'POST', '/users', { email: 'newbie@zulip.example.com', password: 'correct horse', full_name: name.padEnd(4, 'z') }), msg, `create ${JSON.stringify(name)}`);
      refused(await json('hamlet', 'POST', '/bots', { full_name: name.padEnd(4, 'z'), short_name: 'badname' }), msg, `bot ${JSON.stringify(name)}`);
      refused(await json('hamlet', 'PATCH', `/bots/${bot}`, { full_name: name.padEnd(4, 'z') }), msg, `bot rename ${JSON.stringify(name)}`);
    }
  });

  test('user group names', async () => {
    for (const [name, at] of BAD) {
      const msg = `Invalid character in user group name, at position ${at}.`;
      refused(await json('iago', 'POST', '/user_groups/create', { name, description: '', members: [server.users.iago.id] }), msg, `create ${JSON.stringify(name)}`);
      refused(await json('iago', 'PATCH', `/user_groups/${group}`, { name }), msg, `rename ${JSON.stringify(name)}`);
    }
  });
});
