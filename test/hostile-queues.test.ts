// A hostile client registering event queues as fast as it can, on two processes at once: it keeps at most the
// per-user cap (50) of them, and the server keeps answering everyone else.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { assertSuccess } from './helpers/assertions.js';
import { Client } from './helpers/client.js';
import { Listeners } from './helpers/events.js';
import { createChannel, sendToChannel } from './helpers/messages.js';
import { withDb } from './helpers/direct-db.js';

let server: TestServer;
let peer: TestServer;
before(async () => {
  server = await startTestServer();
  peer = await server.startPeer();
});
after(async () => {
  await peer?.stop('SIGKILL');
  await server?.close();
});

const CAP = 50;
const FLOOD = 600;

test(`${FLOOD} queues registered at once by one user leave them ${CAP}, and others are still served`, async () => {
  const channel = await createChannel(server, 'iago', ['hamlet', 'cordelia']);
  const l = await Listeners.open(server, ['cordelia'], { event_types: ['message'] });
  const { email, apiKey } = server.users.hamlet;
  const clients = [new Client(server.url, { email, apiKey }), new Client(peer.url, { email, apiKey })];
  const ids: string[] = [];
  let next = 0;
  // 16 registrations in flight at any time, alternating between the processes.
  await Promise.all(Array.from({ length: 16 }, async () => {
    while (next < FLOOD) {
      const i = next++;
      const res = await clients[i % 2].post('/register', { event_types: ['message'], fetch_event_types: [], all_public_streams: true, idle_queue_timeout: 7 * 24 * 3600 });
      assert.equal(res.status, 200, res.text);
      ids.push(res.body.queue_id);
    }
  }));
  const rows = await withDb(server, async (db) => db.selectFrom('event_queues').select('id').where('user_id', '=', server.users.hamlet.id).execute());
  assert.ok(rows.length <= CAP, `${rows.length} queues left`);
  assert.ok(rows.length >= CAP - 16, `${rows.length} queues left`); // only those evicted by a concurrent registration may be missing

  // Everyone else is still answered, and messages still reach them.
  await sendToChannel(server, 'cordelia', channel, 'still here', 'hello');
  const got = await l.waitFor('cordelia', 'message');
  assert.equal(got[0].message.content, 'hello');
  assertSuccess(await server.as('iago').get('/users/me'));
  assertSuccess(await peer.as('iago').get('/users/me'));
});
