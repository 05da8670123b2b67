// POST /messages: addressing channels and direct-message conversations, every refusal, content and topic
// normalisation, and the mention flags each recipient gets.
import { test, after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { ParamValue } from './helpers/client.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { assertError, channelName, createChannel, fetchMessages, messageFlags, sendToChannel, unique } from './helpers/messages.js';

let server: TestServer;
let verona: number; // public: hamlet, cordelia, iago, polonius
before(async () => {
  server = await startTestServer();
  verona = await createChannel(server, 'iago', ['hamlet', 'cordelia', 'iago', 'polonius']);
});
after(() => server.close());

const single = async (who: 'hamlet' | 'cordelia' | 'iago', id: number, params: Record<string, ParamValue> = {}) => {
  const res = await server.as(who).get(`/messages/${id}`, params);
  assert.equal(res.status, 200, res.text);
  return res.body.message;
};

describe('addressing', () => {
  test('a channel by id, by name, by JSON name and by one-element list; type channel is stream', async () => {
    const name = await channelName(server, verona);
    for (const [type, to] of [['stream', verona], ['stream', name], ['channel', JSON.stringify(name)], ['stream', [name]], ['stream', [verona]]] as const) {
      const res = await server.as('hamlet').post('/messages', { type, to, topic: 'addressing', content: `to ${JSON.stringify(to)}` });
      assert.equal(res.status, 200, res.text);
      const m = await single('cordelia', res.body.id);
      assert.equal(m.type, 'stream');
      assert.equal(m.stream_id, verona);
      assert.equal(m.display_recipient, name);
      assert.equal(m.subject, 'addressing');
      assert.equal(m.sender_id, server.users.hamlet.id);
    }
  });

  test('direct messages by ids, JSON e-mails, comma-joined e-mails (as the JS library sends), one-to-one, group and self', async () => {
    const u = server.users;
    const cases: [ParamValue, number[], 'urlencoded' | 'multipart'][] = [
      [[u.cordelia.id], [u.hamlet.id, u.cordelia.id], 'urlencoded'],
      [[u.cordelia.email], [u.hamlet.id, u.cordelia.id], 'urlencoded'],
      [`${u.cordelia.email},${u.iago.email}`, [u.iago.id, u.hamlet.id, u.cordelia.id], 'multipart'],
      [u.cordelia.id, [u.hamlet.id, u.cordelia.id], 'multipart'],
      [[u.hamlet.id], [u.hamlet.id], 'urlencoded'],
      [[u.iago.id, u.cordelia.id, u.hamlet.id], [u.iago.id, u.hamlet.id, u.cordelia.id], 'urlencoded'],
    ];
    for (const [to, members, encoding] of cases) {
      for (const type of ['private', 'direct']) {
        const res = await server.as('hamlet', encoding).post('/messages', { type, to, content: 'hi' });
        assert.equal(res.status, 200, `${JSON.stringify(to)}: ${res.text}`);
        const m = await single('hamlet', res.body.id);
        assert.equal(m.type, 'private');
        assert.equal(m.subject, '');
        assert.ok(!('stream_id' in m));
        assert.deepEqual(m.display_recipient.map((r: { id: number }) => r.id), [...members].sort((a, b) => a - b));
        assert.deepEqual(Object.keys(m.display_recipient[0]).sort(), ['email', 'full_name', 'id', 'is_mirror_dummy']);
      }
    }
    // One conversation, one recipient id, whichever way it was addressed.
    const a = await server.as('hamlet').post('/messages', { type: 'direct', to: [u.cordelia.id], content: 'x' });
    const b = await server.as('cordelia').post('/messages', { type: 'direct', to: [u.hamlet.email], content: 'y' });
    assert.equal((await single('hamlet', a.body.id)).recipient_id, (await single('hamlet', b.body.id)).recipient_id);
  });
});

describe('refusals', () => {
  test('unknown and invisible channels, channels one may not post to, bad addresses, empty content, missing topic', async () => {
    const secret = await createChannel(server, 'iago', ['iago', 'shiva'], { invite_only: true });
    const secretName = await channelName(server, secret);
    const web = await createChannel(server, 'iago', ['iago']);
    const post = (who: 'hamlet' | 'desdemona' | 'polonius', params: Record<string, unknown>) => server.as(who).post('/messages', { type: 'stream', topic: 't', content: 'c', ...params });
    assertError(await post('hamlet', { to: 999999 }), "Channel with ID '999999' does not exist", 'STREAM_DOES_NOT_EXIST', { stream_id: 999999 });
    assertError(await post('hamlet', { to: 'Nowhere' }), "Channel 'Nowhere' does not exist", 'STREAM_DOES_NOT_EXIST', { stream: 'Nowhere' });
    // A private channel one cannot see is answered like a missing one.
    assertError(await post('hamlet', { to: secret }), `Channel with ID '${secret}' does not exist`, 'STREAM_DOES_NOT_EXIST', { stream_id: secret });
    assertError(await post('hamlet', { to: secretName }), `Channel '${secretName}' does not exist`, 'STREAM_DOES_NOT_EXIST', { stream: secretName });
    // An administrator knows of it but is not subscribed.
    assertError(await post('desdemona', { to: secret }), `Not authorized to send to channel '${secretName}'`);
    // Guests know only the public channels they are subscribed to.
    assertError(await post('polonius', { to: web }), `Channel with ID '${web}' does not exist`, 'STREAM_DOES_NOT_EXIST', { stream_id: web });
    assert.equal((await post('polonius', { to: verona })).status, 200);

    assertError(await server.as('hamlet').post('/messages', { type: 'stream', to: verona, content: 'c' }), 'Missing topic');
    for (const content of ['', '   ', '\n\n']) assertError(await post('hamlet', { to: verona, content }), 'Message must not be empty');
    const missing = await server.as('hamlet').post('/messages', { type: 'stream', to: verona, topic: 't' });
    assertError(missing, "Missing 'content' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'content' });

    const dm = (to: ParamValue) => server.as('hamlet').post('/messages', { type: 'direct', to, content: 'c' });
    assertError(await dm([999999]), 'Invalid user ID 999999');
    assertError(await dm(['nobody@zulip.example.com']), "Invalid email 'nobody@zulip.example.com'");
    assertError(await dm([]), 'Message must have recipients');
    const type = await server.as('hamlet').post('/messages', { type: 'huddle', to: [1], content: 'c' });
    assert.equal(type.status, 400);
  });

  test('can_send_message_group and can_create_topic_group, set at creation', async () => {
    const iago = server.users.iago.id;
    const announce = await createChannel(server, 'iago', ['iago', 'hamlet'], { can_send_message_group: { direct_members: [iago], direct_subgroups: [] } });
    assertError(await server.as('hamlet').post('/messages', { type: 'stream', to: announce, topic: 't', content: 'c' }), 'You do not have permission to post in this channel.');
    await sendToChannel(server, 'iago', announce, 't', 'allowed');

    const fixed = await createChannel(server, 'iago', ['iago', 'hamlet'], { can_create_topic_group: { direct_members: [iago], direct_subgroups: [] } });
    assertError(await server.as('hamlet').post('/messages', { type: 'stream', to: fixed, topic: 'new', content: 'c' }), 'You do not have permission to create new topics in this channel.');
    await sendToChannel(server, 'iago', fixed, 'Existing', 'opened by iago');
    // Topics match case-insensitively: replying in an existing topic is allowed.
    await sendToChannel(server, 'hamlet', fixed, 'existing', 'a reply');
  });

  test('topics_policy: disable_empty_topic refuses the general chat, empty_topic_only everything else', async () => {
    const noEmpty = await createChannel(server, 'iago', ['hamlet'], { topics_policy: 'disable_empty_topic' });
    for (const topic of ['', '(no topic)', 'general chat']) {
      assertError(await server.as('hamlet').post('/messages', { type: 'stream', to: noEmpty, topic, content: 'c' }), 'Sending messages to the general chat is not allowed in this channel.');
    }
    await sendToChannel(server, 'hamlet', noEmpty, 'named', 'fine');
    const onlyEmpty = await createChannel(server, 'iago', ['hamlet'], { topics_policy: 'empty_topic_only' });
    assertError(await server.as('hamlet').post('/messages', { type: 'stream', to: onlyEmpty, topic: 'named', content: 'c' }), 'Only the general chat topic is allowed in this channel.');
    await sendToChannel(server, 'hamlet', onlyEmpty, '', 'fine');
  });

  test('channel wildcard mentions in channels of more than 15 subscribers need can_mention_many_users_group', async () => {
    const names: string[] = [];
    for (let i = 0; i < 12; i++) {
      const email = `extra${i}-${unique('u').replace(/\W/g, '')}@zulip.example.com`;
      const res = await server.as('iago').post('/users', { email, password: 'a long password', full_name: `Extra ${i}` });
      assert.equal(res.status, 200, res.text);
      names.push(res.body.user_id);
    }
    const base = ['desdemona', 'iago', 'shiva', 'hamlet', 'cordelia'] as const;
    const crowd = await createChannel(server, 'iago', [...base]);
    const crowdName = await channelName(server, crowd);
    let res = await server.as('iago').post('/users/me/subscriptions', { subscriptions: [{ name: crowdName }], principals: names.slice(0, 10) });
    assert.equal(res.status, 200, res.text);
    // 15 subscribers: anyone may mention them all.
    await sendToChannel(server, 'hamlet', crowd, 't', 'hello @**all**');
    res = await server.as('iago').post('/users/me/subscriptions', { subscriptions: [{ name: crowdName }], principals: names.slice(10) });
    assert.equal(res.status, 200, res.text);
    for (const mention of ['@**all**', '@**everyone**', '@**channel**', '@**stream**']) {
      assertError(await server.as('hamlet').post('/messages', { type: 'stream', to: crowd, topic: 't', content: `hi ${mention}` }), 'You do not have permission to use channel wildcard mentions in this channel.', 'STREAM_WILDCARD_MENTION_NOT_ALLOWED');
    }
    // Silent wildcard mentions notify nobody, so they are allowed; administrators may mention everyone.
    await sendToChannel(server, 'hamlet', crowd, 't', 'hi @_**all**');
    await sendToChannel(server, 'iago', crowd, 't', 'hi @**all**');
  });
});

describe('normalisation', () => {
  test('content and topics are truncated by code points; (no topic) and the display name read as empty', async () => {
    const long = '😀'.repeat(10005);
    const id = await sendToChannel(server, 'hamlet', verona, '🐢'.repeat(61), long);
    const raw = await server.as('hamlet').get(`/messages/${id}`, { apply_markdown: false });
    const content: string = raw.body.message.content;
    assert.equal([...content].length, 10000);
    assert.ok(content.endsWith('\n[message truncated]'));
    assert.equal(raw.body.raw_content, content);
    assert.equal(raw.body.message.content_type, 'text/x-markdown');
    assert.equal(raw.body.message.subject, '🐢'.repeat(57) + '...');

    for (const topic of ['(no topic)', 'general chat', '   ']) {
      const m = await sendToChannel(server, 'hamlet', verona, topic, `to ${topic}`);
      assert.equal((await single('hamlet', m, { allow_empty_topic_name: true })).subject, '');
      assert.equal((await single('hamlet', m)).subject, 'general chat');
    }
    const trimmed = await sendToChannel(server, 'hamlet', verona, '  padded  ', '\n\nbody  \n');
    const m = await server.as('hamlet').get(`/messages/${trimmed}`);
    assert.equal(m.body.message.subject, 'padded');
    assert.equal(m.body.raw_content, 'body');
  });
});

describe('mention flags', () => {
  test('mentions flag the mentioned; silent ones flag nobody; @**all** flags every recipient', async () => {
    const mention = await sendToChannel(server, 'iago', verona, 'mentions', 'hello @**King Hamlet**');
    assert.deepEqual(await messageFlags(server, 'hamlet', mention), ['mentioned']);
    assert.deepEqual(await messageFlags(server, 'cordelia', mention), []);
    assert.deepEqual(await messageFlags(server, 'iago', mention), ['read']);
    const byId = await sendToChannel(server, 'iago', verona, 'mentions', `hello @**King Hamlet|${server.users.hamlet.id}**`);
    assert.deepEqual(await messageFlags(server, 'hamlet', byId), ['mentioned']);
    const rendered = await server.as('hamlet').get(`/messages/${byId}`);
    assert.match(rendered.body.message.content, new RegExp(`<span class="user-mention" data-user-id="${server.users.hamlet.id}">@King Hamlet</span>`));

    const silent = await sendToChannel(server, 'iago', verona, 'mentions', 'hello @_**King Hamlet**');
    assert.deepEqual(await messageFlags(server, 'hamlet', silent), []);

    const all = await sendToChannel(server, 'iago', verona, 'mentions', 'hello @**all**');
    for (const who of ['hamlet', 'cordelia'] as const) assert.deepEqual(await messageFlags(server, who, all), ['stream_wildcard_mentioned', 'wildcard_mentioned']);
    const silentAll = await sendToChannel(server, 'iago', verona, 'mentions', 'hello @_**all**');
    assert.deepEqual(await messageFlags(server, 'hamlet', silentAll), []);

    const dm = await server.as('iago').post('/messages', { type: 'direct', to: [server.users.hamlet.id, server.users.cordelia.id], content: 'hey @**Cordelia, Lear\'s daughter**' });
    assert.deepEqual(await messageFlags(server, 'cordelia', dm.body.id), ['mentioned']);
    assert.deepEqual(await messageFlags(server, 'hamlet', dm.body.id), []);
  });

  test('a mention finds users by the name they have now, in any case; an unknown id stays text', async () => {
    const before = (await server.as('polonius').get('/users/me')).body.full_name as string;
    const old = await sendToChannel(server, 'iago', verona, 'renamed', `hello @**${before.toUpperCase()}**`);
    assert.deepEqual(await messageFlags(server, 'polonius', old), ['mentioned']);
    const res = await server.as('polonius').patch('/settings', { full_name: 'Lord Chamberlain' });
    assert.equal(res.status, 200, res.text);
    const renamed = await sendToChannel(server, 'iago', verona, 'renamed', 'hello @**lord chamberlain**');
    assert.deepEqual(await messageFlags(server, 'polonius', renamed), ['mentioned']);
    const stale = await sendToChannel(server, 'iago', verona, 'renamed', `hello @**${before}**`);
    assert.deepEqual(await messageFlags(server, 'polonius', stale), []);
    const unknown = await sendToChannel(server, 'iago', verona, 'renamed', 'hello @**Lord Chamberlain|999999**');
    assert.deepEqual(await messageFlags(server, 'polonius', unknown), []);
    assert.doesNotMatch((await single('iago', unknown)).content, /user-mention/);
    assert.equal((await server.as('polonius').patch('/settings', { full_name: before })).status, 200);
  });

  test('@**topic** flags the topic\'s participants only', async () => {
    const topic = unique('participants');
    await sendToChannel(server, 'cordelia', verona, topic, 'first');
    const id = await sendToChannel(server, 'iago', verona, topic, 'ping @**topic**');
    assert.deepEqual(await messageFlags(server, 'cordelia', id), ['topic_wildcard_mentioned', 'wildcard_mentioned']);
    assert.deepEqual(await messageFlags(server, 'iago', id), ['read', 'topic_wildcard_mentioned', 'wildcard_mentioned']);
    assert.deepEqual(await messageFlags(server, 'hamlet', id), []);
    const body = await fetchMessages(server, 'cordelia', { narrow: [{ operator: 'is', operand: 'mentioned' }] });
    assert.ok(body.messages.some((m: { id: number }) => m.id === id));
  });

  test('read_by_sender=false leaves the message unread for its sender', async () => {
    const id = await sendToChannel(server, 'hamlet', verona, 'own', 'mine', { read_by_sender: false });
    assert.deepEqual(await messageFlags(server, 'hamlet', id), []);
    const read = await sendToChannel(server, 'hamlet', verona, 'own', 'mine too');
    assert.deepEqual(await messageFlags(server, 'hamlet', read), ['read']);
  });
});
