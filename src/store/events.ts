import { CompiledQuery, sql, type Selectable } from 'kysely';
import type { EventQueueTable } from './schema.js';
import type { Db, Dialect, Tx } from './db.js';
import { dialectOf } from './search.js';
import { yieldToEventLoop } from '../lib/pace.js';

// A recipient is a user id, or a user id with per-user data (message flags).
export type Recipient = number | { id: number; flags?: string[] };

export interface LoggedEvent {
  id: number;
  realmId: number;
  event: Record<string, unknown>;
  users: Recipient[] | null; // null: every user of the organization
}

export interface NewEvent {
  realmId: number;
  event: Record<string, unknown>;
  users: Recipient[] | null;
}

export const EVENT_LOG_LOCK = 0x7061726c; // "parl"

// PostgreSQL hands out ids before commit, so concurrent writers could commit out of id order and a reader
// could skip an event. Writers of the log take one transaction-scoped lock, so ids commit in order. Callers
// insert events last in their transaction, so the lock is held only for the insert and the commit; the lock
// and the insert are one statement (the lock is taken before the first row is made, so before its id). Every
// write transaction ends here, so the statements are written out rather than built.
export async function appendEvents(tx: Tx, dialect: Dialect, now: number, events: NewEvent[]): Promise<LoggedEvent[]> {
  if (!events.length) return [];
  const rows = events.map((e) => [e.realmId, now, JSON.stringify(e.event), e.users && JSON.stringify(e.users)]);
  let ids: number[];
  if (dialect === 'postgres') {
    const columns = rows[0].map((_, i) => rows.map((r) => r[i]));
    const inserted = await tx.executeQuery<{ id: number }>(CompiledQuery.raw(
      `insert into events (realm_id, created, event, users) select r, c, e, u from (select pg_advisory_xact_lock(${EVENT_LOG_LOCK})) as lock, ` +
        'unnest($1::int4[], $2::int8[], $3::text[], $4::text[]) as t(r, c, e, u) returning id',
      columns,
    ));
    // Ids are drawn in the order the rows are made, which is the order of the arrays.
    ids = inserted.rows.map((r) => r.id).sort((a, b) => a - b);
  } else {
    ids = [];
    for (const r of rows) {
      const inserted = await tx.executeQuery<{ id: number }>(CompiledQuery.raw('insert into events (realm_id, created, event, users) values (?, ?, ?, ?) returning id', r));
      ids.push(inserted.rows[0].id);
    }
  }
  return ids.map((id, i) => ({ id, ...events[i] }));
}

function toLogged(row: { id: number; realm_id: number; event: string; users: string | null }): LoggedEvent {
  return { id: row.id, realmId: row.realm_id, event: JSON.parse(row.event), users: row.users === null ? null : JSON.parse(row.users) };
}

export async function readEvents(db: Db, after: number, opts: { upTo?: number; realmId?: number; limit?: number } = {}): Promise<LoggedEvent[]> {
  let q = db.selectFrom('events').select(['id', 'realm_id', 'event', 'users']).where('id', '>', after);
  if (opts.upTo !== undefined) q = q.where('id', '<=', opts.upTo);
  if (opts.realmId !== undefined) q = q.where('realm_id', '=', opts.realmId);
  const rows = await q.orderBy('id').limit(opts.limit ?? 1000).execute();
  return rows.map(toLogged);
}

export async function lastEventId(db: Db): Promise<number> {
  const row = await db.selectFrom('events').select((eb) => eb.fn.max('id').as('id')).executeTakeFirst();
  return Number(row?.id ?? 0);
}

// Deletes log entries that no queue can need any more: acknowledged by every queue and older than `before`. In
// statements of at most PRUNE_ROWS entries and about PRUNE_BYTES of text (an event for 50,000 users carries their
// ids), with a turn of the event loop between: one statement for ten minutes of a busy log held the loop for over
// 100 ms.
const PRUNE_ROWS = 500;
const PRUNE_BYTES = 1 << 20;

export async function pruneEvents(db: Db, before: number): Promise<void> {
  const row = await db.selectFrom('event_queues').select((eb) => eb.fn.min('acked_event_id').as('acked')).executeTakeFirst();
  const acked = row?.acked === null || row?.acked === undefined ? null : Number(row.acked);
  for (;;) {
    let q = db.selectFrom('events').select(['id', sql<number>`length(event) + coalesce(length(users), 0)`.as('size')]).where('created', '<', before);
    if (acked !== null) q = q.where('id', '<=', acked);
    const rows = await q.orderBy('id').limit(PRUNE_ROWS).execute();
    let batch: number[] = [];
    let bytes = 0;
    for (const [i, r] of rows.entries()) {
      batch.push(Number(r.id));
      bytes += Number(r.size);
      if (bytes < PRUNE_BYTES && i < rows.length - 1) continue;
      await db.deleteFrom('events').where('id', 'in', batch).execute();
      await yieldToEventLoop();
      batch = [];
      bytes = 0;
    }
    if (rows.length < PRUNE_ROWS) return;
  }
}

