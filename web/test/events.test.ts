// The data layer's event handling: each event applied to a register snapshot gives the state the server's
// change implies, without touching the state it started from.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Message, RegisterResponse, ServerEvent } from '../src/api/types';
import { applyEvents, produce } from '../src/data/reduce';
import { fromRegister, type State } from '../src/data/state';
import { countsOf, dmConversations } from '../src/data/selectors';
import { mergeFetched } from '../src/data/lists';
import { narrowKey, topicKey, type Term } from '../src/data/narrow';
import { expireTyping } from '../src/data/events/people';

const ME = 1;
const MIA = 7;
const IAGO = 9;
const DESIGN = 42;
const LOBBY = 43;

function snapshot(over: Partial<RegisterResponse> = {}): State {
  const sub = (stream_id: number, name: string, extra = {}) => ({ stream_id, name, description: '', invite_only: false, color: '#c2c2c2', is_muted: false, pin_to_top: false, desktop_notifications: null, audible_notifications: null, subscriber_count: 3, ...extra });
  const user = (user_id: number, full_name: string) => ({ user_id, full_name, email: `${full_name.toLowerCase()}@example.com`, is_active: true, is_bot: false });
  return fromRegister({
    queue_id: 'q', last_event_id: -1, user_id: ME, email: 'me@example.com', full_name: 'Me', is_admin: false, is_owner: false, is_moderator: false, is_guest: false,
    realm_name: 'Org', realm_url: 'http://x', realm_users: [user(ME, 'Me'), user(MIA, 'Mia'), user(IAGO, 'Iago')], realm_non_active_users: [], cross_realm_bots: [],
    subscriptions: [sub(DESIGN, 'design'), sub(LOBBY, 'lobby')], unsubscribed: [], never_subscribed: [],
    unread_msgs: {
      count: 3, old_unreads_missing: false, mentions: [11],
      streams: [{ stream_id: DESIGN, topic: 'Colors', unread_message_ids: [10, 11] }],
      pms: [{ other_user_id: MIA, unread_message_ids: [12] }], huddles: [],
    },
    starred_messages: [], recent_private_conversations: [{ user_ids: [MIA], max_message_id: 12 }], presences: {}, server_timestamp: 1000,
    drafts: [], scheduled_messages: [], user_settings: {} as never, user_topics: [], realm_emoji: {}, max_message_id: 12,
    ...over,
  });
}

let nextId = 100;
function channelMessage(streamId: number, topic: string, extra: Partial<Message> = {}): Message {
  return { id: nextId++, sender_id: MIA, sender_full_name: 'Mia', sender_email: 'mia@example.com', content: '<p>hi</p>', timestamp: 1, type: 'stream', stream_id: streamId, subject: topic, display_recipient: 'design', reactions: [], flags: [], is_me_message: false, ...extra };
}
function dmMessage(others: number[], extra: Partial<Message> = {}): Message {
  const people = [ME, ...others].map((id) => ({ id, email: `${id}@x`, full_name: String(id) }));
  return { id: nextId++, sender_id: others[0], sender_full_name: 'x', sender_email: 'x', content: '<p>hi</p>', timestamp: 1, type: 'private', subject: '', display_recipient: people, reactions: [], flags: [], is_me_message: false, ...extra };
}
const ev = (type: string, fields: Record<string, unknown>): ServerEvent => ({ id: 0, type, ...fields });
const newMessage = (m: Message, flags: string[] = []) => ev('message', { message: { ...m, flags: undefined }, flags });

// A state with loaded lists for these narrows (found their newest message).
function withLists(s: State, narrows: Term[][], ids: number[] = []): State {
  return produce(s, (d) => {
    for (const terms of narrows) d.mut('lists').set(narrowKey(terms), mergeFetched(undefined, terms, 'initial', { ids, foundOldest: true, foundNewest: true }));
  });
}
const list = (s: State, terms: Term[]) => s.lists.get(narrowKey(terms))!.ids;

