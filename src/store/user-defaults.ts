import type { Db } from './db.js';

// The organization's defaults for new users' settings: only values that differ from the built-in defaults.
export async function findUserDefaults(db: Db, realmId: number): Promise<Record<string, unknown>> {
  const row = await db.selectFrom('realm_user_defaults').select('settings').where('realm_id', '=', realmId).executeTakeFirst();
  return row ? (JSON.parse(row.settings) as Record<string, unknown>) : {};
}

export async function saveUserDefaults(db: Db, realmId: number, settings: Record<string, unknown>): Promise<void> {
  const text = JSON.stringify(settings);
  const r = await db.updateTable('realm_user_defaults').set({ settings: text }).where('realm_id', '=', realmId).executeTakeFirst();
  if (Number(r.numUpdatedRows) === 0) await db.insertInto('realm_user_defaults').values({ realm_id: realmId, settings: text }).execute();
}
