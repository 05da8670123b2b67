// The Notification Bot's messages about channels: new channels (announce, the channel's first notice),
// subscriptions by someone else, and changes made with PATCH and DELETE /streams/{id}; their texts, topics and
// recipients, and that a failed request posts none.
import { test, after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type SeedName, type TestServer } from './helpers/server.js';
import { Listeners } from './helpers/events.js';
import { setRealmSettings, withApp } from './helpers/direct-db.js';
import { assertError, createChannel, takeUntil, unique } from './helpers/messages.js';
import type { ParamValue } from './helpers/client.js';

let server: TestServer;
let news: number; // the new-channel announcements channel: iago, hamlet, cordelia
before(async () => {
  server = await startTestServer();
  news = await createChannel(server, 'iago', ['iago', 'hamlet', 'cordelia'], {}, unique('News'));
});
after(() => server.close());

const mention = (who: SeedName) => `@_**${server.users[who].fullName}|${server.users[who].id}**`;
const listen = (names: SeedName[]) => Listeners.open(server, names, { event_types: ['message'], apply_markdown: false });
const subscribe = (who: SeedName, params: Record<string, ParamValue>) => server.as(who).post('/users/me/subscriptions', params);
const streamId = async (name: string) => (await server.as('desdemona').get('/get_stream_id', { stream: name })).body.stream_id as number;
type Event = Record<string, any>;

// Everything in the user's queue, once the last of `count` notices has arrived.
async function notices(l: Listeners, who: SeedName, count = 1): Promise<Event[]> {
  const events: Event[] = [];
  for (let i = 0; i < 50 && events.length < count; i++) events.push(...(await takeUntil(l, who, 'message')));
  for (const e of events) {
    assert.equal(e.message.sender_full_name, 'Notification Bot');
    assert.equal(e.message.client, 'Internal');
  }
  return events;
}

function assertNotice(e: Event, where: { stream?: number; topic?: string; dm?: SeedName }, content: string, read: boolean): void {
  if (where.dm) {
    assert.equal(e.message.type, 'private');
    assert.deepEqual(e.message.display_recipient.map((r: { id: number }) => r.id).sort(), [server.users[where.dm].id, e.message.sender_id].sort());
  } else {
    assert.deepEqual([e.message.stream_id, e.message.subject], [where.stream, where.topic]);
  }
  assert.equal(e.message.content, content);
  assert.equal(e.flags.includes('read'), read, JSON.stringify(e.flags));
}