const FEED: Term[] = [];
const DESIGN_NARROW: Term[] = [{ operator: 'channel', operand: DESIGN }];
const COLORS: Term[] = [{ operator: 'channel', operand: DESIGN }, { operator: 'topic', operand: 'colors' }];
const MIA_DM: Term[] = [{ operator: 'dm', operand: [MIA] }];
const SEARCH: Term[] = [{ operator: 'search', operand: 'lunch' }];
const STARRED: Term[] = [{ operator: 'is', operand: 'starred' }];

test('the register snapshot: unread counts by channel, topic and conversation', () => {
  const s = snapshot();
  const c = countsOf(s);
  assert.equal(c.streams.get(DESIGN), 2);
  assert.equal(c.topics.get(topicKey(DESIGN, 'colors')), 2);
  assert.equal(c.dms.get(String(MIA)), 1);
  assert.equal(c.mentions, 1);
  assert.equal(c.total, 3);
  assert.deepEqual(dmConversations(s.recentDms, s.unread).map((x) => x.userIds), [[MIA]]);
});

test('a new message joins every loaded list it belongs to, and the unread counts', () => {
  const s0 = withLists(snapshot(), [FEED, DESIGN_NARROW, COLORS, MIA_DM, SEARCH, STARRED]);
  const m = channelMessage(DESIGN, 'Colors');
  const s1 = applyEvents(s0, [newMessage(m, ['mentioned'])]);
  assert.deepEqual(list(s1, FEED), [m.id]);
  assert.deepEqual(list(s1, DESIGN_NARROW), [m.id]);
  assert.deepEqual(list(s1, COLORS), [m.id], 'topics match without regard to case');
  assert.deepEqual(list(s1, MIA_DM), []);
  assert.deepEqual(list(s1, STARRED), []);
  // Only the server can say whether it matches a search: that list no longer knows its newest end.
  assert.equal(s1.lists.get(narrowKey(SEARCH))!.foundNewest, false);
  assert.equal(countsOf(s1).streams.get(DESIGN), 3);
  assert.equal(countsOf(s1).mentions, 2);
  assert.deepEqual(s1.messages.get(m.id)!.flags, ['mentioned']);
  // The state it started from is untouched.
  assert.equal(s0.messages.size, 0);
  assert.deepEqual(list(s0, FEED), []);
  assert.equal(countsOf(s0).streams.get(DESIGN), 2);
});

test('a list that has not reached its newest message is not extended by new ones', () => {
  const s0 = produce(snapshot(), (d) => d.mut('lists').set(narrowKey(FEED), { terms: FEED, ids: [1, 2], foundOldest: false, foundNewest: false }));
  const s1 = applyEvents(s0, [newMessage(channelMessage(DESIGN, 'x'))]);
  assert.deepEqual(list(s1, FEED), [1, 2]);
});

test('direct messages: the conversation list, unread counts, and self-messages read', () => {
  const s0 = withLists(snapshot(), [MIA_DM, [{ operator: 'dm', operand: [MIA, IAGO] }], [{ operator: 'is', operand: 'dm' }]]);
  const group = dmMessage([IAGO, MIA]);
  const mine = dmMessage([MIA], { sender_id: ME });
  const s1 = applyEvents(s0, [newMessage(group), newMessage(mine, ['read'])]);
  assert.deepEqual(list(s1, [{ operator: 'dm', operand: [IAGO, MIA] }]), [group.id]);
  assert.deepEqual(list(s1, MIA_DM), [mine.id]);
  assert.deepEqual(list(s1, [{ operator: 'is', operand: 'dm' }]), [group.id, mine.id]);
  assert.equal(countsOf(s1).dms.get(`${MIA},${IAGO}`), 1);
  assert.equal(countsOf(s1).dms.get(String(MIA)), 1, 'my own message is read');
  assert.deepEqual(dmConversations(s1.recentDms, s1.unread).map((c) => c.key), [String(MIA), `${MIA},${IAGO}`]);
});

