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
    await insertRealm(database.db, { stringId: 'ckpt', name: 'Checkpointed', now: 0 });
    // A handful of pages: far below the serving connection's own threshold, so only the worker copies them.
    const threshold = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(database.db);
    assert.equal(threshold.rows[0].wal_autocheckpoint, FALLBACK_AUTOCHECKPOINT_PAGES);
    await eventually(async () => (onDisk() === 1 ? true : undefined), 5000);
  } finally {
    await database.close();
    await where.drop();
  }
});
