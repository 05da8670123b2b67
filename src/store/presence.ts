import { CompiledQuery, sql } from 'kysely';
import { insertRows, type Column } from './bulk.js';
import type { Db, Tx } from './db.js';
import { dialectOf } from './search.js';

export interface Presence {
  userId: number;
  lastActiveTime: number | null;
  lastConnectedTime: number;
  lastUpdateId: number;
}

export async function findPresence(db: Db, userId: number): Promise<Presence | undefined> {
  const r = await db.selectFrom('user_presence').selectAll().where('user_id', '=', userId).executeTakeFirst();
  return r && { userId: r.user_id, lastActiveTime: r.last_active_time, lastConnectedTime: r.last_connected_time, lastUpdateId: r.last_update_id };
}

// The next id of the organization's presence sequence, taken in one statement: the row stays locked until the
// transaction ends, so ids are handed out in commit order and never twice.
export async function nextPresenceUpdateId(tx: Tx, realmId: number): Promise<number> {
  const row = await tx
    .insertInto('presence_sequence')
    .values({ realm_id: realmId, last_update_id: 1 })
    .onConflict((oc) => oc.column('realm_id').doUpdateSet({ last_update_id: sql<number>`presence_sequence.last_update_id + 1` }))
    .returning('last_update_id')
    .executeTakeFirstOrThrow();
  return Number(row.last_update_id);
}

// On PostgreSQL the next id and the save are one statement (a round trip less for every stored ping). The save
// needs the id, so it runs after the sequence's row is locked, and it checks the row as it is then.
const SAVE_PG = (save: string) =>
  'with seq as (insert into presence_sequence (realm_id, last_update_id) values ($1, 1) on conflict (realm_id) do update ' +
  `set last_update_id = presence_sequence.last_update_id + 1 returning last_update_id), saved as (${save} returning 1) ` +
  'select last_update_id, (select count(*) from saved) as stored from seq';
const UPDATE_PG = SAVE_PG(
  'update user_presence set last_active_time = $3::int8, last_connected_time = $4::int8, last_update_id = (select last_update_id from seq) ' +
  'where user_id = $2::int4 and last_update_id = $5::int8',
);
const INSERT_PG = SAVE_PG(
  'insert into user_presence (user_id, realm_id, last_active_time, last_connected_time, last_update_id) ' +
  'select $2::int4, $1::int4, $3::int8, $4::int8, last_update_id from seq on conflict (user_id) do nothing',
);

type Saved = { lastUpdateId: number; stored: boolean };

async function savePg(db: Db, realmId: number, p: Omit<Presence, 'lastUpdateId'>, previous: number | null): Promise<Saved> {
  const params = previous === null ? [realmId, p.userId, p.lastActiveTime, p.lastConnectedTime] : [realmId, p.userId, p.lastActiveTime, p.lastConnectedTime, previous];
  const { rows } = await db.executeQuery<{ last_update_id: number; stored: number }>(CompiledQuery.raw(previous === null ? INSERT_PG : UPDATE_PG, params));
  return { lastUpdateId: Number(rows[0].last_update_id), stored: Number(rows[0].stored) === 1 };
}

// Stores the user's presence under the next id of the sequence, if the row is still the one the caller decided
// from: `previous` is that row's update id, or null when there was none. The id is taken either way; when another
// writer changed the row first, nothing is stored (the caller decides again; readers do not mind a gap).
export async function savePresence(tx: Tx, realmId: number, p: Omit<Presence, 'lastUpdateId'>, previous: number | null): Promise<Saved> {
  if (dialectOf(tx) === 'postgres') return savePg(tx, realmId, p, previous);
  const lastUpdateId = await nextPresenceUpdateId(tx, realmId);
  const values = { last_active_time: p.lastActiveTime, last_connected_time: p.lastConnectedTime, last_update_id: lastUpdateId };
  const r = previous === null
    ? await tx.insertInto('user_presence').values({ user_id: p.userId, realm_id: realmId, ...values }).onConflict((oc) => oc.column('user_id').doNothing()).executeTakeFirst()
    : await tx.updateTable('user_presence').set(values).where('user_id', '=', p.userId).where('last_update_id', '=', previous).executeTakeFirst();
  return { lastUpdateId, stored: Number('numUpdatedRows' in r ? r.numUpdatedRows : (r.numInsertedOrUpdatedRows ?? 0)) === 1 };
}