test('read and unread flags: marking read, all read, and unread again from message details', () => {
  const s0 = snapshot();
  const s1 = applyEvents(s0, [ev('update_message_flags', { op: 'add', flag: 'read', messages: [10, 12], all: false })]);
  assert.equal(countsOf(s1).streams.get(DESIGN), 1);
  assert.equal(countsOf(s1).dms.get(String(MIA)), undefined);
  const s2 = applyEvents(s1, [ev('update_message_flags', {
    op: 'remove', flag: 'read', messages: [10, 12], all: false,
    message_details: { 10: { type: 'stream', stream_id: DESIGN, topic: 'Colors' }, 12: { type: 'private', user_ids: [MIA], mentioned: true } },
  })]);
  assert.equal(countsOf(s2).streams.get(DESIGN), 2);
  assert.equal(countsOf(s2).dms.get(String(MIA)), 1);
  assert.equal(countsOf(s2).mentions, 2);
  const s3 = applyEvents(s2, [ev('update_message_flags', { op: 'add', flag: 'read', messages: [], all: true })]);
  assert.equal(countsOf(s3).total, 0);
  assert.equal(countsOf(s3).mentions, 0);
});

test('starring updates the starred set, the copy held and the starred list', () => {
  const m = channelMessage(DESIGN, 't');
  const s0 = applyEvents(withLists(snapshot(), [STARRED]), [newMessage(m, ['read'])]);
  const s1 = applyEvents(s0, [ev('update_message_flags', { op: 'add', flag: 'starred', messages: [m.id], all: false })]);
  assert.ok(s1.starred.has(m.id));
  assert.deepEqual(s1.messages.get(m.id)!.flags, ['read', 'starred']);
  const s2 = applyEvents(s1, [ev('update_message_flags', { op: 'remove', flag: 'starred', messages: [m.id], all: false })]);
  assert.ok(!s2.starred.has(m.id));
  assert.deepEqual(s2.messages.get(m.id)!.flags, ['read']);
});

test('edits replace the rendered content and mark the message edited; mention flags follow', () => {
  const m = channelMessage(DESIGN, 'Colors');
  const s0 = applyEvents(snapshot(), [newMessage(m)]);
  const s1 = applyEvents(s0, [ev('update_message', { message_id: m.id, message_ids: [m.id], rendered_content: '<p>new</p>', content: 'new', edit_timestamp: 50, flags: ['mentioned'], rendering_only: false })]);
  assert.equal(s1.messages.get(m.id)!.content, '<p>new</p>');
  assert.equal(s1.messages.get(m.id)!.last_edit_timestamp, 50);
  assert.equal(countsOf(s1).mentions, 2);
  // A re-rendering (a linkifier changed) is no edit.
  const s2 = applyEvents(s1, [ev('update_message', { message_id: m.id, message_ids: [m.id], rendered_content: '<p>again</p>', edit_timestamp: 60, rendering_only: true })]);
  assert.equal(s2.messages.get(m.id)!.last_edit_timestamp, 50);
});

test('moving a topic moves the messages between lists and their unread counts', () => {
  const a = channelMessage(DESIGN, 'Colors');
  const b = channelMessage(DESIGN, 'Colors');
  const FONTS: Term[] = [{ operator: 'channel', operand: LOBBY }, { operator: 'topic', operand: 'fonts' }];
  const s0 = applyEvents(withLists(snapshot(), [COLORS, FONTS, DESIGN_NARROW, FEED]), [newMessage(a), newMessage(b)]);
  assert.equal(countsOf(s0).topics.get(topicKey(DESIGN, 'colors')), 4);
  const s1 = applyEvents(s0, [ev('update_message', {
    message_id: a.id, message_ids: [a.id, b.id, 10], stream_id: DESIGN, new_stream_id: LOBBY, orig_subject: 'Colors', subject: 'fonts', propagate_mode: 'change_all', edit_timestamp: 70,
  })]);
  assert.deepEqual(list(s1, COLORS), []);
  assert.deepEqual(list(s1, DESIGN_NARROW), []);
  assert.deepEqual(list(s1, FONTS), [a.id, b.id]);
  assert.deepEqual(list(s1, FEED), [a.id, b.id]);
  assert.equal(s1.messages.get(a.id)!.subject, 'fonts');
  assert.equal(s1.messages.get(a.id)!.stream_id, LOBBY);
  assert.equal(s1.messages.get(a.id)!.last_moved_timestamp, 70);
  // Unread message 10, never fetched, moves too; 11 stays.
  assert.equal(countsOf(s1).topics.get(topicKey(DESIGN, 'colors')), 1);
  assert.equal(countsOf(s1).topics.get(topicKey(LOBBY, 'fonts')), 3);
});

