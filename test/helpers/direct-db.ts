// Writes a test needs to make behind the API's back, on the server's own database: organization settings, and
// messages made to look older than they are (for time limits).
import type { App } from '../../src/app.js';
import type { Db } from '../../src/store/db.js';
import type { TestServer } from './server.js';

export async function withApp<T>(server: TestServer, fn: (app: App) => Promise<T>): Promise<T> {
  const { loadConfig } = await import('../../src/config.js');
  const { openApp } = await import('../../src/server.js');
  const { app, database } = await openApp({ ...loadConfig({}, server.childEnv), logLevel: 'silent' });
  try {
    return await fn(app);
  } finally {
    app.limiter.close();
    await database.close();
  }
}

export const withDb = <T>(server: TestServer, fn: (db: Db) => Promise<T>) => withApp(server, (app) => fn(app.db));

// Overrides settings of the default organization; a value of undefined restores the default.
export async function setRealmSettings(server: TestServer, settings: Record<string, unknown>): Promise<void> {
  const { findRealmBySubdomain, updateRealm } = await import('../../src/store/realms.js');
  await withDb(server, async (db) => {
    const realm = (await findRealmBySubdomain(db, ''))!;
    const merged: Record<string, unknown> = { ...realm.settings, ...settings };
    for (const [k, v] of Object.entries(settings)) if (v === undefined) delete merged[k];
    await updateRealm(db, realm.id, { settings: merged });
  });
}

export async function ageMessages(server: TestServer, ids: number[], seconds: number): Promise<void> {
  await withDb(server, async (db) => {
    for (const id of ids) {
      const row = (await db.selectFrom('messages').select('date_sent').where('id', '=', id).executeTakeFirstOrThrow());
      await db.updateTable('messages').set({ date_sent: Number(row.date_sent) - seconds }).where('id', '=', id).execute();
    }
  });
}
