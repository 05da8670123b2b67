// What moving messages brings along: the Notification Bot's breadcrumbs in the new and old topics (per
// propagate_mode and the send_notification_to_* flags), resolve notices with their undo grace and read state,
// and topic settings (followed, muted) that follow a moved topic.
import { test, after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type SeedName, type TestServer } from './helpers/server.js';
import { Listeners } from './helpers/events.js';
import { ageMessages } from './helpers/direct-db.js';
import { assertError, createChannel, fetchMessages, sendToChannel, takeUntil, unique } from './helpers/messages.js';
import type { ParamValue } from './helpers/client.js';

let server: TestServer;
let denmark: number; // public: hamlet, cordelia, iago, polonius
let verona: number; // public: hamlet, shiva
let secret: number; // private: hamlet, iago
before(async () => {
  server = await startTestServer();
  denmark = await createChannel(server, 'iago', ['hamlet', 'cordelia', 'iago', 'polonius'], {}, unique('Denmark'));
  verona = await createChannel(server, 'iago', ['hamlet', 'shiva'], {}, unique('Verona'));
  secret = await createChannel(server, 'iago', ['hamlet', 'iago'], { invite_only: true }, unique('Secret'));
});
after(() => server.close());

type Event = Record<string, any>;
const mention = (who: SeedName) => `@_**${server.users[who].fullName}|${server.users[who].id}**`;
const name = async (id: number) => (await server.as('desdemona').get(`/streams/${id}`)).body.stream.name as string;
const move = (who: SeedName, id: number, params: Record<string, ParamValue>) => server.as(who).patch(`/messages/${id}`, params);
const listen = (names: SeedName[]) => Listeners.open(server, names, { event_types: ['message', 'delete_message', 'user_topic'], apply_markdown: false, client_capabilities: JSON.stringify({ bulk_message_deletion: true }) });

// The Notification Bot's messages in the user's queue (others are skipped), once `count` have arrived.
async function notices(l: Listeners, who: SeedName, count: number): Promise<Event[]> {
  const got: Event[] = [];
  const fromBot = (e: Event) => e.message.sender_full_name === 'Notification Bot';
  for (let i = 0; i < 50 && got.length < count; i++) got.push(...(await takeUntil(l, who, 'message', fromBot)).filter(fromBot));
  assert.equal(got.length, count, JSON.stringify(got.map((e) => e.message.content)));
  return got;
}
const where = (e: Event) => [e.message.stream_id, e.message.subject];
const isRead = (e: Event) => e.flags.includes('read');

async function seed(topic: string, n: number, stream = denmark): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) ids.push(await sendToChannel(server, i % 2 ? 'cordelia' : 'hamlet', stream, topic, `message ${i}`));
  return ids;
}

