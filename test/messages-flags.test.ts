// POST /messages/flags and /messages/flags/narrow, their events, and the register blocks they keep current.
import { test, after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { Listeners } from './helpers/events.js';
import { validateResponse } from './helpers/openapi-messages.js';
import { assertError, channelName, createChannel, fetchMessages, messageFlags, sendDm, sendToChannel, takeUntil } from './helpers/messages.js';

let server: TestServer;
let verona: number; // public: hamlet, cordelia, iago
before(async () => {
  server = await startTestServer();
  verona = await createChannel(server, 'iago', ['hamlet', 'cordelia', 'iago']);
});
after(() => server.close());

const flags = (who: 'hamlet' | 'cordelia' | 'shiva', messages: number[], op: string, flag: string) => server.as(who).post('/messages/flags', { messages, op, flag });

describe('POST /messages/flags', () => {
  test('read, starred and collapsed are added and removed; only changes are reported and announced', async () => {
    const a = await sendToChannel(server, 'hamlet', verona, 'flags', 'one');
    const b = await sendToChannel(server, 'hamlet', verona, 'flags', 'two');
    const l = await Listeners.open(server, ['cordelia'], { event_types: ['update_message_flags'] });
    for (const flag of ['read', 'starred', 'collapsed']) {
      const add = await flags('cordelia', [a, b, a], 'add', flag);
      assert.equal(add.status, 200, add.text);
      assert.deepEqual(validateResponse('POST /messages/flags', add.body), []);
      assert.deepEqual(add.body.messages, [a, b]);
      assert.deepEqual((await flags('cordelia', [a], 'add', flag)).body.messages, []);
      assert.ok((await messageFlags(server, 'cordelia', a)).includes(flag));
      const [event] = await takeUntil(l, 'cordelia', 'update_message_flags');
      assert.deepEqual(event, { id: event.id, type: 'update_message_flags', op: 'add', operation: 'add', flag, messages: [a, b], all: false });
      assert.deepEqual((await flags('cordelia', [b], 'remove', flag)).body.messages, [b]);
      assert.ok(!(await messageFlags(server, 'cordelia', b)).includes(flag));
      const [removed] = await takeUntil(l, 'cordelia', 'update_message_flags');
      assert.deepEqual([removed.op, removed.flag, removed.messages], ['remove', flag, [b]]);
    }
  });

  test('unknown and read-only flags, and messages one cannot read, are refused', async () => {
    const id = await sendToChannel(server, 'hamlet', verona, 'flags', 'x');
    assertError(await flags('cordelia', [id], 'add', 'x'), "Invalid flag: 'x'");
    for (const flag of ['mentioned', 'wildcard_mentioned', 'stream_wildcard_mentioned', 'has_alert_word', 'historical']) {
      assertError(await flags('cordelia', [id], 'add', flag), `Flag not editable: '${flag}'`);
    }
    const bad = await server.as('cordelia').post('/messages/flags', { messages: [id], op: 'toggle', flag: 'read' });
    assert.equal(bad.status, 400);
    const dm = await sendDm(server, 'hamlet', ['iago'], 'private');
    for (const op of ['add', 'remove']) {
      assertError(await flags('cordelia', [dm], op, 'starred'), 'Invalid message(s)');
      assertError(await flags('cordelia', [999999], op, 'read'), 'Invalid message(s)');
    }
  });

  test('marking unread tells where the messages live', async () => {
    const inChannel = await sendToChannel(server, 'iago', verona, 'Where', 'hi @**King Hamlet**');
    const dm = await sendDm(server, 'cordelia', ['hamlet', 'iago'], 'group');
    await flags('hamlet', [inChannel, dm], 'add', 'read');
    const l = await Listeners.open(server, ['hamlet'], { event_types: ['update_message_flags'] });
    assert.deepEqual((await flags('hamlet', [inChannel, dm], 'remove', 'read')).body.messages, [inChannel, dm]);
    const [event] = await takeUntil(l, 'hamlet', 'update_message_flags');
    assert.deepEqual(event.message_details, {
      [inChannel]: { type: 'stream', stream_id: verona, topic: 'Where', unmuted_stream_msg: true, mentioned: true },
      [dm]: { type: 'private', user_ids: [server.users.iago.id, server.users.cordelia.id].sort((x, y) => x - y) },
    });
  });

  test('starring a message read from a public channel\'s history adds it to the user\'s messages', async () => {
    const id = await sendToChannel(server, 'hamlet', verona, 'history', 'worth a star');
    assert.deepEqual(await messageFlags(server, 'shiva', id), ['read', 'historical']);
    assert.deepEqual((await flags('shiva', [id], 'add', 'starred')).body.messages, [id]);
    assert.deepEqual(await messageFlags(server, 'shiva', id), ['read', 'starred', 'historical']);
    const starred = await fetchMessages(server, 'shiva', { narrow: [['is', 'starred']] });
    assert.deepEqual(starred.messages.map((m: { id: number }) => m.id), [id]);
    // Unread messages exist only in subscribed channels: marking this one unread is ignored.
    assert.deepEqual((await flags('shiva', [id], 'remove', 'read')).body.messages, []);
  });
});

// What a client does with the events: apply them to the state register gave it.
function apply(state: Record<string, any>, events: Record<string, any>[], me: number) {
  const u = state.unread_msgs;
  const dropUnread = (ids: number[]) => {
    for (const list of [u.pms, u.streams, u.huddles]) for (const o of list) o.unread_message_ids = o.unread_message_ids.filter((x: number) => !ids.includes(x));
    u.mentions = u.mentions.filter((x: number) => !ids.includes(x));
  };
  const addUnread = (id: number, d: Record<string, any>) => {
    if (d.type === 'stream') {
      let o = u.streams.find((s: any) => s.stream_id === d.stream_id && s.topic === d.topic);
      if (!o) u.streams.push((o = { stream_id: d.stream_id, topic: d.topic, unread_message_ids: [] }));
      o.unread_message_ids.push(id);
    } else if (d.user_ids.length <= 1) {
      const other = d.user_ids[0] ?? me;
      let o = u.pms.find((p: any) => p.other_user_id === other);
      if (!o) u.pms.push((o = { other_user_id: other, sender_id: other, unread_message_ids: [] }));
      o.unread_message_ids.push(id);
    } else {
      const key = [...d.user_ids, me].sort((a: number, b: number) => a - b).join(',');
      let o = u.huddles.find((h: any) => h.user_ids_string === key);
      if (!o) u.huddles.push((o = { user_ids_string: key, unread_message_ids: [] }));
      o.unread_message_ids.push(id);
    }
    if (d.mentioned) u.mentions.push(id);
  };
  for (const e of events) {
    if (e.type === 'message') {
      const m = e.message;
      state.max_message_id = Math.max(state.max_message_id, m.id);
      const others = m.type === 'private' ? m.display_recipient.map((r: any) => r.id).filter((id: number) => id !== me) : [];
      const mentioned = e.flags.some((f: string) => f.endsWith('mentioned'));
      if (!e.flags.includes('read')) addUnread(m.id, m.type === 'stream' ? { type: 'stream', stream_id: m.stream_id, topic: m.subject, mentioned } : { type: 'private', user_ids: others, mentioned });
      if (m.type === 'private') {
        const key = others.join();
        state.recent_private_conversations = state.recent_private_conversations.filter((c: any) => c.user_ids.join() !== key);
        state.recent_private_conversations.push({ max_message_id: m.id, user_ids: others });
      }
    } else if (e.type === 'update_message_flags' && e.flag === 'starred') {
      state.starred_messages = e.op === 'add' ? [...state.starred_messages, ...e.messages] : state.starred_messages.filter((x: number) => !e.messages.includes(x));
    } else if (e.type === 'update_message_flags' && e.flag === 'read') {
      if (e.op === 'add') dropUnread(e.messages);
      else for (const id of e.messages) addUnread(id, e.message_details[id]);
    }
  }
  return state;
}

function normal(state: Record<string, any>) {
  const u = state.unread_msgs;
  const byIds = (list: any[]) => list.filter((o) => o.unread_message_ids.length).map((o) => ({ ...o, unread_message_ids: [...o.unread_message_ids].sort((a, b) => a - b) }));
  const key = (o: any) => JSON.stringify([o.stream_id, o.topic, o.other_user_id, o.user_ids_string]);
  const streams = byIds(u.streams).sort((a, b) => key(a).localeCompare(key(b)));
  const pms = byIds(u.pms).sort((a, b) => a.other_user_id - b.other_user_id);
  const huddles = byIds(u.huddles).sort((a, b) => key(a).localeCompare(key(b)));
  const count = [...streams, ...pms, ...huddles].reduce((n, o) => n + o.unread_message_ids.length, 0);
  return {
    max_message_id: state.max_message_id,
    unread_msgs: { count, streams, pms, huddles, mentions: [...u.mentions].sort((a, b) => a - b), old_unreads_missing: u.old_unreads_missing },
    starred_messages: [...state.starred_messages].sort((a, b) => a - b),
    recent_private_conversations: [...state.recent_private_conversations].sort((a, b) => b.max_message_id - a.max_message_id),
  };
}

describe('register blocks', () => {
  const TYPES = ['message', 'update_message_flags', 'starred_messages', 'recent_private_conversations'];
  const register = async () => {
    const res = await server.as('cordelia').post('/register', { event_types: TYPES, fetch_event_types: TYPES });
    assert.equal(res.status, 200, res.text);
    return res.body;
  };

  test('max_message_id, unread_msgs, starred_messages and recent_private_conversations agree with the events', async () => {
    const me = server.users.cordelia.id;
    const first = await register();
    for (const key of ['max_message_id', 'unread_msgs', 'starred_messages', 'recent_private_conversations']) assert.ok(key in first, key);
    const events: Record<string, any>[] = [];
    const take = async () => {
      const res = await server.as('cordelia').get('/events', { queue_id: first.queue_id, last_event_id: events.at(-1)?.id ?? -1, dont_block: true });
      events.push(...res.body.events);
    };
    const topic = await sendToChannel(server, 'hamlet', verona, 'Agree', 'hello @**Cordelia, Lear\'s daughter**');
    const all = await sendToChannel(server, 'iago', verona, 'agree', 'hello @**all**');
    const dm = await sendDm(server, 'hamlet', ['cordelia'], 'direct');
    const group = await sendDm(server, 'iago', ['cordelia', 'hamlet'], 'group');
    const self = await sendDm(server, 'cordelia', ['cordelia'], 'self');
    const own = await sendDm(server, 'cordelia', ['hamlet'], 'mine', { read_by_sender: false });
    await flags('cordelia', [topic, dm], 'add', 'read');
    await flags('cordelia', [all, group], 'add', 'starred');
    await flags('cordelia', [dm], 'remove', 'read');
    await flags('cordelia', [group], 'remove', 'starred');
    // Events arrive shortly after the replies; the last change ends the wait.
    for (let i = 0; i < 100 && !events.some((e) => e.type === 'update_message_flags' && e.op === 'remove' && e.flag === 'starred'); i++) {
      await take();
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.ok(events.some((e) => e.type === 'message' && e.message.id === own));
    const second = await register();
    assert.deepEqual(normal(apply(structuredClone(first), events, me)), normal(second));
    assert.equal(second.max_message_id, own);
    assert.ok(second.starred_messages.includes(all));
    assert.ok(second.unread_msgs.mentions.includes(all));
    assert.ok(second.unread_msgs.pms.some((p: any) => p.other_user_id === server.users.hamlet.id && p.unread_message_ids.includes(dm) && p.unread_message_ids.includes(own)));
    assert.ok(second.unread_msgs.huddles.some((h: any) => h.unread_message_ids.includes(group)));
    assert.deepEqual(second.recent_private_conversations.slice(0, 3).map((c: any) => c.user_ids), [[server.users.hamlet.id], [], [server.users.iago.id, server.users.hamlet.id].sort((a, b) => a - b)]);
    assert.equal(second.recent_private_conversations[1].max_message_id, self);
  });

  test('muted channels leave the unread count; channels one left leave unread_msgs', async () => {
    const quiet = await createChannel(server, 'iago', ['cordelia', 'iago']);
    const id = await sendToChannel(server, 'iago', quiet, 'hush', 'psst');
    const before = (await register()).unread_msgs;
    const mute = await server.as('cordelia').patch(`/users/me/subscriptions/${quiet}`, { property: 'is_muted', value: true });
    assert.equal(mute.status, 200, mute.text);
    const muted = (await register()).unread_msgs;
    assert.equal(muted.count, before.count - 1);
    assert.ok(muted.streams.some((s: any) => s.unread_message_ids.includes(id)));
    const leave = await server.as('cordelia').delete('/users/me/subscriptions', { subscriptions: [await channelName(server, quiet)] });
    assert.equal(leave.status, 200, leave.text);
    assert.ok(!(await register()).unread_msgs.streams.some((s: any) => s.stream_id === quiet));
  });

  test('a topic spelled two ways is one entry; muted topics keep personal mentions and lose wildcard ones', async () => {
    const stage = await createChannel(server, 'iago', ['cordelia', 'iago', 'hamlet']);
    const a = await sendToChannel(server, 'iago', stage, 'Act One', 'enter');
    const b = await sendToChannel(server, 'iago', stage, 'ACT ONE', 'exit');
    const c = await sendToChannel(server, 'hamlet', stage, 'act one', 'pursued by a bear');
    const mute = await server.as('cordelia').post('/user_topics', { stream_id: stage, topic: 'Act Two', visibility_policy: 1 });
    assert.equal(mute.status, 200, mute.text);
    const personal = await sendToChannel(server, 'iago', stage, 'Act Two', "hello @**Cordelia, Lear's daughter**");
    const wildcard = await sendToChannel(server, 'iago', stage, 'Act Two', 'hello @**all**');
    const u = (await register()).unread_msgs;
    const entries = u.streams.filter((s: any) => s.stream_id === stage);
    assert.deepEqual(entries, [
      { stream_id: stage, topic: 'Act One', unread_message_ids: [a, b, c] },
      { stream_id: stage, topic: 'Act Two', unread_message_ids: [personal, wildcard] },
    ]);
    assert.ok(u.mentions.includes(personal));
    assert.ok(!u.mentions.includes(wildcard));
    assert.deepEqual([...u.mentions].sort((x: number, y: number) => x - y), u.mentions);
  });
});

describe('POST /messages/flags/narrow', () => {
  test('marks a window of a narrow, reporting what it processed and changed', async () => {
    const lane = await createChannel(server, 'iago', ['hamlet', 'cordelia']);
    const sent: number[] = [];
    for (let i = 0; i < 6; i++) sent.push(await sendToChannel(server, 'hamlet', lane, 'bulk', `m${i}`));
    const narrow = [{ operator: 'channel', operand: lane }];
    const l = await Listeners.open(server, ['cordelia'], { event_types: ['update_message_flags'] });
    const call = (params: Record<string, unknown>) => server.as('cordelia').post('/messages/flags/narrow', { narrow, op: 'add', flag: 'read', ...params });

    let res = await call({ anchor: sent[2], num_before: 1, num_after: 1 });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(validateResponse('POST /messages/flags/narrow', res.body), []);
    assert.deepEqual(res.body, {
      result: 'success', msg: '', processed_count: 3, updated_count: 3, first_processed_id: sent[1], last_processed_id: sent[3],
      found_oldest: false, found_newest: false, ignored_because_not_subscribed_channels: [],
    });
    assert.deepEqual((await takeUntil(l, 'cordelia', 'update_message_flags'))[0].messages, sent.slice(1, 4));

    res = await call({ anchor: 'oldest', num_before: 0, num_after: 1000 });
    assert.deepEqual([res.body.processed_count, res.body.updated_count, res.body.first_processed_id, res.body.last_processed_id], [6, 3, sent[0], sent[5]]);
    assert.deepEqual([res.body.found_oldest, res.body.found_newest], [true, true]);

    res = await call({ anchor: sent[5], include_anchor: false, num_before: 2, num_after: 0, op: 'remove' });
    assert.deepEqual([res.body.processed_count, res.body.updated_count, res.body.first_processed_id, res.body.last_processed_id], [2, 2, sent[3], sent[4]]);
    const unread = await fetchMessages(server, 'cordelia', { narrow: [...narrow, { operator: 'is', operand: 'unread' }] });
    assert.deepEqual(unread.messages.map((m: { id: number }) => m.id), [sent[3], sent[4]]);

    res = await call({ anchor: 'first_unread', num_before: 0, num_after: 10, narrow: [...narrow, { operator: 'is', operand: 'unread' }] });
    assert.deepEqual([res.body.processed_count, res.body.updated_count, res.body.first_processed_id], [2, 2, sent[3]]);
    res = await call({ anchor: 'newest', num_before: 10, num_after: 0, narrow: [{ operator: 'channel', operand: 999999 }] });
    assertError(res, 'Invalid narrow operator: unknown channel 999999', 'BAD_NARROW');
    res = await call({ anchor: 'newest', num_before: 10, num_after: 0, narrow: [...narrow, { operator: 'is', operand: 'unread' }] });
    assert.deepEqual([res.body.processed_count, res.body.first_processed_id, res.body.last_processed_id, res.body.found_newest], [0, null, null, true]);
  });

  test('refusals, and channels one is not subscribed to are not marked unread', async () => {
    const call = (params: Record<string, unknown>) => server.as('shiva').post('/messages/flags/narrow', { narrow: [], anchor: 'newest', num_before: 5, num_after: 0, op: 'add', flag: 'read', ...params });
    assertError(await call({ anchor: 10, num_before: 1, num_after: 1, include_anchor: false }), 'The anchor can only be excluded at an end of the range');
    assertError(await call({ flag: 'mentioned' }), "Flag not editable: 'mentioned'");
    assertError(await call({ flag: 'sparkly' }), "Invalid flag: 'sparkly'");
    assertError(await call({ anchor: 'somewhere' }), 'Invalid anchor');
    const missing = await server.as('shiva').post('/messages/flags/narrow', { anchor: 'newest', op: 'add', flag: 'read' });
    assert.equal(missing.body.code, 'REQUEST_VARIABLE_MISSING');

    const id = await sendToChannel(server, 'hamlet', verona, 'history', 'for everyone');
    const res = await call({ narrow: [{ operator: 'channel', operand: verona }], op: 'remove' });
    assert.ok(res.body.processed_count >= 1);
    assert.equal(res.body.updated_count, 0);
    assert.deepEqual(res.body.ignored_because_not_subscribed_channels, [verona]);
    assert.deepEqual(await messageFlags(server, 'shiva', id), ['read', 'historical']);
  });
});