describe('new channels', () => {
  before(() => setRealmSettings(server, { new_stream_announcements_stream_id: news, send_channel_events_messages: true }));
  after(() => setRealmSettings(server, { new_stream_announcements_stream_id: undefined, send_channel_events_messages: undefined }));

  test('announce: the announcement channel hears of it, the new channel gets its first notice; both read for the creator', async () => {
    const l = await listen(['hamlet', 'cordelia', 'shiva']);
    const name = unique('Garden');
    const res = await subscribe('hamlet', { subscriptions: [{ name, description: 'Roses *and* thorns' }], principals: [server.users.hamlet.id, server.users.shiva.id], announce: true });
    assert.equal(res.status, 200, res.text);
    const garden = await streamId(name);

    const [announcement, created] = await notices(l, 'hamlet', 2);
    assertNotice(announcement, { stream: news, topic: 'new channels' }, `${mention('hamlet')} created a new channel #**${name}**.`, true);
    assertNotice(created, { stream: garden, topic: 'channel events' }, `**Public** channel created by ${mention('hamlet')}. **Description:**\n\`\`\`\` quote\nRoses *and* thorns\n\`\`\`\``, true);
    const [toCordelia] = await notices(l, 'cordelia');
    assertNotice(toCordelia, { stream: news, topic: 'new channels' }, announcement.message.content, false);
    assert.equal((await l.take('cordelia', 'message')).length, 0);
    const [toShiva] = await notices(l, 'shiva');
    assertNotice(toShiva, { stream: garden, topic: 'channel events' }, created.message.content, false);
    assert.equal((await l.take('shiva', 'message')).length, 0, 'no direct message about a channel just created');
  });

  test('several channels at once; each privacy has its wording; an empty description is named so', async () => {
    const l = await listen(['iago']);
    const [a, b] = [unique('Alpha'), unique('Beta')];
    assert.equal((await subscribe('iago', { subscriptions: [{ name: a }, { name: b }], invite_only: true, announce: true })).status, 200);
    const [announcement, first, second] = await notices(l, 'iago', 3);
    assertNotice(announcement, { stream: news, topic: 'new channels' }, `${mention('iago')} created the following channels: #**${a}**, #**${b}**.`, true);
    const text = (policy: string, description = '*No description.*') => `**${policy}** channel created by ${mention('iago')}. **Description:**\n\`\`\`\` quote\n${description}\n\`\`\`\``;
    assertNotice(first, { stream: await streamId(a), topic: 'channel events' }, text('Private, protected history'), true);
    assertNotice(second, { stream: await streamId(b), topic: 'channel events' }, text('Private, protected history'), true);

    const shared = unique('Shared');
    await subscribe('iago', { subscriptions: [{ name: shared, description: 'x' }], invite_only: true, history_public_to_subscribers: true });
    assertNotice((await notices(l, 'iago'))[0], { stream: await streamId(shared), topic: 'channel events' }, text('Private, shared history', 'x'), true);

    // A channel allowing only the general chat gets its notices there; a name that would break the link
    // syntax is linked in plain Markdown.
    const general = unique('Star*');
    await subscribe('iago', { subscriptions: [{ name: general }], topics_policy: 'empty_topic_only', announce: true });
    const id = await streamId(general);
    const [link, inGeneral] = await notices(l, 'iago', 2);
    assert.equal(link.message.content, `${mention('iago')} created a new channel [#${general.replace('*', '&#42;')}](#narrow/channel/${id}-${general.replace(/ /g, '-')}).`);
    assertNotice(inGeneral, { stream: id, topic: 'general chat' }, text('Public'), true); // the empty topic, by its display name
  });

  test('nothing without announce, without an announcement channel, or with channel events messages off', async () => {
    const l = await listen(['iago', 'cordelia']);
    const quiet = unique('Quiet');
    await subscribe('iago', { subscriptions: [{ name: quiet }] });
    const [only] = await notices(l, 'iago');
    assert.equal(only.message.stream_id, await streamId(quiet));

    await setRealmSettings(server, { new_stream_announcements_stream_id: undefined, send_channel_events_messages: false });
    try {
      await subscribe('iago', { subscriptions: [{ name: unique('Silent') }], announce: true });
      await createChannel(server, 'iago', ['iago']); // a later request whose events show the queue is up to date
      assert.equal((await l.take('iago', 'message')).length, 0);
      assert.equal((await l.take('cordelia', 'message')).length, 0);
    } finally {
      await setRealmSettings(server, { new_stream_announcements_stream_id: news, send_channel_events_messages: true });
    }
  });
});

