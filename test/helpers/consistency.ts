// Invariants of the database that no crash, restart or hostile request may break: the storage engine's own
// checks on SQLite, and rows that only make sense together.
import { sql } from 'kysely';
import type { TestServer } from './server.js';
import { withApp } from './direct-db.js';

export function consistencyProblems(server: TestServer): Promise<string[]> {
  return withApp(server, async (app) => {
    const db = app.db;
    const problems: string[] = [];
    if (app.dialect === 'sqlite') {
      const integrity = (await sql<{ integrity_check: string }>`PRAGMA integrity_check`.execute(db)).rows;
      if (integrity.some((r) => r.integrity_check !== 'ok')) problems.push(`integrity_check: ${JSON.stringify(integrity)}`);
      const keys = (await sql`PRAGMA foreign_key_check`.execute(db)).rows;
      if (keys.length) problems.push(`foreign_key_check: ${JSON.stringify(keys.slice(0, 5))}`);
    }
    const orphanRows = await db.selectFrom('user_messages').select('message_id')
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom('messages').select('id').whereRef('messages.id', '=', 'user_messages.message_id'))))
      .limit(5).execute();
    if (orphanRows.length) problems.push(`rows of missing messages: ${JSON.stringify(orphanRows)}`);
    const unreceived = await db.selectFrom('messages').select('id')
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom('user_messages').select('message_id').whereRef('user_messages.message_id', '=', 'messages.id'))))
      .limit(5).execute();
    if (unreceived.length) problems.push(`messages nobody received: ${JSON.stringify(unreceived)}`);
    const subs = await db.selectFrom('subscriptions').select(['user_id', 'stream_id'])
      .where(({ or, not, exists, selectFrom }) => or([
        not(exists(selectFrom('streams').select('id').whereRef('streams.id', '=', 'subscriptions.stream_id'))),
        not(exists(selectFrom('users').select('id').whereRef('users.id', '=', 'subscriptions.user_id'))),
      ]))
      .limit(5).execute();
    if (subs.length) problems.push(`subscriptions to nothing: ${JSON.stringify(subs)}`);
    for (const e of await db.selectFrom('events').select(['id', 'event', 'users']).execute()) {
      try {
        JSON.parse(e.event);
        JSON.parse(e.users ?? 'null');
      } catch {
        problems.push(`event ${e.id} is not JSON`);
      }
    }
    return problems;
  });
}
