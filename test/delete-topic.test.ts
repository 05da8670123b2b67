// POST /streams/{stream_id}/delete_topic: newest first in batches of 100, each its own transaction, `complete:
// false` when the time budget runs out (set to 0 here: one batch per request), the delete_message events.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { assertError, assertSuccess } from './helpers/assertions.js';
import { assertMatchesSchema } from './helpers/openapi.js';
import { validateEvent } from './helpers/openapi-events.js';
import { Listeners } from './helpers/events.js';
import { createChannel, fetchMessages, ids, sendToChannel, takeUntil } from './helpers/messages.js';

let server: TestServer;
let denmark: number;
before(async () => {
  server = await startTestServer({ env: { PARLANCE_DELETE_TOPIC_SECONDS: '0' } });
  denmark = await createChannel(server, 'iago', ['hamlet', 'iago']);
});
after(() => server.close());

async function flood(topic: string, n: number): Promise<void> {
  await server.withApp(async (app) => {
    const { transaction } = await import('../src/store/tx.js');
    const { insertMessage, streamRecipient } = await import('../src/store/messages.js');
    await transaction(app.db, app.dialect, async (tx) => {
      const recipientId = await streamRecipient(tx, 1, denmark);
      for (let i = 0; i < n; i++) {
        await insertMessage(tx, {
          realmId: 1, senderId: server.users.hamlet.id, recipientId, streamId: denmark, topic, content: `m${i}`, renderedContent: `<p>m${i}</p>`,
          dateSent: Math.floor(Date.now() / 1000), client: 'test', hasLink: false, hasImage: false, hasAttachment: false, isMeMessage: false,
        }, [{ userId: server.users.hamlet.id, flags: 0 }, { userId: server.users.iago.id, flags: 0 }]);
      }
    });
  });
}

test('a large topic goes in batches of 100, newest first, each request deleting at least one', async () => {
  await flood('flood', 250);
  const kept = await sendToChannel(server, 'hamlet', denmark, 'other', 'stays');
  const l = await Listeners.open(server, ['hamlet'], { client_capabilities: JSON.stringify({ bulk_message_deletion: true }) });
  const answers: boolean[] = [];
  for (;;) {
    const body = assertSuccess(await server.as('iago').post(`/streams/${denmark}/delete_topic`, { topic_name: 'flood' }));
    assertMatchesSchema('/streams/{stream_id}/delete_topic', 'post', body);
    answers.push(body.complete);
    if (body.complete) break;
  }
  assert.deepEqual(answers, [false, false, true]);
  const events = await takeUntil(l, 'hamlet', 'delete_message', () => false, 1000);
  for (const e of events) assert.deepEqual(validateEvent(e), []);
  assert.deepEqual(events.map((e) => e.message_ids.length), [100, 100, 50]);
  assert.ok(Math.min(...events[0].message_ids) > Math.max(...events[1].message_ids), 'newest first');
  assert.deepEqual(ids(await fetchMessages(server, 'hamlet', { narrow: JSON.stringify([['channel', String(denmark)]]) })), [kept]);
});

test('only those who may delete any message; the channel must be readable', async () => {
  await sendToChannel(server, 'hamlet', denmark, 'mine', 'hello');
  assertError(await server.as('hamlet').post(`/streams/${denmark}/delete_topic`, { topic_name: 'mine' }), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
  const secret = await createChannel(server, 'desdemona', ['desdemona'], { invite_only: true, history_public_to_subscribers: false });
  assertError(await server.as('iago').post(`/streams/${secret}/delete_topic`, { topic_name: 'x' }), 400, 'BAD_REQUEST', 'Invalid channel ID');
  assertError(await server.as('iago').post('/streams/999999/delete_topic', { topic_name: 'x' }), 400, 'BAD_REQUEST', 'Invalid channel ID');
  assert.equal(assertSuccess(await server.as('iago').post(`/streams/${denmark}/delete_topic`, { topic_name: 'nothing here' })).complete, true);
});
