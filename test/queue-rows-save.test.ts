// Queue positions are saved in bulk (every few seconds, thousands at once, by every process that serves a queue):
// each saved column only moves forward, a queue deleted meanwhile is not brought back, and no other row changes.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { withDb } from './helpers/direct-db.js';
import { insertQueueRow, updateQueueRows } from '../src/store/events.js';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server?.close());

test('1,200 queues saved at once: each column moves forward only, unknown ids are ignored, other rows keep theirs', async () => {
  const realmId = 1;
  const userId = server.users.hamlet.id;
  const ids = Array.from({ length: 1300 }, (_, i) => `save-test-${i}`);
  const saved = await withDb(server, async (db) => {
    for (const [i, id] of ids.entries()) {
      await insertQueueRow(db, { id, realmId, userId, options: {}, created: 1000, lastPoll: 1000 + i, idleTimeout: 600, baseEventId: 0, ackedEventId: 50, lastId: 50 });
    }
    // The first 1,200 are saved: even ones forward, odd ones with older values (another process's late save).
    await updateQueueRows(db, [
      ...ids.slice(0, 1200).map((id, i) => (i % 2 ? { id, lastPoll: 10, ackedEventId: 1, lastId: 2 } : { id, lastPoll: 5000 + i, ackedEventId: 60 + i, lastId: 70 + i })),
      { id: 'no-such-queue', lastPoll: 9999, ackedEventId: 9999, lastId: 9999 },
    ]);
    const rows = await db.selectFrom('event_queues').select(['id', 'last_poll', 'acked_event_id', 'last_id']).where('id', 'like', 'save-test-%').execute();
    const gone = await db.selectFrom('event_queues').select('id').where('id', '=', 'no-such-queue').execute();
    return { rows: new Map(rows.map((r) => [r.id, [Number(r.last_poll), Number(r.acked_event_id), Number(r.last_id)]])), gone };
  });
  assert.equal(saved.rows.size, 1300);
  assert.deepEqual(saved.gone, []);
  for (const [i, id] of ids.entries()) {
    const expected = i < 1200 && i % 2 === 0 ? [5000 + i, 60 + i, 70 + i] : [1000 + i, 50, 50];
    assert.deepEqual(saved.rows.get(id), expected, id);
  }
});
