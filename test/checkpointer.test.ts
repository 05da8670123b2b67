// SQLite's WAL is copied into the database file by the serving process's worker thread, not inside commits on
// the event loop (src/store/checkpointer.ts). A copy of the database file alone (without its WAL) shows what
// was checkpointed: committed rows reach it without any checkpoint on the writing connection.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pino from 'pino';
import { sql } from 'kysely';
import { openDatabase } from '../src/store/open.js';
import { FALLBACK_AUTOCHECKPOINT_PAGES } from '../src/store/checkpointer.js';
import { insertRealm } from '../src/store/realms.js';
import { freshDatabase } from './helpers/database.js';
import { eventually } from './helpers/events.js';

test('committed rows reach the database file through the background checkpoint', { skip: !!process.env.DATABASE_URL && 'SQLite only' }, async () => {
  const where = await freshDatabase();
  const database = await openDatabase(where);
  try {
    database.checkpointInBackground(pino({ level: 'silent' }));
    const file = path.join(where.dataDir, 'parlance.sqlite3');
    const copy = path.join(where.dataDir, 'copy.sqlite3');
    const onDisk = () => {
      fs.copyFileSync(file, copy);
      const snapshot = new SQLite(copy, { readonly: true });
      try {
        return (snapshot.prepare("select count(*) as n from sqlite_master where name = 'realms'").get() as { n: number }).n
          ? (snapshot.prepare("select count(*) as n from realms where name = 'Checkpointed'").get() as { n: number }).n
          : 0;
      } finally {
        snapshot.close();
      }
    };
    // An idle server has no worker: the serving connection keeps SQLite's own threshold.
    const threshold = async () => (await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(database.db)).rows[0].wal_autocheckpoint;
    await new Promise((r) => setTimeout(r, 1200));
    assert.equal(await threshold(), 1000);
    // Past a thousand changed rows the worker starts; a few pages, far below the serving connection's threshold
    // from then on, so only the worker copies them.
    const realm = await insertRealm(database.db, { stringId: 'ckpt', name: 'Checkpointed', now: 0 });
    for (let i = 0; i < 1000; i++) await sql`update realms set name = name where id = ${realm.id}`.execute(database.db);
    await eventually(async () => ((await threshold()) === FALLBACK_AUTOCHECKPOINT_PAGES ? true : undefined), 5000);
    await eventually(async () => (onDisk() === 1 ? true : undefined), 5000);
  } finally {
    await database.close();
    await where.drop();
  }
});