describe('breadcrumbs', () => {
  test('a whole topic moved within a channel: a notice in the new topic by default, read for the mover only', async () => {
    const [t1, t2] = [unique('alpha'), unique('beta')];
    const [m1] = await seed(t1, 3);
    const l = await listen(['hamlet', 'cordelia']);
    assert.equal((await move('hamlet', m1, { topic: t2, propagate_mode: 'change_all' })).status, 200);
    const [e] = await notices(l, 'hamlet', 1);
    const dk = await name(denmark);
    assert.deepEqual(where(e), [denmark, t2]);
    assert.equal(e.message.content, `This topic was moved here from #**${dk}>${t1}** by ${mention('hamlet')}.`);
    assert.ok(isRead(e));
    const [forCordelia] = await notices(l, 'cordelia', 1);
    assert.ok(!isRead(forCordelia));
    assert.equal((await l.take('hamlet', 'message')).length, 0, 'nothing in the old topic unless asked');
  });

  test('with send_notification_to_old_thread, the old topic says where it went; without the new one, nothing there', async () => {
    const [t1, t2] = [unique('gamma'), unique('delta')];
    const [m1] = await seed(t1, 2);
    const l = await listen(['cordelia']);
    assert.equal((await move('hamlet', m1, { topic: t2, propagate_mode: 'change_all', send_notification_to_old_thread: true, send_notification_to_new_thread: false })).status, 200);
    const [e] = await notices(l, 'cordelia', 1);
    assert.deepEqual(where(e), [denmark, t1]);
    assert.equal(e.message.content, `This topic was moved to #**${await name(denmark)}>${t2}** by ${mention('hamlet')}.`);
  });

  test('part of a topic: one message links to it; several are counted; in both topics', async () => {
    const [t1, t2, t3] = [unique('epsilon'), unique('zeta'), unique('eta')];
    const [m1, m2, m3] = await seed(t1, 3);
    const dk = await name(denmark);
    const l = await listen(['cordelia']);
    const both = { send_notification_to_old_thread: true, send_notification_to_new_thread: true };
    assert.equal((await move('hamlet', m2, { topic: t2, ...both })).status, 200);
    const [one, oneOld] = await notices(l, 'cordelia', 2);
    assert.deepEqual([where(one), where(oneOld)], [[denmark, t2], [denmark, t1]]);
    const link = `${server.url}/#narrow/channel/${denmark}-${dk.replace(/ /g, '-')}/topic/${t2.replace(/ /g, '.20')}/near/${m2}`;
    assert.equal(one.message.content, `[A message](${link}) was moved here from #**${dk}>${t1}** by ${mention('hamlet')}.`);
    assert.equal(oneOld.message.content, `A message was moved from this topic to #**${dk}>${t2}** by ${mention('hamlet')}.`);

    // change_later from m1 takes m1, m3 and the old topic's breadcrumb: everything left, so the topic moved.
    assert.equal((await move('hamlet', m1, { topic: t3, propagate_mode: 'change_later', ...both })).status, 200);
    const [all, allOld] = await notices(l, 'cordelia', 2);
    assert.equal(all.message.content, `This topic was moved here from #**${dk}>${t1}** by ${mention('hamlet')}.`);
    assert.equal(allOld.message.content, `This topic was moved to #**${dk}>${t3}** by ${mention('hamlet')}.`);
    void m3;

    // Into a topic that has messages already: counted, even when the whole old topic moves.
    const [n1] = await seed(unique('theta'), 2);
    assert.equal((await move('hamlet', n1, { topic: t3, propagate_mode: 'change_all', ...both })).status, 200);
    const [merged] = await notices(l, 'cordelia', 2);
    assert.match(merged.message.content, new RegExp(`^2 messages were moved here from #\\*\\*${dk}>theta [^*]+\\*\\* by `));
  });

  test('to another channel: the new channel\'s subscribers get the new notice, the old channel\'s the old one', async () => {
    const t = unique('voyage');
    const [m1] = await seed(t, 2);
    const l = await listen(['shiva', 'cordelia']);
    const res = await move('hamlet', m1, { stream_id: verona, propagate_mode: 'change_all', send_notification_to_old_thread: true });
    assert.equal(res.status, 200, res.text);
    const [toShiva] = await notices(l, 'shiva', 1);
    assert.deepEqual(where(toShiva), [verona, t]);
    assert.equal(toShiva.message.content, `This topic was moved here from #**${await name(denmark)}>${t}** by ${mention('hamlet')}.`);
    const [toCordelia] = await notices(l, 'cordelia', 1);
    assert.deepEqual(where(toCordelia), [denmark, t]);
    assert.equal(toCordelia.message.content, `This topic was moved to #**${await name(verona)}>${t}** by ${mention('hamlet')}.`);
  });

  test('a refused move posts nothing', async () => {
    const t = unique('refused');
    const [m1] = await seed(t, 1);
    const l = await listen(['cordelia']);
    assertError(await move('cordelia', m1, { stream_id: secret, send_notification_to_old_thread: true }), 'Invalid channel ID');
    await ageMessages(server, [m1], 8 * 86400);
    assertError(await move('cordelia', m1, { topic: unique('late'), send_notification_to_old_thread: true }), "The time limit for editing this message's topic has passed.");
    await sendToChannel(server, 'hamlet', denmark, t, 'later');
    const events = await takeUntil(l, 'cordelia', 'message');
    assert.deepEqual(events.map((e) => e.message.content), ['later']);
  });
});

