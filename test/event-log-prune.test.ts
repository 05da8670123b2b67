// The event log is pruned of what every queue has acknowledged and is older than the cut-off — and of nothing
// else — in bounded statements, however large the events are (one for 50,000 users carries all their ids).
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { withDb } from './helpers/direct-db.js';
import { insertQueueRow, pruneEvents } from '../src/store/events.js';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server?.close());

test('old acknowledged events are deleted, newer or unacknowledged ones kept, large ones included', async () => {
  const now = Math.floor(Date.now() / 1000);
  const users = JSON.stringify(Array.from({ length: 2000 }, (_, i) => 100_000 + i)); // about 14 KB an event
  const { kept, expected } = await withDb(server, async (db) => {
    const ids: number[] = [];
    const created = new Map<number, number>();
    for (let i = 0; i < 1300; i++) {
      // Most are old; every 97th is recent although among old ones (written by a process whose clock is ahead).
      const at = i >= 1250 || i % 97 === 50 ? now : 1000;
      const row = await db.insertInto('events').values({ realm_id: 1, created: at, event: JSON.stringify({ type: 'test', n: i }), users: i % 3 ? users : null })
        .returning('id').executeTakeFirstOrThrow();
      ids.push(Number(row.id));
      created.set(Number(row.id), at);
    }
    const acked = ids[1199];
    await insertQueueRow(db, { id: 'prune-test', realmId: 1, userId: server.users.hamlet.id, options: {}, created: now, lastPoll: now, idleTimeout: 600, baseEventId: 0, ackedEventId: acked, lastId: acked });
    await pruneEvents(db, now - 600);
    const left = await db.selectFrom('events').select('id').where('id', '>=', ids[0]).orderBy('id').execute();
    await db.deleteFrom('event_queues').where('id', '=', 'prune-test').execute();
    return { kept: left.map((r) => Number(r.id)), expected: ids.filter((id) => id > acked || created.get(id)! >= now - 600) };
  });
  assert.deepEqual(kept, expected);
  assert.ok(expected.length > 50 && expected.length < 200, `${expected.length} kept`);
});