// The same as a statement of its own, outside any transaction, where it is one (PostgreSQL): the id and the save
// then commit together, holding the sequence's lock to that commit. Undefined where it is not one (SQLite), for the
// caller to store it in a transaction.
export async function savePresenceAlone(db: Db, realmId: number, p: Omit<Presence, 'lastUpdateId'>, previous: number): Promise<Saved | undefined> {
  return dialectOf(db) === 'postgres' ? savePg(db, realmId, p, previous) : undefined;
}

export interface PresenceRow extends Presence {
  email: string;
  // An active human user. Invisible users (presence_enabled off) are shown too: their row is backdated.
  visible: boolean;
}

// The organization's position in the presence sequence and its rows changed after `afterUpdateId`, read by one
// statement, so in one snapshot (PostgreSQL gives each statement its own even in READ COMMITTED): the rows hold
// every change up to the position and none after it. With each row comes what decides whether and how it is
// shown: the API e-mail the legacy format is keyed by, and whether the user is active. Changes to those take a
// new update id too (touchPresence), so a reader that keeps rows sees them.
export async function presenceSince(db: Db, realmId: number, afterUpdateId: number): Promise<{ lastUpdateId: number; rows: PresenceRow[] }> {
  const { rows } = await db.executeQuery<SinceRow>(CompiledQuery.raw(SINCE[dialectOf(db)], [afterUpdateId, realmId]));
  const changed: PresenceRow[] = [];
  for (const r of rows) {
    if (r.user_id === null) continue;
    changed.push({
      userId: r.user_id, lastActiveTime: r.last_active_time === null ? null : Number(r.last_active_time), lastConnectedTime: Number(r.last_connected_time),
      lastUpdateId: Number(r.last_update_id), email: r.email!, visible: Number(r.visible) === 1,
    });
  }
  return { lastUpdateId: Number(rows[0]?.seq ?? 0), rows: changed };
}

type SinceRow = { seq: number; user_id: number | null; last_active_time: number | null; last_connected_time: number | null; last_update_id: number | null; email: string | null; visible: number };
// Run for every answer with presence, so written out rather than built (see src/store/bulk.ts).
const sinceText = (after: string, realm: string) =>
  'select s.last_update_id as seq, p.user_id, p.last_active_time, p.last_connected_time, p.last_update_id, u.email, ' +
  'case when u.is_active = 1 and u.is_bot = 0 then 1 else 0 end as visible from presence_sequence s ' +
  `left join user_presence p on p.realm_id = s.realm_id and p.last_update_id > ${after} left join users u on u.id = p.user_id where s.realm_id = ${realm}`;
const SINCE = { postgres: sinceText('$1', '$2'), sqlite: sinceText('?', '?') };

// Gives the user's presence row (if any) a new update id, after a change of how it is shown.
export async function touchPresence(tx: Tx, realmId: number, userId: number): Promise<void> {
  const row = await tx.selectFrom('user_presence').select('user_id').where('user_id', '=', userId).executeTakeFirst();
  if (row) await tx.updateTable('user_presence').set({ last_update_id: await nextPresenceUpdateId(tx, realmId) }).where('user_id', '=', userId).execute();
}

// Many users' presence at once (`parlance populate`): each row takes the next id of the organization's sequence,
// as a ping would, in one statement per thousand rows.
export async function insertPresences(tx: Tx, realmId: number, rows: Omit<Presence, 'lastUpdateId'>[]): Promise<void> {
  if (!rows.length) return;
  const first = (await nextPresenceUpdateId(tx, realmId)) - 1;
  await tx.updateTable('presence_sequence').set({ last_update_id: first + rows.length }).where('realm_id', '=', realmId).execute();
  for (let i = 0; i < rows.length; i += 1000) {
    await insertRows(tx, 'user_presence', PRESENCE_COLUMNS, rows.slice(i, i + 1000).map((p, j) => [p.userId, realmId, p.lastActiveTime, p.lastConnectedTime, first + i + j + 1]));
  }
}

const PRESENCE_COLUMNS: Column[] = [['user_id', 'int4'], ['realm_id', 'int4'], ['last_active_time', 'int8'], ['last_connected_time', 'int8'], ['last_update_id', 'int8']];
