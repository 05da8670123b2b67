// Per role (owner, administrator, moderator, member, guest, bot), under the organization's default settings:
// subscribing, unsubscribing, channel creation settings, and editing, moving and deleting messages.
import { test, after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type SeedName, type TestServer } from './helpers/server.js';
import { assertError, channelName, createChannel, sendToChannel, unique } from './helpers/messages.js';

let server: TestServer;
let court: number; // public, everyone subscribed
let annex: number; // public, everyone subscribed
before(async () => {
  server = await startTestServer();
  court = await createChannel(server, 'iago', [...ACTORS, 'cordelia'], { send_new_subscription_messages: false });
  annex = await createChannel(server, 'iago', [...ACTORS, 'cordelia'], { send_new_subscription_messages: false });
});
after(() => server.close());

const ACTORS: SeedName[] = ['desdemona', 'iago', 'shiva', 'hamlet', 'polonius', 'bot'];
const ok = (res: { status: number; text: string }, who: SeedName) => assert.equal(res.status, 200, `${who}: ${res.text}`);

// Runs `op` for every role (of `actors`); `allowed` roles succeed, the others get `refusal`.
async function matrix(allowed: SeedName[], refusal: string, op: (who: SeedName) => Promise<{ status: number; body: any; text: string }>, actors = ACTORS) {
  for (const who of actors) {
    const res = await op(who);
    if (allowed.includes(who)) ok(res, who);
    else assertError(res, refusal);
  }
}
const NOT_GUESTS: SeedName[] = ['desdemona', 'iago', 'shiva', 'hamlet', 'bot'];
const ADMINS: SeedName[] = ['desdemona', 'iago'];

describe('subscriptions', () => {
  test('subscribing oneself or others: everyone but guests, who may not use the endpoint at all', async () => {
    const name = await channelName(server, court);
    await matrix(NOT_GUESTS, 'Not allowed for guest users', (who) => server.as(who).post('/users/me/subscriptions', { subscriptions: [{ name }] }));
    await matrix(NOT_GUESTS, 'Not allowed for guest users', (who) =>
      server.as(who).post('/users/me/subscriptions', { subscriptions: [{ name }], principals: [server.users.cordelia.id] }));
    assertError(await server.as('polonius').post('/users/me/subscriptions', { subscriptions: [{ name: unique('Guest') }] }), 'Not allowed for guest users');
  });

  test('unsubscribing others: administrators (can_remove_subscribers_group); oneself: everyone', async () => {
    const name = await channelName(server, court);
    const resubscribe = () => server.as('iago').post('/users/me/subscriptions', { subscriptions: [{ name }], principals: [server.users.cordelia.id], send_new_subscription_messages: false });
    await matrix(ADMINS, 'Insufficient permission', async (who) => {
      await resubscribe();
      return server.as(who).delete('/users/me/subscriptions', { subscriptions: [name], principals: [server.users.cordelia.id] });
    });
    const leave = await createChannel(server, 'iago', ACTORS, { send_new_subscription_messages: false });
    const leaveName = await channelName(server, leave);
    for (const who of ACTORS) {
      const res = await server.as(who).delete('/users/me/subscriptions', { subscriptions: [leaveName] });
      ok(res, who);
      assert.deepEqual(res.body.removed, [leaveName]);
    }
  });

  test('a channel\'s deletion settings: set only by can_set_delete_message_policy_group (moderators)', async () => {
    const members = JSON.stringify(await groupId('role:members'));
    await matrix(['desdemona', 'iago', 'shiva'], 'Insufficient permission', (who) =>
      server.as(who).post('/users/me/subscriptions', { subscriptions: [{ name: unique(`Deletion ${who}`) }], can_delete_own_message_group: members }), NOT_GUESTS);
    // Setting them to nobody needs no permission; changing them later, even on one's own channel, does.
    assert.equal((await server.as('hamlet').post('/users/me/subscriptions', { subscriptions: [{ name: unique('Nobody') }], can_delete_any_message_group: JSON.stringify(await groupId('role:nobody')) })).status, 200);
    const own = await createChannel(server, 'hamlet', ['hamlet']);
    assertError(await server.as('hamlet').patch(`/streams/${own}`, { can_delete_any_message_group: JSON.stringify({ new: await groupId('role:members') }) }), 'Insufficient permission');
    const mine = await createChannel(server, 'shiva', ['shiva']);
    assert.equal((await server.as('shiva').patch(`/streams/${mine}`, { can_delete_any_message_group: JSON.stringify({ new: await groupId('role:members') }) })).status, 200);
  });
});

async function groupId(name: string): Promise<number> {
  const res = await server.as('iago').post('/register', { fetch_event_types: ['realm_user_groups'] });
  return res.body.realm_user_groups.find((g: { name: string }) => g.name === name).id;
}

describe('messages', () => {
  const edit = (who: SeedName, id: number, params: Record<string, unknown>) =>
    server.as(who).patch(`/messages/${id}`, { send_notification_to_new_thread: false, ...params });

  test('editing one\'s own message: every role', async () => {
    for (const who of ACTORS) ok(await edit(who, await sendToChannel(server, who, court, 'own', 'draft'), { content: 'final' }), who);
  });

  test('moving another\'s message: topics and resolving for everyone, channels for members and up', async () => {
    await matrix(ACTORS, '', async (who) => edit(who, await sendToChannel(server, 'cordelia', court, 'from', 'x'), { topic: unique(`to ${who}`) }));
    await matrix(ACTORS, '', async (who) => {
      const topic = unique('issue');
      return edit(who, await sendToChannel(server, 'cordelia', court, topic, 'x'), { topic: `✔ ${topic}` });
    });
    await matrix(NOT_GUESTS, "You don't have permission to move this message", async (who) => edit(who, await sendToChannel(server, 'cordelia', court, 'away', 'x'), { stream_id: annex }));
  });

  test('deleting: one\'s own for every role, another\'s for administrators', async () => {
    for (const who of ACTORS) ok(await server.as(who).delete(`/messages/${await sendToChannel(server, who, court, 'mine', 'x')}`), who);
    await matrix(ADMINS, "You don't have permission to delete this message", async (who) =>
      server.as(who).delete(`/messages/${await sendToChannel(server, 'cordelia', court, 'theirs', 'x')}`));
  });
});
