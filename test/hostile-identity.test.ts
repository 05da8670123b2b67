// Hostile identity input. A forged `Host` may pick the organization but must never reach anything stored or sent:
// notices with links, reports, reminders, bot and system-bot addresses, invitation links, realm_url. And names
// with control, surrogate or non-character code points are refused with the reference's messages, positions
// counted in code points from 1.
import { test, after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { startTestServer, type SeedName, type TestServer } from './helpers/server.js';
import { Client, send, type Reply } from './helpers/client.js';
import { assertSuccess } from './helpers/assertions.js';
import { eventually } from './helpers/events.js';
import { createChannel, sendDm, sendToChannel, withApp } from './helpers/messages.js';
import { findRealmBySubdomain, updateRealm } from '../src/store/realms.js';

const EVIL = 'evil.example';

describe('a forged Host header', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server?.close());

  // The same user, reaching the default organization through the forged host.
  const forged = (who: SeedName) => new Client(server.url, { email: server.users[who].email, apiKey: server.users[who].apiKey }, 'urlencoded', EVIL);
  const replies: Reply[] = [];
  const ok = (res: Reply) => (replies.push(res), assertSuccess(res));

  test('triggers every kind of notice and stored URL, and leaves the host nowhere', async () => {
    const square = await createChannel(server, 'iago', ['iago', 'hamlet', 'cordelia']);
    const moderation = await createChannel(server, 'iago', ['iago'], { invite_only: true });
    await withApp(server, async (app) => {
      const realm = (await findRealmBySubdomain(app.db, ''))!;
      await updateRealm(app.db, realm.id, {
        settings: { ...realm.settings, moderation_request_channel_id: moderation, send_channel_events_messages: true, new_stream_announcements_stream_id: square },
      });
    });
    const l = forged('hamlet');
    // Read as a client would: realm_url and the addresses it is told.
    const settings = ok(await forged('cordelia').get('/server_settings'));
    // Unconfigured, the organization's URL is the address printed at start-up, and the log says so.
    assert.equal(settings.realm_url, server.url);
    await eventually(async () => (server.stdout.includes('PARLANCE_EXTERNAL_URL is not set') ? true : undefined), 5000);
    assert.match(server.stdout, new RegExp(`PARLANCE_EXTERNAL_URL is not set: .* use ${server.url.replace(/[.]/g, '\\.')}`));
    const state = ok(await l.post('/register', {}));
    assert.deepEqual([state.realm_url, state.realm_bot_domain], [server.url, new URL(server.url).hostname]);
    // The first notice creates the Notification Bot: its address must not come from the host.
    const moved = await sendToChannel(server, 'hamlet', square, 'before', 'to be moved');
    ok(await forged('iago').patch(`/messages/${moved}`, { topic: 'after', propagate_mode: 'change_all', send_notification_to_old_thread: true }));
    // A report of a direct message carries a link to it.
    const dm = await sendDm(server, 'hamlet', ['cordelia'], 'rude words');
    ok(await forged('cordelia').post(`/messages/${dm}/report`, { report_type: 'spam' }));
    // A reminder stores a link to the message, and is delivered later.
    ok(await l.post('/reminders', { message_id: dm, scheduled_delivery_timestamp: Math.floor(Date.now() / 1000) + 2 }));
    ok(await forged('cordelia').post('/reminders', { message_id: moved, scheduled_delivery_timestamp: Math.floor(Date.now() / 1000) + 2, note: 'look' }));
    // A bot's address; a new channel announced; a channel's description changed.
    const bot = ok(await l.post('/bots', { full_name: 'Forged Helper', short_name: 'forged' }));
    ok(await l.post('/users/me/subscriptions', { subscriptions: [{ name: 'Forged news' }], principals: [server.users.cordelia.id], announce: true }));
    ok(await forged('iago').patch(`/streams/${square}`, { description: 'changed through a forged host' }));
    // Invitation links, and signing up through one: the page's link and the Welcome Bot.
    const invite = ok(await forged('iago').post('/invites/multiuse', {}));
    ok(await forged('iago').get('/invites'));
    const joinPath = new URL(invite.invite_link).pathname;
    const page = await send('POST', new URL(joinPath, server.url), { host: EVIL, 'content-type': 'application/x-www-form-urlencoded' },
      new URLSearchParams({ full_name: 'Newcomer', email: 'newcomer@zulip.example.com', password: 'correct horse' }).toString());
    // The newcomer lands in the web app: a redirect and a session cookie, neither naming the forged host.
    assert.equal(page.status, 303, page.text);
    assert.ok(!JSON.stringify(page.headers).includes(EVIL), JSON.stringify(page.headers));
    replies.push(page);
    await new Promise((r) => setTimeout(r, 3500)); // the reminders' delivery

    const seenBot = assertSuccess(await server.as('iago').get(`/users/${bot.user_id}`)).user;
    assert.equal(seenBot.email, `forged-bot@${new URL(server.url).hostname}`);
    for (const res of replies) assert.ok(!res.text.includes(EVIL), `${res.method} ${res.path}: ${res.text}`);
    const { hits, seen } = await withApp(server, async (app) => {
      const hits: string[] = [];
      const seen = new Set<string>();
      for (const table of await app.db.introspection.getTables()) {
        const rows = (await sql<Record<string, unknown>>`select * from ${sql.table(table.name)}`.execute(app.db)).rows;
        for (const row of rows) {
          const text = JSON.stringify(row, (_k, v) => (typeof v === 'bigint' ? String(v) : v));
          if (text.includes(EVIL)) hits.push(`${table.name}: ${text.slice(0, 300)}`);
          for (const mark of ['forged-bot@', 'notification-bot@', 'welcome-bot@', '/#narrow/dm/', '/join/']) if (text.includes(mark)) seen.add(mark);
        }
      }
      return { hits, seen };
    });
    // The scan did read what the requests wrote: bots, notices with links, invitation links.
    assert.deepEqual([...seen].sort(), ['/#narrow/dm/', 'forged-bot@', 'notification-bot@', 'welcome-bot@'].sort());
    assert.deepEqual(hits, [], 'the forged host was stored');
  });
});

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
