// The store's cache and group commit below the HTTP layer: two connections to one database stand for two
// processes; only the first caches, as a serving process does.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { openDatabase, type Database } from '../src/store/open.js';
import { syncCaches } from '../src/store/cache.js';
import { readEvents } from '../src/store/events.js';
import { insertRealm } from '../src/store/realms.js';
import { transaction } from '../src/store/tx.js';
import { findUser, findUserByEmail, insertUser, updateUser, ROLE } from '../src/store/users.js';
import { freshDatabase, type TestDatabase } from './helpers/database.js';

let where: TestDatabase;
let server: Database; // caches
let other: Database; // another process
let realmId: number;
let userIds: number[];

before(async () => {
  where = await freshDatabase();
  server = await openDatabase(where);
  server.enableCache();
  other = await openDatabase(where);
  realmId = (await insertRealm(other.db, { stringId: '', name: 'Cache', now: 0 })).id;
  userIds = [];
  for (const name of ['ann', 'bob', 'cid']) {
    const u = await insertUser(other.db, { realmId, email: `${name}@example.com`, fullName: name, role: ROLE.member, isBot: false, passwordHash: null, apiKey: `key-${name}`, now: 0 });
    userIds.push(u.id);
  }
});
after(async () => {
  await server.close();
  await other.close();
  await where.drop();
});

const nameOf = async (id: number, db = server.db) => (await findUser(db, realmId, id))!.fullName;

test('cached values are shared and frozen', async () => {
  const a = await findUser(server.db, realmId, userIds[0]);
  const b = await findUser(server.db, realmId, userIds[0]);
  assert.equal(a, b);
  assert.ok(Object.isFrozen(a) && Object.isFrozen(a!.settings));
});

test('a transaction reads its own writes; a rolled-back write leaves nothing behind', async () => {
  const [id] = userIds;
  assert.equal(await nameOf(id), 'ann');
  await assert.rejects(
    transaction(server.db, server.dialect, async (tx) => {
      await updateUser(tx, id, { fullName: 'inside' });
      assert.equal(await nameOf(id, tx), 'inside');
      throw new Error('changed my mind');
    }),
    /changed my mind/,
  );
  assert.equal(await nameOf(id), 'ann');
  await transaction(server.db, server.dialect, (tx) => updateUser(tx, id, { fullName: 'after' }));
  assert.equal(await nameOf(id), 'after');
});

test("another process's change counts once the process syncs (as every request does first)", async () => {
  const [, id] = userIds;
  assert.equal(await nameOf(id), 'bob');
  assert.equal((await findUserByEmail(server.db, realmId, 'bob@example.com', 'parlance.invalid'))!.id, id);
  await updateUser(other.db, id, { fullName: 'robert', email: 'robert@example.com' });
  await syncCaches(server.db);
  assert.equal(await nameOf(id), 'robert');
  assert.equal(await findUserByEmail(server.db, realmId, 'bob@example.com', 'parlance.invalid'), undefined);
  // On SQLite, where looking costs no query, every transaction also looks when it begins.
  if (server.dialect === 'sqlite') {
    await updateUser(other.db, id, { fullName: 'bobby' });
    await transaction(server.db, server.dialect, async (tx) => assert.equal(await nameOf(id, tx), 'bobby'));
  }
});

test('work running together (group commit on SQLite) commits or fails piece by piece, events included', async () => {
  const [, , id] = userIds;
  const emitting = (name: string, fail = false) =>
    transaction(server.db, server.dialect, async (tx, emit) => {
      await updateUser(tx, id, { fullName: name });
      emit({ realmId, event: { type: 'test', name }, users: [id] });
      if (fail) throw new Error(`${name} failed`);
      return name;
    });
  const outcomes = await Promise.allSettled([emitting('one'), emitting('two', true), emitting('three')]);
  assert.deepEqual(outcomes.map((o) => o.status), ['fulfilled', 'rejected', 'fulfilled']);
  const [one, , three] = outcomes as PromiseFulfilledResult<{ result: string; events: { id: number }[] }>[];
  assert.deepEqual([one.value.result, three.value.result], ['one', 'three']);
  assert.equal(await nameOf(id), 'three');
  const logged = await readEvents(other.db, one.value.events[0].id - 1);
  assert.deepEqual(logged.map((e) => e.event.name), ['one', 'three']);
});