describe('subscribed by someone else', () => {
  let x: string;
  let y: string;
  before(async () => {
    [x, y] = [unique('Xanadu'), unique('Yonder')];
    await createChannel(server, 'iago', ['iago'], {}, x);
    await createChannel(server, 'iago', ['iago'], {}, y);
  });

  test('a direct message to each user subscribed to existing channels, never to oneself or bots', async () => {
    const l = await listen(['hamlet', 'cordelia', 'iago']);
    const one = await subscribe('iago', { subscriptions: [{ name: x }], principals: [server.users.hamlet.id, server.users.iago.id, server.users.bot.id] });
    assert.equal(one.status, 200, one.text);
    assert.equal(one.body.new_subscription_messages_sent, true);
    const [dm] = await notices(l, 'hamlet');
    assertNotice(dm, { dm: 'hamlet' }, `${mention('iago')} subscribed you to #**${x}**.`, false);
    assert.equal((await l.take('iago', 'message')).length, 0, 'nothing to the actor');

    const newName = unique('Zenith');
    const two = await subscribe('iago', { subscriptions: [{ name: y }, { name: x }, { name: newName }], principals: [server.users.cordelia.id] });
    assert.deepEqual(two.body.subscribed, { [server.users.cordelia.id]: [y, x, newName] });
    const [multi] = await notices(l, 'cordelia');
    const sorted = [x, y].sort();
    assertNotice(multi, { dm: 'cordelia' }, `${mention('iago')} subscribed you to the following channels:\n\n* #**${sorted[0]}**\n* #**${sorted[1]}**`, false); // the send path trims the end, as the reference's does
  });

  test('send_new_subscription_messages=false sends none and leaves the response key out', async () => {
    const l = await listen(['shiva']);
    const res = await subscribe('iago', { subscriptions: [{ name: x }], principals: [server.users.shiva.id], send_new_subscription_messages: false });
    assert.equal(res.status, 200, res.text);
    assert.ok(!('new_subscription_messages_sent' in res.body));
    assert.deepEqual(res.body.subscribed, { [server.users.shiva.id]: [x] });
    await createChannel(server, 'iago', ['shiva']);
    assert.equal((await l.take('shiva', 'message')).length, 0);
  });

  test('more users than max_bulk_new_subscription_messages: no messages, and the response says so', async () => {
    const state = await server.as('iago').post('/register', { fetch_event_types: ['realm'] });
    const limit: number = state.body.max_bulk_new_subscription_messages;
    assert.equal(limit, 100);
    const ids = await withApp(server, async (app) => {
      const { findRealmBySubdomain } = await import('../src/store/realms.js');
      const { doCreateUser } = await import('../src/actions/users.js');
      const realm = (await findRealmBySubdomain(app.db, ''))!;
      const out: number[] = [];
      for (let i = 0; i < limit; i++) out.push((await doCreateUser(app, realm, { email: `crowd${i}@zulip.example.com`, fullName: `Crowd ${i}`, password: null, role: 400 })).id);
      return out;
    });
    const l = await listen(['polonius']);
    const res = await subscribe('iago', { subscriptions: [{ name: y }], principals: [...ids, server.users.polonius.id] });
    assert.equal(res.status, 200, res.text);
    assert.equal(Object.keys(res.body.subscribed).length, limit + 1);
    assert.equal(res.body.new_subscription_messages_sent, false);
    await createChannel(server, 'iago', ['polonius']);
    assert.equal((await l.take('polonius', 'message')).length, 0);
  });

  test('a refused request posts nothing', async () => {
    const hidden = unique('Hidden');
    await createChannel(server, 'iago', ['iago'], { invite_only: true }, hidden);
    const l = await listen(['cordelia', 'hamlet']);
    const res = await subscribe('hamlet', { subscriptions: [{ name: y }, { name: unique('Born') }, { name: hidden }], principals: [server.users.cordelia.id], announce: true });
    assertError(res, `Unable to access channel (${hidden}).`);
    await createChannel(server, 'iago', ['cordelia', 'hamlet']);
    assert.equal((await l.take('cordelia', 'message')).length, 0);
    assert.equal((await l.take('hamlet', 'message')).length, 0);
  });
});

