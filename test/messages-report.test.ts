// POST /messages/{message_id}/report: checks, and the Notification Bot's report in the moderation channel.
import { test, after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { ParamValue } from './helpers/client.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { Listeners } from './helpers/events.js';
import { assertError, createChannel, fetchMessages, sendDm, sendToChannel, takeUntil, withApp } from './helpers/messages.js';
import { findRealm, updateRealm } from '../src/store/realms.js';

let server: TestServer;
let verona: number; // public: hamlet, cordelia
let moderation: number; // private: iago, shiva
before(async () => {
  server = await startTestServer();
  verona = await createChannel(server, 'iago', ['hamlet', 'cordelia']);
  moderation = await createChannel(server, 'iago', ['iago', 'shiva'], { invite_only: true });
});
after(() => server.close());

async function setModerationChannel(id: number | null): Promise<void> {
  await withApp(server, async (app) => {
    const realm = (await findRealm(app.db, 1))!;
    await updateRealm(app.db, realm.id, { settings: { ...realm.settings, moderation_request_channel_id: id } });
  });
}

const report = (id: number, params: Record<string, ParamValue>, who: 'cordelia' | 'hamlet' | 'shiva' = 'cordelia') => server.as(who).post(`/messages/${id}/report`, params);
const mention = (name: 'hamlet' | 'cordelia' | 'iago') => `@_**${server.users[name].fullName}|${server.users[name].id}**`;

describe('refusals', () => {
  test('without a moderation request channel, and with bad parameters', async () => {
    const id = await sendToChannel(server, 'hamlet', verona, 't', 'rude words');
    for (const setting of [null, -1, 999999]) {
      await setModerationChannel(setting);
      assertError(await report(id, { report_type: 'spam' }), 'Moderation request channel must be specified to enable message reporting.');
    }
    assertError(await report(id, { report_type: 'other' }), 'An explanation is required.');
    assertError(await report(id, { report_type: 'other', description: '   ' }), 'An explanation is required.');
    const type = await report(id, { report_type: 'bogus' });
    assert.equal(type.status, 400);
    assert.equal(type.body.msg, 'Invalid report_type: "bogus"');
    const missing = await server.as('cordelia').post(`/messages/${id}/report`, {});
    assertError(missing, "Missing 'report_type' argument", 'REQUEST_VARIABLE_MISSING');

    await setModerationChannel(moderation);
    assertError(await report(id, { report_type: 'norms', description: '😀'.repeat(1001) }), 'description is too long (limit: 1000 characters)');
    const dm = await sendDm(server, 'hamlet', ['iago'], 'between us');
    assertError(await report(dm, { report_type: 'spam' }), 'Invalid message(s)');
    assertError(await report(999999, { report_type: 'spam' }), 'Invalid message(s)');
  });
});

describe('reports', () => {
  test('the Notification Bot posts the report to the moderation channel', async () => {
    await setModerationChannel(moderation);
    const id = await sendToChannel(server, 'hamlet', verona, 'Quarrel', 'you are a **fool**');
    const l = await Listeners.open(server, ['iago', 'shiva', 'cordelia', 'hamlet'], { event_types: ['message', 'realm_user'], apply_markdown: false });
    const res = await report(id, { report_type: 'harassment', description: 'Not nice.' });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { result: 'success', msg: '' });

    const events = await takeUntil(l, 'iago', 'message');
    assert.equal(events.length, 1);
    const m = events[0].message;
    assert.equal(m.stream_id, moderation);
    assert.equal(m.subject, 'King Hamlet moderation');
    assert.equal(m.sender_full_name, 'Notification Bot');
    assert.match(m.sender_email, /^notification-bot@/);
    assert.deepEqual(events[0].flags, []);
    const content: string = m.content;
    assert.ok(content.startsWith(`${mention('cordelia')} reported a message sent by ${mention('hamlet')} at <time:`), content);
    assert.ok(content.includes('```quote\n**Harassment**. Not nice.\n```'), content);
    assert.ok(content.includes(`spoiler Original message at #**`) && content.includes(`>Quarrel@${id}**\nyou are a **fool**\n`), content);
    assert.equal((await takeUntil(l, 'shiva', 'message')).length, 1);
    assert.equal((await l.take('cordelia', 'message')).length, 0);
    const seenByHamlet = await l.take('hamlet');
    assert.equal(seenByHamlet.filter((e) => e.type === 'message').length, 0);

    // The bot was created on the way, once: a server bot, in cross_realm_bots rather than among the organization's
    // users (as the reference's), so nobody is told of it as of a new user.
    assert.equal(seenByHamlet.filter((e) => e.type === 'realm_user' && e.op === 'add').length, 0);
    const reg = (await server.as('hamlet').post('/register', { fetch_event_types: ['realm_user'] })).body;
    const bots = reg.cross_realm_bots.filter((u: { user_id: number }) => u.user_id === m.sender_id);
    assert.deepEqual(bots.map((u: { full_name: string; is_bot: boolean }) => [u.full_name, u.is_bot]), [['Notification Bot', true]]);

    const again = await report(id, { report_type: 'spam' });
    assert.equal(again.status, 200, again.text);
    const second = (await takeUntil(l, 'iago', 'message'))[0].message;
    assert.equal(second.sender_id, m.sender_id);
    assert.ok(second.content.includes('**Spam**. \n'), second.content);
    assert.equal((await l.take('hamlet', 'realm_user')).length, 0);
    const history = await fetchMessages(server, 'iago', { narrow: [{ operator: 'channel', operand: moderation }] });
    assert.deepEqual(history.messages.map((x: { sender_id: number }) => x.sender_id), [m.sender_id, m.sender_id]);
  });

  test('direct messages: reporting one\'s own names the recipient; group conversations name the others', async () => {
    await setModerationChannel(moderation);
    const l = await Listeners.open(server, ['iago'], { event_types: ['message'], apply_markdown: false });
    const own = await sendDm(server, 'cordelia', ['hamlet'], 'sorry');
    assert.equal((await report(own, { report_type: 'other', description: 'I regret this' })).status, 200);
    const first = (await takeUntil(l, 'iago', 'message'))[0].message;
    assert.ok(first.content.startsWith(`${mention('cordelia')} reported a message sent by ${mention('cordelia')} to ${mention('hamlet')} at `), first.content);
    assert.equal(first.subject, "Cordelia, Lear's daughter moderation");
    assert.match(first.content, /\[Original message\]\(http:\/\/[^)]+\/#narrow\/dm\/\d+,\d+-dm\/near\/\d+\)/);

    const group = await sendDm(server, 'hamlet', ['cordelia', 'iago'], 'group ```fence``` text');
    assert.equal((await report(group, { report_type: 'inappropriate' })).status, 200);
    const reported = (e: Record<string, any>) => e.message.stream_id === moderation;
    const second = (await takeUntil(l, 'iago', 'message', reported)).find(reported)!.message;
    assert.ok(second.content.includes(`sent by ${mention('hamlet')} to ${mention('iago')} and ${mention('cordelia')} at `) || second.content.includes(`sent by ${mention('hamlet')} to ${mention('cordelia')} and ${mention('iago')} at `), second.content);
    assert.ok(second.content.includes('\n```` spoiler '), 'the fence is longer than any run of backticks in the message');
  });

  test('a moderation channel allowing only the general chat gets reports there', async () => {
    const general = await createChannel(server, 'iago', ['iago'], { invite_only: true, topics_policy: 'empty_topic_only' });
    await setModerationChannel(general);
    const l = await Listeners.open(server, ['iago'], { event_types: ['message'], client_capabilities: { empty_topic_name: true } });
    const id = await sendToChannel(server, 'hamlet', verona, 't', 'spam spam');
    assert.equal((await report(id, { report_type: 'spam' }, 'shiva')).status, 200);
    const [e] = await takeUntil(l, 'iago', 'message');
    assert.equal(e.message.stream_id, general);
    assert.equal(e.message.subject, '');
  });
});

test('first reports at once create one Notification Bot (the second organization has none yet)', async () => {
  const lear = server.as('lear');
  const name = 'Lear moderation';
  assert.equal((await lear.post('/users/me/subscriptions', { subscriptions: [{ name }], invite_only: true })).status, 200);
  const channel = (await lear.get('/get_stream_id', { stream: name })).body.stream_id;
  await withApp(server, async (app) => {
    const { findRealmBySubdomain } = await import('../src/store/realms.js');
    const realm = (await findRealmBySubdomain(app.db, 'lear'))!;
    await updateRealm(app.db, realm.id, { settings: { ...realm.settings, moderation_request_channel_id: channel } });
  });
  const id = (await lear.post('/messages', { type: 'stream', to: channel, topic: 't', content: 'mine' })).body.id;
  const replies = await Promise.all([1, 2, 3, 4].map(() => lear.post(`/messages/${id}/report`, { report_type: 'spam' })));
  for (const r of replies) assert.equal(r.status, 200, r.text);
  const bots = (await lear.post('/register', { fetch_event_types: ['realm_user'] })).body.cross_realm_bots as { full_name: string; is_bot: boolean }[];
  assert.equal(bots.filter((u) => u.full_name === 'Notification Bot' && u.is_bot).length, 1);
});