test('deleted messages leave the lists, the unread counts and the starred set', () => {
  const m = channelMessage(DESIGN, 'Colors');
  const s0 = applyEvents(withLists(snapshot(), [FEED, COLORS]), [newMessage(m, ['starred'])]);
  const s1 = applyEvents(s0, [ev('delete_message', { message_ids: [m.id, 11], message_type: 'stream', stream_id: DESIGN, topic: 'Colors' })]);
  assert.deepEqual(list(s1, FEED), []);
  assert.ok(!s1.messages.has(m.id));
  assert.ok(!s1.starred.has(m.id));
  assert.equal(countsOf(s1).topics.get(topicKey(DESIGN, 'colors')), 1);
  assert.equal(countsOf(s1).mentions, 0);
});

test('reactions are added once and removed by user and emoji', () => {
  const m = channelMessage(DESIGN, 't');
  const s0 = applyEvents(snapshot(), [newMessage(m)]);
  const react = (op: string, user_id: number) => ev('reaction', { op, message_id: m.id, emoji_name: 'smile', emoji_code: '1f604', reaction_type: 'unicode_emoji', user_id });
  const s1 = applyEvents(s0, [react('add', MIA), react('add', MIA), react('add', IAGO)]);
  assert.deepEqual(s1.messages.get(m.id)!.reactions.map((r) => r.user_id), [MIA, IAGO]);
  const s2 = applyEvents(s1, [react('remove', MIA)]);
  assert.deepEqual(s2.messages.get(m.id)!.reactions.map((r) => r.user_id), [IAGO]);
  // Reactions to messages the app does not hold change nothing.
  assert.equal(applyEvents(s2, [ev('reaction', { op: 'add', message_id: 999999, emoji_name: 'x', emoji_code: '1', reaction_type: 'unicode_emoji', user_id: 1 })]), s2);
});

test('typing notices start, stop, expire, and end when the typist sends', () => {
  const start = (op: string) => ev('typing', { op, message_type: 'stream', stream_id: DESIGN, topic: 'Colors', sender: { user_id: MIA } });
  const s1 = applyEvents(snapshot(), [start('start')], 1000);
  const key = `s:${topicKey(DESIGN, 'colors')}`;
  assert.deepEqual([...s1.typing.get(key)!.keys()], [MIA]);
  assert.equal(applyEvents(s1, [start('stop')]).typing.has(key), false);
  assert.equal(produce(s1, (d) => expireTyping(d, 1000 + 15001)).typing.has(key), false);
  assert.equal(produce(s1, (d) => expireTyping(d, 1000 + 100)).typing.has(key), true);
  assert.equal(applyEvents(s1, [newMessage(channelMessage(DESIGN, 'colors'))]).typing.has(key), false);
  const dm = applyEvents(snapshot(), [ev('typing', { op: 'start', message_type: 'direct', sender: { user_id: MIA }, recipients: [{ user_id: ME }, { user_id: MIA }] })]);
  assert.ok(dm.typing.has(`d:${MIA}`));
  // My own notices (from another of my devices) are not shown.
  assert.equal(applyEvents(snapshot(), [ev('typing', { op: 'start', message_type: 'stream', stream_id: DESIGN, topic: 'x', sender: { user_id: ME } })]).typing.size, 0);
});