describe('channel changes', () => {
  let channel: number;
  let name: string;
  before(async () => {
    await setRealmSettings(server, { send_channel_events_messages: true });
    name = unique('Elsinore');
    channel = await createChannel(server, 'iago', ['iago', 'hamlet'], { send_new_subscription_messages: false }, name);
  });
  after(() => setRealmSettings(server, { send_channel_events_messages: undefined }));

  const patch = (who: SeedName, params: Record<string, ParamValue>) => server.as(who).patch(`/streams/${channel}`, params);
  async function expectNotice(l: Listeners, params: Record<string, ParamValue>, content: string, who: SeedName = 'iago'): Promise<void> {
    const res = await patch(who, params);
    assert.equal(res.status, 200, res.text);
    const [e] = await notices(l, 'hamlet');
    assertNotice(e, { stream: channel, topic: 'channel events' }, content, false);
  }

  test('each change the reference server announces, in the channel events topic, to its subscribers', async () => {
    const l = await listen(['hamlet']);
    await l.clear();
    const iago = mention('iago');
    const renamed = unique('Elsinore Castle');
    await expectNotice(l, { new_name: renamed }, `${iago} renamed channel **${name}** to **${renamed}**.`);
    name = renamed;
    await expectNotice(l, { description: 'The *royal* castle' },
      `${iago} changed the description for this channel.\n\n* **Old description:**\n\`\`\`\` quote\n*No description.*\n\`\`\`\`\n* **New description:**\n\`\`\`\` quote\nThe *royal* castle\n\`\`\`\``);
    await expectNotice(l, { is_private: true },
      `${iago} changed the [access permissions](/help/channel-permissions) for this channel from **Public** to **Private, protected history**.`);
    await expectNotice(l, { history_public_to_subscribers: true },
      `${iago} changed the [access permissions](/help/channel-permissions) for this channel from **Private, protected history** to **Private, shared history**.`);
    await expectNotice(l, { message_retention_days: 30 },
      `${mention('desdemona')} has changed the [message retention period](/help/message-retention-policy) for this channel:\n* **Old retention period**: Forever\n* **New retention period**: 30 days\n\nMessages in this channel will now be automatically deleted 30 days after they are sent.`, 'desdemona');
    await expectNotice(l, { message_retention_days: JSON.stringify('unlimited') },
      `${mention('desdemona')} has changed the [message retention period](/help/message-retention-policy) for this channel:\n* **Old retention period**: 30 days\n* **New retention period**: Forever\n\nMessages in this channel will now be retained forever.`, 'desdemona');
    await expectNotice(l, { topics_policy: 'disable_empty_topic' },
      `${iago} changed the "Allow posting to the *general chat* topic?" setting from **Automatic** to **No *general chat* topic**.`);

    const groups = (await server.as('iago').post('/register', { fetch_event_types: ['realm_user_groups'] })).body.realm_user_groups as { id: number; name: string }[];
    const group = (n: string) => groups.find((g) => g.name === n)!.id;
    await expectNotice(l, { can_send_message_group: JSON.stringify({ new: { direct_members: [server.users.hamlet.id], direct_subgroups: [group('role:administrators')] } }) },
      `${iago} changed the [posting permissions](/help/channel-posting-policy) for this channel:\n\n* **Old**: @_*role:everyone*\n* **New**: @_*role:administrators*, ${mention('hamlet')}`);

    // Settings the reference server does not announce: another permission, the folder.
    const folder = (await server.as('iago').post('/channel_folders/create', { name: unique('Folder') })).body.channel_folder_id;
    assert.equal((await patch('iago', { can_remove_subscribers_group: JSON.stringify({ new: group('role:moderators') }), folder_id: folder })).status, 200);
    const last = unique('Elsinore');
    await expectNotice(l, { new_name: last }, `${iago} renamed channel **${name}** to **${last}**.`);
  });

  test('archiving and unarchiving; archived notices arrive read', async () => {
    const target = await createChannel(server, 'iago', ['iago', 'cordelia'], { send_new_subscription_messages: false });
    const targetName = (await server.as('iago').get(`/streams/${target}`)).body.stream.name;
    const l = await Listeners.open(server, ['cordelia'], { event_types: ['message'], apply_markdown: false, client_capabilities: JSON.stringify({ archived_channels: true }) });
    assert.equal((await server.as('iago').delete(`/streams/${target}`)).status, 200);
    const [archived] = await notices(l, 'cordelia');
    assertNotice(archived, { stream: target, topic: 'channel events' }, `Channel #**${targetName}** has been archived.`, true);
    assert.equal((await server.as('iago').patch(`/streams/${target}`, { is_archived: false })).status, 200);
    const [unarchived] = await notices(l, 'cordelia');
    assertNotice(unarchived, { stream: target, topic: 'channel events' }, `Channel #**${targetName}** has been unarchived.`, false);
  });

  test('a refused change posts nothing; with channel events messages off, changes post nothing', async () => {
    const l = await listen(['hamlet']);
    await l.clear();
    const res = await patch('iago', { new_name: unique('Valid'), description: 'x'.repeat(1025) });
    assert.equal(res.status, 400, res.text);
    await setRealmSettings(server, { send_channel_events_messages: false });
    try {
      assert.equal((await patch('iago', { description: 'quiet' })).status, 200);
      await createChannel(server, 'iago', ['hamlet'], { send_new_subscription_messages: false });
      assert.equal((await l.take('hamlet', 'message')).length, 0);
    } finally {
      await setRealmSettings(server, { send_channel_events_messages: true });
    }
  });
});
