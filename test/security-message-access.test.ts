// Issue 23: a member removed from a private channel loses access to its messages by id (fetch, edit history,
// reactions, reminders, reports) and stops hearing what others do to them, while what they received stays in
// their own feed, with its uploads readable, as on the reference server.
import { test, after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type SeedName, type TestServer } from './helpers/server.js';
import { Listeners } from './helpers/events.js';
import { assertError, createChannel, ids, sendToChannel } from './helpers/messages.js';
import { fetchFile, uploaded } from './helpers/uploads.js';

let server: TestServer;
let moderation: number;
before(async () => {
  server = await startTestServer();
  moderation = await createChannel(server, 'iago', ['iago'], { invite_only: true });
  assert.equal((await server.as('iago').patch('/realm', { moderation_request_channel_id: moderation })).status, 200);
});
after(() => server.close());

const INVALID = 'Invalid message(s)';

interface Setup { channel: number; name: string; message: number; file: string }

// iago's private channel with hamlet and cordelia; hamlet posts a file, cordelia reacts, then iago removes her.
async function removedFrom(history: 'shared' | 'protected'): Promise<Setup> {
  const name = `Vault ${history} ${process.pid}`;
  const channel = await createChannel(server, 'iago', ['iago', 'hamlet', 'cordelia'], { invite_only: true, history_public_to_subscribers: history === 'shared' }, name);
  const file = await uploaded(server, 'hamlet', 'plan.txt', `the ${history} plan`);
  const message = await sendToChannel(server, 'hamlet', channel, 'plans', `see [plan](${file})`);
  assert.equal((await server.as('cordelia').post(`/messages/${message}/reactions`, { emoji_name: 'octopus' })).status, 200);
  const removed = await server.as('iago').delete('/users/me/subscriptions', { subscriptions: [name], principals: [server.users.cordelia.id] });
  assert.equal(removed.status, 200, removed.text);
  return { channel, name, message, file };
}

for (const history of ['shared', 'protected'] as const) {
  describe(`removed from a private channel with ${history} history`, () => {
    let s: Setup;
    before(async () => {
      s = await removedFrom(history);
    });

    test('every by-id read and action is refused as for a message that does not exist', async () => {
      const c = server.as('cordelia');
      assertError(await c.get(`/messages/${s.message}`), INVALID);
      assertError(await c.get(`/messages/${s.message}/history`), INVALID);
      assertError(await c.post(`/messages/${s.message}/reactions`, { emoji_name: 'tada' }), INVALID);
      assertError(await c.delete(`/messages/${s.message}/reactions`, { emoji_name: 'octopus' }), INVALID);
      assertError(await c.post('/reminders', { message_id: s.message, scheduled_delivery_timestamp: Math.floor(Date.now() / 1000) + 3600 }), INVALID);
      assertError(await c.post(`/messages/${s.message}/report`, { report_type: 'spam' }), INVALID);
      // The same refusal as for a message that never existed, so nothing tells the two apart.
      assertError(await c.get('/messages/999999999'), INVALID);
    });

    test('what they received stays in their own feed, their flags on it still change, and its upload stays readable', async () => {
      const feed = await server.as('cordelia').get('/messages', { anchor: s.message, num_before: 0, num_after: 0, narrow: [] });
      assert.equal(feed.status, 200, feed.text);
      assert.deepEqual(ids(feed.body), [s.message]);
      // As on the reference server, flags change on messages one holds a row for without a new access check.
      const star = await server.as('cordelia').post('/messages/flags', { messages: [s.message], op: 'add', flag: 'starred' });
      assert.equal(star.status, 200, star.text);
      const file = await fetchFile(server, 'cordelia', s.file);
      assert.equal(file.status, 200, file.text);
      assert.equal(file.text, `the ${history} plan`);
    });

    test('what others do to the message no longer reaches them', async () => {
      const l = await Listeners.open(server, ['cordelia', 'hamlet', 'iago']);
      assert.equal((await server.as('iago').post(`/messages/${s.message}/reactions`, { emoji_name: 'heart' })).status, 200);
      assert.equal((await server.as('iago').delete(`/messages/${s.message}/reactions`, { emoji_name: 'heart' })).status, 200);
      assert.equal((await server.as('hamlet').patch(`/messages/${s.message}`, { content: `edited [plan](${s.file})` })).status, 200);
      const seen = (who: SeedName) => l.waitFor(who, 'update_message');
      await seen('hamlet');
      const kinds = async (who: SeedName) => (await l.take(who)).filter((e) => e.message_id === s.message).map((e) => `${e.type}${e.op ? `:${e.op}` : ''}`);
      assert.deepEqual(await kinds('iago'), ['reaction:add', 'reaction:remove', 'update_message']);
      assert.deepEqual(await kinds('cordelia'), []);
    });
  });
}
