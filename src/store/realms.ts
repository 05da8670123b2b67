import type { Selectable, Updateable } from 'kysely';
import type { Db } from './db.js';
import type { RealmTable } from './schema.js';
import { cached, cacheMap } from './cache.js';

export interface Realm {
  id: number;
  stringId: string;
  name: string;
  description: string;
  deactivated: boolean;
  passwordAuthEnabled: boolean;
  dateCreated: number;
  settings: Record<string, unknown>; // values that differ from the defaults
}

function toRealm(row: Selectable<RealmTable>): Realm {
  return {
    id: row.id,
    stringId: row.string_id,
    name: row.name,
    description: row.description,
    deactivated: row.deactivated === 1,
    passwordAuthEnabled: row.password_auth_enabled === 1,
    dateCreated: row.date_created,
    settings: JSON.parse(row.settings) as Record<string, unknown>,
  };
}

export async function insertRealm(
  db: Db,
  r: { stringId: string; name: string; description?: string; now: number },
): Promise<Realm> {
  const row = await db
    .insertInto('realms')
    .values({ string_id: r.stringId, name: r.name, description: r.description ?? '', date_created: r.now })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toRealm(row);
}

// Every request looks its organization up by host name: cached (src/store/cache.ts), as is the lookup by id.
const realmsBySubdomain = cacheMap<string, Realm | null>('realms');
const realmsById = cacheMap<number, Realm | null>('realms');

export async function findRealmBySubdomain(db: Db, stringId: string): Promise<Realm | undefined> {
  const realm = await cached(db, realmsBySubdomain, stringId, async () => {
    const row = await db.selectFrom('realms').selectAll().where('string_id', '=', stringId).executeTakeFirst();
    return row ? toRealm(row) : null;
  });
  return realm ?? undefined;
}

export async function findRealm(db: Db, id: number): Promise<Realm | undefined> {
  const realm = await cached(db, realmsById, id, async () => {
    const row = await db.selectFrom('realms').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toRealm(row) : null;
  });
  return realm ?? undefined;
}

export async function listRealms(db: Db): Promise<Realm[]> {
  return (await db.selectFrom('realms').selectAll().orderBy('id').execute()).map(toRealm);
}

export async function countRealms(db: Db): Promise<number> {
  const row = await db.selectFrom('realms').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function updateRealm(
  db: Db,
  id: number,
  changes: Partial<{ name: string; description: string; deactivated: boolean; passwordAuthEnabled: boolean; settings: Record<string, unknown> }>,
): Promise<void> {
  const values: Updateable<RealmTable> = {};
  if (changes.settings !== undefined) values.settings = JSON.stringify(changes.settings);
  if (changes.name !== undefined) values.name = changes.name;
  if (changes.description !== undefined) values.description = changes.description;
  if (changes.deactivated !== undefined) values.deactivated = changes.deactivated ? 1 : 0;
  if (changes.passwordAuthEnabled !== undefined) values.password_auth_enabled = changes.passwordAuthEnabled ? 1 : 0;
  if (Object.keys(values).length) await db.updateTable('realms').set(values).where('id', '=', id).execute();
}

// Serialises read-modify-write changes of an organization's settings on PostgreSQL (SQLite writers are
// serialised already, and it has no FOR UPDATE).
export async function lockRealm(db: Db, dialect: 'sqlite' | 'postgres', id: number): Promise<void> {
  if (dialect === 'postgres') await db.selectFrom('realms').select('id').where('id', '=', id).forUpdate().execute();
}