export interface QueueRow {
  id: string;
  realmId: number;
  userId: number;
  options: Record<string, unknown>;
  created: number;
  lastPoll: number;
  idleTimeout: number;
  baseEventId: number;
  ackedEventId: number;
  lastId: number;
}

export async function insertQueueRow(db: Db, q: QueueRow): Promise<void> {
  await db
    .insertInto('event_queues')
    .values({
      id: q.id,
      realm_id: q.realmId,
      user_id: q.userId,
      options: JSON.stringify(q.options),
      created: q.created,
      last_poll: q.lastPoll,
      idle_timeout: q.idleTimeout,
      base_event_id: q.baseEventId,
      acked_event_id: q.ackedEventId,
      last_id: q.lastId,
    })
    .execute();
}

export async function deleteQueueRows(db: Db, ids: string[]): Promise<void> {
  for (let i = 0; i < ids.length; i += 500) {
    await db.deleteFrom('event_queues').where('id', 'in', ids.slice(i, i + 500)).execute();
  }
}

// One statement per 500 queues, joining their new values (a VALUES list) on the ids: saving 5,000 queues' positions
// takes about 25 ms of SQLite, where a CASE over the ids took 700 ms (quadratic), all of it on the event loop while
// a message to 50,000 was being delivered. Each statement stands alone, with a turn of the event loop between them.
// Several processes may hold copies of one queue (its client polls any of them): each column only moves forward,
// so a process that served the queue earlier cannot set it back.
export async function updateQueueRows(db: Db, rows: { id: string; lastPoll: number; ackedEventId: number; lastId: number }[]): Promise<void> {
  const larger = dialectOf(db) === 'postgres' ? sql.raw('greatest') : sql.raw('max');
  for (let i = 0; i < rows.length; i += 500) {
    if (i) await yieldToEventLoop();
    const values = sql.join(rows.slice(i, i + 500).map((r) => sql`(${r.id}, cast(${r.lastPoll} as bigint), cast(${r.ackedEventId} as bigint), cast(${r.lastId} as bigint))`));
    await sql`with v (id, last_poll, acked_event_id, last_id) as (values ${values})
      update event_queues set last_poll = ${larger}(event_queues.last_poll, v.last_poll),
        acked_event_id = ${larger}(event_queues.acked_event_id, v.acked_event_id), last_id = ${larger}(event_queues.last_id, v.last_id)
      from v where event_queues.id = v.id`.execute(db);
  }
}

// What other processes have saved of these queues: absent ids were deleted (by a client, or collected).
export async function queueRowStates(db: Db, ids: string[]): Promise<Map<string, { lastPoll: number; ackedEventId: number }>> {
  const states = new Map<string, { lastPoll: number; ackedEventId: number }>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db.selectFrom('event_queues').select(['id', 'last_poll', 'acked_event_id']).where('id', 'in', ids.slice(i, i + 500)).execute();
    for (const r of rows) states.set(r.id, { lastPoll: Number(r.last_poll), ackedEventId: Number(r.acked_event_id) });
  }
  return states;
}

// Queues no process has polled for longer than their idle timeout (plus `slack` seconds, the time a serving
// process may take to save a poll): also those whose process died and whose client never came back.
export async function deleteIdleQueueRows(db: Db, now: number, slack: number): Promise<void> {
  await db.deleteFrom('event_queues').where(sql<boolean>`last_poll + idle_timeout + ${slack} < ${now}`).execute();
}

export async function findQueueRow(db: Db, id: string): Promise<QueueRow | undefined> {
  const row = await db.selectFrom('event_queues').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toQueueRow(row);
}

function toQueueRow(r: Selectable<EventQueueTable>): QueueRow {
  return {
    id: r.id,
    realmId: r.realm_id,
    userId: r.user_id,
    options: JSON.parse(r.options),
    created: r.created,
    lastPoll: Number(r.last_poll),
    idleTimeout: r.idle_timeout,
    baseEventId: Number(r.base_event_id),
    ackedEventId: Number(r.acked_event_id),
    lastId: Number(r.last_id),
  };
}
