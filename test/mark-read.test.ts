// POST /mark_all_as_read (in batches, `complete`), /mark_stream_as_read and /mark_topic_as_read.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { assertError, assertSuccess } from './helpers/assertions.js';
import { assertMatchesSchema } from './helpers/openapi.js';
import { validateEvent } from './helpers/openapi-events.js';
import { Listeners } from './helpers/events.js';
import { createChannel, messageFlags, sendDm, sendToChannel, takeUntil } from './helpers/messages.js';

let server: TestServer;
let denmark: number;
let norway: number;
let secret: number;
before(async () => {
  server = await startTestServer();
  denmark = await createChannel(server, 'iago', ['hamlet', 'cordelia']);
  norway = await createChannel(server, 'iago', ['hamlet', 'cordelia']);
  secret = await createChannel(server, 'iago', ['iago'], { invite_only: true });
});
after(() => server.close());

const unread = async (id: number) => !(await messageFlags(server, 'hamlet', id)).includes('read');

test('a topic, then a channel, then everything', async () => {
  const castle = await sendToChannel(server, 'cordelia', denmark, 'castle', 'one');
  const ramparts = await sendToChannel(server, 'cordelia', denmark, 'ramparts', 'two');
  const fjord = await sendToChannel(server, 'cordelia', norway, 'fjord', 'three');
  const dm = await sendDm(server, 'cordelia', ['hamlet'], 'four');
  const l = await Listeners.open(server, ['hamlet']);

  assertSuccess(await server.as('hamlet').post('/mark_topic_as_read', { stream_id: denmark, topic_name: 'Castle' }));
  const [event] = await takeUntil(l, 'hamlet', 'update_message_flags');
  assert.deepEqual(validateEvent(event), []);
  assert.deepEqual([event.op, event.flag, event.messages, event.all], ['add', 'read', [castle], false]);
  assert.deepEqual([await unread(castle), await unread(ramparts)], [false, true]);

  assertSuccess(await server.as('hamlet').post('/mark_stream_as_read', { stream_id: denmark }));
  assert.deepEqual([await unread(ramparts), await unread(fjord)], [false, true]);

  const all = assertSuccess(await server.as('hamlet').post('/mark_all_as_read'));
  assertMatchesSchema('/mark_all_as_read', 'post', all);
  assert.equal(all.complete, true);
  assert.deepEqual([await unread(fjord), await unread(dm)], [false, false]);
  assert.equal(assertSuccess(await server.as('hamlet').post('/mark_all_as_read')).complete, true, 'nothing left: complete');
});

test('errors', async () => {
  assertError(await server.as('hamlet').post('/mark_topic_as_read', { stream_id: denmark, topic_name: 'nowhere' }), 400, 'BAD_REQUEST', "No such topic 'nowhere'");
  assertError(await server.as('hamlet').post('/mark_stream_as_read', { stream_id: secret }), 400, 'BAD_REQUEST', 'Invalid channel ID');
  assertError(await server.as('hamlet').post('/mark_topic_as_read', { stream_id: 999999, topic_name: 'x' }), 400, 'BAD_REQUEST', 'Invalid channel ID');
  assertError(await server.as('hamlet').post('/mark_stream_as_read', {}), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'stream_id' argument");
});

test('many unread messages are marked in batches (their events merge in the queue, as flag additions do)', async () => {
  await server.withApp(async (app) => {
    const { transaction } = await import('../src/store/tx.js');
    const { insertMessage, streamRecipient } = await import('../src/store/messages.js');
    await transaction(app.db, app.dialect, async (tx) => {
      const recipientId = await streamRecipient(tx, 1, norway);
      for (let i = 0; i < 1500; i++) {
        await insertMessage(tx, {
          realmId: 1, senderId: server.users.cordelia.id, recipientId, streamId: norway, topic: 'flood', content: `m${i}`, renderedContent: `<p>m${i}</p>`,
          dateSent: Math.floor(Date.now() / 1000), client: 'test', hasLink: false, hasImage: false, hasAttachment: false, isMeMessage: false,
        }, [{ userId: server.users.hamlet.id, flags: 0 }]);
      }
    });
  });
  const l = await Listeners.open(server, ['hamlet']);
  assert.equal(assertSuccess(await server.as('hamlet').post('/mark_all_as_read')).complete, true);
  const events = await takeUntil(l, 'hamlet', 'update_message_flags', () => false, 1000);
  assert.equal(new Set(events.flatMap((e) => e.messages)).size, 1500);
  const reg = assertSuccess(await server.as('hamlet').post('/register', { fetch_event_types: JSON.stringify(['message', 'update_message_flags']) }));
  assert.equal(reg.unread_msgs.count, 0);
});