test('muting a topic or a channel takes its messages out of the counts; unmuting or following brings them back', () => {
  const s0 = snapshot();
  const mute = (policy: number) => ev('user_topic', { stream_id: DESIGN, topic_name: 'colors', last_updated: 1, visibility_policy: policy });
  const s1 = applyEvents(s0, [mute(1)]);
  assert.equal(countsOf(s1).streams.get(DESIGN), undefined);
  assert.equal(countsOf(s1).total, 1);
  const s2 = applyEvents(s0, [ev('subscription', { op: 'update', stream_id: DESIGN, property: 'is_muted', value: true })]);
  assert.equal(countsOf(s2).streams.get(DESIGN), undefined);
  const s3 = applyEvents(s2, [mute(3)]);
  assert.equal(countsOf(s3).streams.get(DESIGN), 2, 'a followed topic counts in a muted channel');
  const s4 = applyEvents(s2, [ev('subscription', { op: 'update', stream_id: DESIGN, property: 'in_home_view', value: true })]);
  assert.equal(countsOf(s4).streams.get(DESIGN), 2);
});

test('subscriptions: joining, leaving and others joining', () => {
  const s0 = snapshot();
  const art = { stream_id: 50, name: 'art', description: '', invite_only: false, color: '#fff', is_muted: false, pin_to_top: false, desktop_notifications: null, audible_notifications: null, subscriber_count: 1 };
  const s1 = applyEvents(s0, [ev('subscription', { op: 'add', subscriptions: [art] })]);
  assert.ok(s1.subs.has(50) && s1.channels.has(50));
  const s2 = applyEvents(s1, [ev('subscription', { op: 'peer_add', stream_ids: [50], user_ids: [MIA, IAGO] })]);
  assert.equal(s2.subs.get(50)!.subscriber_count, 3);
  const s3 = applyEvents(s2, [ev('subscription', { op: 'remove', subscriptions: [{ stream_id: DESIGN, name: 'design' }] })]);
  assert.ok(!s3.subs.has(DESIGN));
  assert.equal(countsOf(s3).streams.get(DESIGN), undefined, 'a channel left has no unread messages');
  const s4 = applyEvents(s3, [ev('stream', { op: 'update', stream_id: 50, property: 'name', value: 'fine art' })]);
  assert.equal(s4.subs.get(50)!.name, 'fine art');
  assert.equal(s4.channels.get(50)!.name, 'fine art');
});

test('people, presence, settings and drafts', () => {
  const s0 = snapshot();
  const s1 = applyEvents(s0, [
    ev('realm_user', { op: 'update', person: { user_id: MIA, full_name: 'Mia B' } }),
    ev('realm_user', { op: 'add', person: { user_id: 20, full_name: 'New', email: 'n@x', is_active: true, is_bot: false } }),
    ev('presence', { presences: { [MIA]: { active_timestamp: 990, idle_timestamp: 990 } } }),
    ev('user_settings', { op: 'update', property: 'enter_sends', value: true }),
    ev('drafts', { op: 'add', drafts: [{ id: 3, type: 'stream', to: [DESIGN], topic: 't', content: 'hello', timestamp: 5 }] }),
  ]);
  assert.equal(s1.users.get(MIA)!.full_name, 'Mia B');
  assert.ok(s1.users.has(20));
  assert.equal(s1.presence.get(MIA)!.active_timestamp, 990);
  assert.equal(s1.settings.enter_sends, true);
  assert.equal(s1.drafts.get(3)!.content, 'hello');
  const s2 = applyEvents(s1, [ev('drafts', { op: 'update', draft: { id: 3, type: 'stream', to: [DESIGN], topic: 't', content: 'bye', timestamp: 6 } }), ev('realm_user', { op: 'remove', person: { user_id: 20 } })]);
  assert.equal(s2.drafts.get(3)!.content, 'bye');
  assert.equal(s2.users.get(20)!.is_active, false);
  assert.equal(applyEvents(s2, [ev('drafts', { op: 'remove', draft_id: 3 })]).drafts.size, 0);
  // Events the app does not use change nothing at all.
  assert.equal(applyEvents(s2, [ev('heartbeat', {}), ev('restart', {})]), s2);
});

test('a batch of a thousand messages is applied as one new state', () => {
  const s0 = withLists(snapshot(), [FEED, DESIGN_NARROW]);
  const events = Array.from({ length: 1000 }, () => newMessage(channelMessage(DESIGN, 'load')));
  const s1 = applyEvents(s0, events);
  assert.equal(list(s1, FEED).length, 1000);
  assert.equal(countsOf(s1).streams.get(DESIGN), 1002);
});
