// The organization's user list as a serving process keeps it (src/store/user-list.ts): after a change it reads only
// the range of ids that changed, shares the others with the previous list, and never keeps what a transaction
// that rolled back had read. Two connections to one database stand for two processes; the first caches.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { openDatabase, type Database } from '../src/store/open.js';
import { syncCaches } from '../src/store/cache.js';
import { insertRealm } from '../src/store/realms.js';
import { transaction } from '../src/store/tx.js';
import { insertUser, listParts, listUsers, updateUser, USER_RANGE, ROLE } from '../src/store/users.js';
import { freshDatabase, type TestDatabase } from './helpers/database.js';

const COUNT = 2200; // users over at least three ranges of ids
let where: TestDatabase;
let server: Database;
let other: Database;
let realmId: number;
let ids: number[];

before(async () => {
  where = await freshDatabase();
  server = await openDatabase(where);
  server.enableCache();
  other = await openDatabase(where);
  realmId = (await insertRealm(other.db, { stringId: '', name: 'Users', now: 0 })).id;
  ids = [];
  await transaction(other.db, other.dialect, async (tx) => {
    for (let i = 0; i < COUNT; i++) {
      const u = await insertUser(tx, { realmId, email: `u${i}@example.com`, fullName: `User ${i}`, role: ROLE.member, isBot: false, passwordHash: null, apiKey: `key-${i}`, now: 0 });
      ids.push(u.id);
    }
  });
});
after(async () => {
  await server.close();
  await other.close();
  await where.drop();
});

const names = (list: { fullName: string }[]) => list.map((u) => u.fullName);
const rangeOf = (id: number) => Math.floor(id / USER_RANGE);

test('the list follows every change, whoever makes it, and shares the ranges that did not change', async () => {
  const first = await listUsers(server.db, realmId);
  assert.deepEqual(first.map((u) => u.id), ids);
  assert.ok(Object.isFrozen(first));

  const renamed = ids[1500];
  await updateUser(server.db, renamed, { fullName: 'Renamed here' });
  const second = await listUsers(server.db, realmId);
  assert.notEqual(second, first);
  assert.equal(second.find((u) => u.id === renamed)!.fullName, 'Renamed here');
  assert.deepEqual(names(second.filter((u) => u.id !== renamed)), names(first.filter((u) => u.id !== renamed)));
  const ranges = [...new Set(ids.map(rangeOf))];
  assert.ok(ranges.length >= 3, `${ranges.length} ranges`);
  for (const r of ranges) {
    if (r === rangeOf(renamed)) assert.notEqual(listParts(second)!.get(r), listParts(first)!.get(r));
    else assert.equal(listParts(second)!.get(r), listParts(first)!.get(r), `range ${r} read again`);
  }

  // Another process: a rename, a deactivation and a new user, seen once this one has caught up.
  await updateUser(other.db, ids[10], { fullName: 'Renamed elsewhere' });
  await updateUser(other.db, ids[2100], { isActive: false });
  const added = await insertUser(other.db, { realmId, email: 'late@example.com', fullName: 'Late', role: ROLE.member, isBot: false, passwordHash: null, apiKey: 'key-late', now: 0 });
  await syncCaches(server.db);
  const third = await listUsers(server.db, realmId);
  assert.equal(third.length, COUNT + 1);
  assert.equal(third.find((u) => u.id === ids[10])!.fullName, 'Renamed elsewhere');
  assert.equal(third.find((u) => u.id === ids[2100])!.isActive, false);
  assert.equal(third.at(-1)!.id, added.id);
  assert.deepEqual(third.map((u) => u.id), [...ids, added.id]);
});

test('what a transaction read of its own uncommitted change is not kept once it rolls back', async () => {
  const id = ids[700];
  await listUsers(server.db, realmId);
  await assert.rejects(
    transaction(server.db, server.dialect, async (tx) => {
      await updateUser(tx, id, { fullName: 'Never committed' });
      assert.equal((await listUsers(tx, realmId)).find((u) => u.id === id)!.fullName, 'Never committed');
      throw new Error('changed my mind');
    }),
    /changed my mind/,
  );
  assert.equal((await listUsers(server.db, realmId)).find((u) => u.id === id)!.fullName, 'User 700');
  // The next committed change takes the version the rolled-back one had taken (on SQLite): its own row is read.
  await transaction(server.db, server.dialect, (tx) => updateUser(tx, id, { fullName: 'Committed' }));
  assert.equal((await listUsers(server.db, realmId)).find((u) => u.id === id)!.fullName, 'Committed');
});
