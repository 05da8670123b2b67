// Who hears of a channel's subscribers: users who know of a private channel only through its group settings
// included; users who start knowing of a channel by being subscribed get it first, those who stop by leaving
// lose it.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type SeedName, type TestServer } from './helpers/server.js';
import { Listeners } from './helpers/events.js';
import { channelName, createChannel, sendToChannel, takeUntil } from './helpers/messages.js';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

const id = (who: SeedName) => server.users[who].id;
const only = (who: SeedName[]) => JSON.stringify({ direct_members: who.map(id), direct_subgroups: [] });
type Event = Record<string, any>;
const kinds = (events: Event[]) => events.map((e) => `${e.type}/${e.op}`);
// Every event in the user's queue, until one matches.
async function until(l: Listeners, who: SeedName, found: (e: Event) => boolean): Promise<Event[]> {
  const events: Event[] = [];
  for (let i = 0; i < 250 && !events.some(found); i++) {
    events.push(...(await l.take(who)));
    if (!events.some(found)) await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return events;
}
const subscribe = (by: SeedName, name: string, who: SeedName[]) =>
  server.as(by).post('/users/me/subscriptions', { subscriptions: [{ name }], principals: who.map(id), send_new_subscription_messages: false });

test('a private channel\'s group settings make their members part of its audience', async () => {
  const l = await Listeners.open(server, ['cordelia', 'shiva', 'bot'], { event_types: ['stream', 'subscription'] });
  const channel = await createChannel(server, 'hamlet', ['hamlet'], { invite_only: true, can_subscribe_group: only(['cordelia']), can_add_subscribers_group: only(['shiva']) });
  const name = await channelName(server, channel);
  for (const who of ['cordelia', 'shiva'] as const) {
    const created = await takeUntil(l, who, 'stream');
    assert.deepEqual(created.map((e) => [e.op, e.streams[0].stream_id]), [['create', channel]], who);
  }

  assert.equal((await subscribe('hamlet', name, ['iago'])).status, 200);
  for (const who of ['cordelia', 'shiva'] as const) {
    const peers = await takeUntil(l, who, 'subscription');
    assert.deepEqual(peers.map((e) => [e.op, e.stream_ids, e.user_ids]), [['peer_add', [channel], [id('iago')]]], who);
  }
  // A change of the channel's first message is announced to the same audience.
  const first = await sendToChannel(server, 'hamlet', channel, 't', 'first');
  await sendToChannel(server, 'hamlet', channel, 't', 'second');
  assert.equal((await server.as('hamlet').delete(`/messages/${first}`)).status, 200);
  const changed = await takeUntil(l, 'cordelia', 'stream', (e) => e.property === 'first_message_id');
  assert.deepEqual(changed.map((e) => [e.stream_id, e.property, e.value]), [[channel, 'first_message_id', first + 1]]);
  assert.deepEqual(await l.take('bot'), [], 'nothing to users who do not know of the channel');
});

test('the channel comes before the subscription, for a private channel and for a guest\'s public one', async () => {
  const hidden = await createChannel(server, 'hamlet', ['hamlet'], { invite_only: true });
  const open = await createChannel(server, 'hamlet', ['hamlet']);
  const l = await Listeners.open(server, ['cordelia', 'polonius', 'shiva'], { event_types: ['stream', 'subscription'] });
  assert.equal((await subscribe('hamlet', await channelName(server, hidden), ['cordelia'])).status, 200);
  const forCordelia = await until(l, 'cordelia', (e) => e.op === 'add');
  assert.deepEqual(kinds(forCordelia), ['stream/create', 'subscription/add']);
  assert.equal(forCordelia[0].streams[0].stream_id, hidden);

  assert.equal((await subscribe('hamlet', await channelName(server, open), ['polonius', 'shiva'])).status, 200);
  const forGuest = await until(l, 'polonius', (e) => e.op === 'add');
  assert.deepEqual(kinds(forGuest), ['stream/create', 'subscription/add']);
  const forMember = await until(l, 'shiva', (e) => e.op === 'add');
  assert.deepEqual(kinds(forMember), ['subscription/add'], 'a member knew of the public channel');
});

test('leaving a channel one knew of only as a subscriber deletes it from one\'s view', async () => {
  const hidden = await createChannel(server, 'hamlet', ['hamlet', 'cordelia', 'iago'], { invite_only: true });
  const name = await channelName(server, hidden);
  const l = await Listeners.open(server, ['cordelia', 'iago', 'hamlet'], { event_types: ['stream', 'subscription'] });
  assert.equal((await server.as('cordelia').delete('/users/me/subscriptions', { subscriptions: [name] })).status, 200);
  const left = await until(l, 'cordelia', (e) => e.type === 'stream');
  assert.deepEqual(kinds(left), ['subscription/remove', 'stream/delete']);
  assert.deepEqual(left[1].stream_ids, [hidden]);
  assert.equal((await server.as('cordelia').get(`/streams/${hidden}`)).status, 400);

  // An administrator still knows of it; the remaining subscriber hears of both departures.
  assert.equal((await server.as('iago').delete('/users/me/subscriptions', { subscriptions: [name] })).status, 200);
  assert.deepEqual(kinds(await until(l, 'iago', (e) => e.op === 'remove')), ['subscription/peer_remove', 'subscription/remove'], 'cordelia\'s departure, then its own, and no deletion');
  const peers = await takeUntil(l, 'hamlet', 'subscription', (e) => e.user_ids?.includes(id('iago')));
  assert.deepEqual(peers.map((e) => [e.op, e.user_ids]), [['peer_remove', [id('cordelia')]], ['peer_remove', [id('iago')]]]);
});
