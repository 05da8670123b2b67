// Lists naming the same thing twice (issue 23): a user twice in `principals` (by id, by e-mail, or both), a channel
// twice, the same member, subgroup, recipient or message twice. Each counts once; none is a 500.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { assertSuccess } from './helpers/assertions.js';
import { Listeners } from './helpers/events.js';
import { createChannel, sendToChannel, unique } from './helpers/messages.js';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server?.close());

const members = async (groupId: number) => assertSuccess(await server.as('iago').get(`/user_groups/${groupId}/members`)).members as number[];
const subscribers = async (name: string) => {
  const id = assertSuccess(await server.as('iago').get('/get_stream_id', { stream: name })).stream_id;
  return (assertSuccess(await server.as('iago').get(`/streams/${id}/members`)).subscribers as number[]).sort((a, b) => a - b);
};

test('a user named twice in principals is subscribed once, whether by id, by e-mail or both', async () => {
  const { cordelia, hamlet } = server.users;
  const l = await Listeners.open(server, ['cordelia']);
  const name = unique('Twice');
  const created = assertSuccess(await server.as('iago').post('/users/me/subscriptions', { subscriptions: [{ name }], principals: [cordelia.id, cordelia.id] }));
  assert.deepEqual(created.subscribed, { [cordelia.id]: [name] });
  assert.deepEqual(await subscribers(name), [cordelia.id]);
  assert.equal((await l.take('cordelia', 'subscription')).filter((e) => e.op === 'add').length, 1);
  const mixed = assertSuccess(await server.as('iago').post('/users/me/subscriptions', {
    subscriptions: [{ name }, { name: name.toUpperCase() }], principals: [hamlet.email, hamlet.id, hamlet.email.toUpperCase(), cordelia.id],
  }));
  assert.deepEqual(mixed.subscribed, { [hamlet.id]: [name] });
  assert.deepEqual(mixed.already_subscribed, { [cordelia.id]: [name] });
  assert.deepEqual(await subscribers(name), [hamlet.id, cordelia.id].sort((a, b) => a - b));
});

test('unsubscribing names a channel or a user twice: removed once, and not also "not removed"', async () => {
  const { cordelia, hamlet } = server.users;
  const name = unique('Leave twice');
  assertSuccess(await server.as('iago').post('/users/me/subscriptions', { subscriptions: [{ name }], principals: [cordelia.id, hamlet.id] }));
  const byOthers = assertSuccess(await server.as('iago').delete('/users/me/subscriptions', { subscriptions: [name], principals: [cordelia.id, cordelia.email] }));
  assert.deepEqual(byOthers, { result: 'success', msg: '', removed: [name], not_removed: [] });
  const own = assertSuccess(await server.as('hamlet').delete('/users/me/subscriptions', { subscriptions: [name, name.toLowerCase(), ` ${name}`] }));
  assert.deepEqual({ removed: own.removed, not_removed: own.not_removed }, { removed: [name], not_removed: [] });
  assert.deepEqual(await subscribers(name), []);
});

test('user group members and subgroups named twice count once', async () => {
  const { cordelia, hamlet } = server.users;
  const sub = assertSuccess(await server.as('iago').post('/user_groups/create', { name: unique('sub'), description: '', members: [hamlet.id] })).group_id;
  const id = assertSuccess(await server.as('iago').post('/user_groups/create', {
    name: unique('twice'), description: '', members: [cordelia.id, cordelia.id], subgroups: [sub, sub],
  })).group_id;
  assert.deepEqual(await members(id), [hamlet.id, cordelia.id].sort((a, b) => a - b));
  assert.deepEqual(assertSuccess(await server.as('iago').get(`/user_groups/${id}/subgroups`, { direct_subgroup_only: true })).subgroups, [sub]);
  assertSuccess(await server.as('iago').post(`/user_groups/${sub}/members`, { add: [cordelia.id, cordelia.id] }));
  assertSuccess(await server.as('iago').post(`/user_groups/${sub}/members`, { delete: [hamlet.id, hamlet.id] }));
  assert.deepEqual(await members(sub), [cordelia.id]);
});

test('a direct message to the same user twice, flags on the same message twice, a draft to the same user twice', async () => {
  const { cordelia } = server.users;
  const sent = assertSuccess(await server.as('hamlet').post('/messages', { type: 'direct', to: [cordelia.id, cordelia.id], content: 'twice' }));
  const message = assertSuccess(await server.as('cordelia').get(`/messages/${sent.id}`)).message;
  assert.deepEqual(message.display_recipient.map((r: { id: number }) => r.id).sort(), [server.users.hamlet.id, cordelia.id].sort());
  const channel = await createChannel(server, 'iago', ['cordelia']);
  const id = await sendToChannel(server, 'iago', channel, 'twice', 'star me');
  assert.deepEqual(assertSuccess(await server.as('cordelia').post('/messages/flags', { messages: [id, id], op: 'add', flag: 'starred' })).messages, [id]);
  const draft = assertSuccess(await server.as('cordelia').post('/drafts', { drafts: [{ type: 'private', to: [server.users.hamlet.id, server.users.hamlet.id], topic: '', content: 'x' }] }));
  const drafts = assertSuccess(await server.as('cordelia').get('/drafts')).drafts as { id: number; to: number[] }[];
  assert.deepEqual(drafts.find((d) => d.id === draft.ids[0])!.to, [server.users.hamlet.id]);
});