describe('resolving', () => {
  test('a notice in the resolved topic, no breadcrumb; an undo within the grace period deletes it instead', async () => {
    const t = unique('bug');
    const [m1] = await seed(t, 2);
    const l = await listen(['hamlet', 'cordelia']);
    assert.equal((await move('cordelia', m1, { topic: `✔ ${t}`, propagate_mode: 'change_all' })).status, 200);
    const [resolved] = await notices(l, 'hamlet', 1);
    assert.deepEqual(where(resolved), [denmark, `✔ ${t}`]);
    assert.equal(resolved.message.content, `${mention('cordelia')} has marked this topic as resolved.`);
    assert.ok(isRead(resolved), 'read for those who do not follow the topic');
    assert.ok(isRead((await notices(l, 'cordelia', 1))[0]), 'read for the one who resolved it');

    assert.equal((await move('hamlet', m1, { topic: t, propagate_mode: 'change_all' })).status, 200);
    const deleted = await takeUntil(l, 'cordelia', 'delete_message');
    assert.deepEqual(deleted.map((e) => e.message_ids), [[resolved.message.id]]);
    assert.equal((await l.take('cordelia', 'message')).length, 0);
    const left = await fetchMessages(server, 'hamlet', { narrow: [{ operator: 'channel', operand: denmark }, { operator: 'topic', operand: t }] });
    assert.equal(left.messages.length, 2);

    // Later than the grace period, the opposite action gets its own notice.
    assert.equal((await move('cordelia', m1, { topic: `✔ ${t}`, propagate_mode: 'change_all' })).status, 200);
    const [again] = await notices(l, 'hamlet', 1);
    await ageMessages(server, [again.message.id], 120);
    assert.equal((await move('hamlet', m1, { topic: t, propagate_mode: 'change_all' })).status, 200);
    const [unresolved] = await notices(l, 'cordelia', 2).then((x) => x.slice(1));
    assert.deepEqual(where(unresolved), [denmark, t]);
    assert.equal(unresolved.message.content, `${mention('hamlet')} has marked this topic as unresolved.`);
  });

  test('who gets it unread: resolved_topic_notice_auto_read_policy and following the topic', async () => {
    const t = unique('issue');
    const [m1] = await seed(t, 1);
    const settings = (who: SeedName, policy: string) => server.as(who).patch('/settings', { resolved_topic_notice_auto_read_policy: policy });
    const follow = (who: SeedName) => server.as(who).post('/user_topics', { stream_id: denmark, topic: t, visibility_policy: 3 });
    assert.equal((await follow('cordelia')).status, 200);
    assert.equal((await follow('iago')).status, 200);
    assert.equal((await settings('iago', 'always')).status, 200);
    assert.equal((await settings('polonius', 'never')).status, 200);
    try {
      const l = await listen(['hamlet', 'cordelia', 'iago', 'polonius']);
      assert.equal((await move('desdemona', m1, { topic: `✔ ${t}`, propagate_mode: 'change_all' })).status, 200);
      const read = async (who: SeedName) => isRead((await notices(l, who, 1))[0]);
      assert.deepEqual([await read('hamlet'), await read('cordelia'), await read('iago'), await read('polonius')], [true, false, true, false]);
    } finally {
      await settings('iago', 'except_followed');
      await settings('polonius', 'except_followed');
    }
  });
});

describe('topic settings follow a moved topic', () => {
  const policies = async (who: SeedName) => {
    const res = await server.as(who).post('/register', { fetch_event_types: ['user_topic'] });
    return Object.fromEntries((res.body.user_topics as Event[]).map((t) => [`${t.stream_id}:${t.topic_name}`, t.visibility_policy]));
  };
  const setPolicy = (who: SeedName, stream: number, topic: string, policy: number) =>
    server.as(who).post('/user_topics', { stream_id: stream, topic, visibility_policy: policy });

  test('a whole topic takes its settings along, merged with the destination\'s where it had messages', async () => {
    const [t1, t2, busy] = [unique('old'), unique('new'), unique('busy')];
    const [m1] = await seed(t1, 2);
    await seed(busy, 1);
    await setPolicy('cordelia', denmark, t1, 3); // followed
    await setPolicy('hamlet', denmark, t1, 1); // muted
    await setPolicy('iago', denmark, busy, 1); // muted the destination
    const l = await listen(['cordelia']);
    assert.equal((await move('iago', m1, { topic: t2, propagate_mode: 'change_all', send_notification_to_new_thread: false })).status, 200);
    const events = await takeUntil(l, 'cordelia', 'user_topic', (e) => e.topic_name === t2);
    assert.deepEqual(events.map((e) => [e.topic_name, e.visibility_policy]), [[t1, 0], [t2, 3]]);
    assert.equal((await policies('cordelia'))[`${denmark}:${t2}`], 3);
    assert.equal((await policies('hamlet'))[`${denmark}:${t2}`], 1);
    assert.equal((await policies('hamlet'))[`${denmark}:${t1}`], undefined);

    // Into a topic with messages: followed beats muted; a muted destination is unmuted by an unset origin.
    await setPolicy('hamlet', denmark, busy, 3);
    assert.equal((await move('iago', m1, { topic: busy, propagate_mode: 'change_all', send_notification_to_new_thread: false })).status, 200);
    const after = [await policies('cordelia'), await policies('hamlet'), await policies('iago')].map((p) => p[`${denmark}:${busy}`]);
    assert.deepEqual(after, [3, 3, undefined]);
  });

  test('part of a topic leaves the settings; users who lose access to the messages lose theirs', async () => {
    const t = unique('part');
    const [m1, m2] = await seed(t, 2);
    await setPolicy('cordelia', denmark, t, 3);
    assert.equal((await move('hamlet', m1, { topic: unique('elsewhere'), send_notification_to_new_thread: false })).status, 200);
    assert.equal((await policies('cordelia'))[`${denmark}:${t}`], 3);

    // To a private channel: cordelia and polonius cannot follow the messages there, hamlet can.
    await setPolicy('polonius', denmark, t, 3);
    await setPolicy('hamlet', denmark, t, 2);
    assert.equal((await move('hamlet', m2, { stream_id: secret, propagate_mode: 'change_all', send_notification_to_new_thread: false })).status, 200);
    for (const who of ['cordelia', 'polonius'] as const) {
      const p = await policies(who);
      assert.deepEqual([p[`${denmark}:${t}`], p[`${secret}:${t}`]], [undefined, undefined], who);
    }
    assert.equal((await policies('hamlet'))[`${secret}:${t}`], 2);
  });
});
