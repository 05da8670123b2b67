// GET /messages and its relatives: a resolved narrow turned into one indexed query per side of the anchor.
//
// Each query walks one index newest first (or oldest first after the anchor) and stops at its limit: the index of
// the narrow's most selective term (see `driverOf`), so that no narrow reads a whole channel or a user's whole
// history to return a page. Every term is still a condition of the query; the driver only decides the walk.
// SQLite is told the index (INDEXED BY, and CROSS JOIN for the join order), since its planner has no statistics
// to choose by; PostgreSQL's planner chooses by its own, from conditions spelled as the partial indexes are.
import { type CompiledQuery, sql, type Expression, type ExpressionBuilder, type RawBuilder, type SqlBool } from 'kysely';
import type { Db, Dialect } from './db.js';
import { FLAG_BITS, MAX_MESSAGE_ID } from './messages.js';
import { MESSAGE_FACT_INDEXES, USER_ROW_INDEXES } from './history-indexes.js';
import type { Schema } from './schema.js';
import { dialectOf, searchCondition, searchMatch, searchPhrases } from './search.js';

export type Term =
  | { op: 'channel'; streamId: number }
  | { op: 'topic'; topicKey: string }
  | { op: 'sender'; userId: number }
  | { op: 'dm'; recipientId: number | null }
  | { op: 'dm-including'; userId: number }
  | { op: 'is'; what: 'dm' | 'starred' | 'mentioned' | 'unread' | 'resolved' | 'alerted' }
  | { op: 'has'; what: 'link' | 'image' | 'attachment' }
  | { op: 'id'; messageId: number }
  | { op: 'search'; text: string };

export type NegatableTerm = Term & { negated: boolean };

// `user`: only messages the user received (a user_messages row). `channels`: every message of these channels,
// whose history the user may read, with the user's row when there is one.
export type Scope = { kind: 'user' } | { kind: 'channels'; streamIds: number[] };

type EB = ExpressionBuilder<Schema & { um: Schema['user_messages']; m: Schema['messages'] }, 'm' | 'um'>;

const MENTION_BITS = FLAG_BITS.mentioned | FLAG_BITS.stream_wildcard_mentioned | FLAG_BITS.topic_wildcard_mentioned;
const raw = (text: string) => sql<SqlBool>`${sql.raw(text)}`;
// A user-row predicate as the partial index spells it, on the row aliased `um`.
const rowPredicate = (what: keyof typeof USER_ROW_INDEXES) => `(um.${USER_ROW_INDEXES[what][1].slice(1)}`;
const onRow = (what: keyof typeof USER_ROW_INDEXES) => raw(rowPredicate(what));
const channelRecipient = (streamId: number) => sql<number>`(select id from recipients where stream_id = ${streamId})`;

// Positive terms are spelled for the indexes; negated ones so that a message without the user's row (read from
// a channel's history) counts as having no flags.
function condition(eb: EB, t: Term, negated: boolean, dialect: Dialect): Expression<SqlBool> {
  const flags = (bits: number) => sql<SqlBool>`(coalesce(um.flags, 0) & ${sql.lit(bits)}) <> 0`;
  switch (t.op) {
    case 'channel':
      // The recipient for messages_recipient; the channel too, for messages_stream_topic with a topic.
      return eb.and([eb('m.recipient_id', '=', channelRecipient(t.streamId)), eb('m.stream_id', '=', t.streamId)]);
    case 'topic':
      return eb.and([eb('m.stream_id', 'is not', null), eb('m.topic_key', '=', t.topicKey)]);
    case 'sender':
      return eb('m.sender_id', '=', t.userId);
    case 'dm':
      return t.recipientId === null ? sql<SqlBool>`1 = 0` : eb('m.recipient_id', '=', t.recipientId);
    case 'dm-including':
      return eb.and([
        eb('m.stream_id', 'is', null),
        eb('m.recipient_id', 'in', eb.selectFrom('recipients').select('id').where(sql<SqlBool>`',' || dm_key || ',' like ${`%,${t.userId},%`}`)),
      ]);
    case 'is':
      switch (t.what) {
        case 'dm':
          return eb('m.stream_id', 'is', null);
        case 'starred':
          return negated ? flags(FLAG_BITS.starred) : onRow('starred');
        case 'mentioned':
          return negated ? flags(MENTION_BITS) : onRow('mentioned');
        case 'alerted':
          return negated ? flags(FLAG_BITS.has_alert_word) : onRow('alerted');
        case 'unread':
          return negated ? sql<SqlBool>`(um.flags is not null and (um.flags & 1) = 0)` : onRow('unread');
        case 'resolved':
          return raw(`m.${MESSAGE_FACT_INDEXES.resolved}`);
      }
      break;
    case 'has':
      return raw(`m.${MESSAGE_FACT_INDEXES[t.what]}`);
    case 'id':
      return t.messageId > 0 && t.messageId <= MAX_MESSAGE_ID ? eb('m.id', '=', t.messageId) : sql<SqlBool>`1 = 0`;
    case 'search':
      return searchCondition(dialect, t.text);
  }
  throw new Error('unreachable');
}

// What a query walks: an index of messages, of the user's rows, or the search index (SQLite). `order` is the
// column the walk is ordered by, which the window's bounds and order use.
// A partial index's predicate is a condition of the query too (SQLite refuses INDEXED BY without it).
type Driver =
  | { on: 'messages'; index: string; predicate?: string }
  | { on: 'rows'; index: string; predicate?: string }
  | { on: 'search'; match: string; text: string };

const ROW_DRIVERS = new Set(['unread', 'starred', 'mentioned', 'alerted', 'dm']);

// The narrow's most selective indexed term, by a fixed order (SQLite keeps no statistics to compare them by).
function driverOf(scope: Scope, terms: NegatableTerm[]): Driver {
  const positive = terms.filter((t) => !t.negated);
  const find = <O extends Term['op']>(op: O) => positive.find((t): t is NegatableTerm & Extract<Term, { op: O }> => t.op === op);
  const oneChannel = scope.kind === 'channels' && scope.streamIds.length === 1;
  if (find('id')) return { on: 'messages', index: 'primary' };
  if (find('topic') && (oneChannel || find('channel'))) return { on: 'messages', index: 'messages_stream_topic' };
  if (find('dm')) return { on: 'messages', index: 'messages_recipient' };
  const search = find('search');
  if (search) {
    const match = searchMatch(search.text);
    if (match) return { on: 'search', match, text: search.text };
  }
  const rows = (what: keyof typeof USER_ROW_INDEXES): Driver => ({ on: 'rows', index: USER_ROW_INDEXES[what][0], predicate: rowPredicate(what) });
  const rowTerm = positive.find((t) => t.op === 'is' && ROW_DRIVERS.has(t.what) && (scope.kind === 'user' || t.what !== 'dm'));
  if (rowTerm && rowTerm.op === 'is') return rows(rowTerm.what as keyof typeof USER_ROW_INDEXES);
  const fact = positive.find((t) => t.op === 'has' || (t.op === 'is' && t.what === 'resolved'));
  const inChannel = oneChannel || !!find('channel');
  if (fact) {
    const name = fact.op === 'has' ? fact.what : 'resolved';
    return { on: 'messages', index: `messages_${name}_${inChannel ? 'recipient' : 'realm'}`, predicate: `m.${MESSAGE_FACT_INDEXES[name]}` };
  }
  if (find('sender')) return { on: 'messages', index: 'messages_sender' };
  if (find('dm-including') || find('is')?.what === 'dm') return scope.kind === 'user' ? rows('dm') : { on: 'messages', index: 'messages_realm' };
  if (inChannel) return { on: 'messages', index: 'messages_recipient' };
  return scope.kind === 'user' ? { on: 'rows', index: 'primary' } : { on: 'messages', index: 'messages_realm' };
}

// PostgreSQL orders by m.id whatever it walks: it knows m.id = um.message_id.
const orderColumn = (dialect: Dialect, d: Driver) => (dialect === 'postgres' || d.on === 'messages' ? 'm.id' : d.on === 'rows' ? 'um.message_id' : 's.rowid');

// The FROM clause. SQLite: the driver's table first, its index named, CROSS JOIN keeping that order.
function fromClause(dialect: Dialect, scope: Scope, d: Driver, userId: number): RawBuilder<unknown> {
  const row = scope.kind === 'user' ? 'inner join' : 'left join';
  const rowOn = sql`um.user_id = ${userId} and um.message_id = m.id`;
  if (dialect === 'postgres') return sql`messages as m ${sql.raw(row)} user_messages as um on ${rowOn}`;
  const indexed = (index: string) => sql.raw(index === 'primary' ? '' : ` indexed by ${index}`);
  switch (d.on) {
    case 'rows':
      return sql`user_messages as um${indexed(d.index)} cross join messages as m`;
    case 'search':
      return sql`message_search as s cross join messages as m ${sql.raw(row)} user_messages as um on ${rowOn}`;
    case 'messages':
      return sql`messages as m${indexed(d.index)} ${sql.raw(scope.kind === 'user' ? 'cross join' : 'left join')} user_messages as um on ${rowOn}`;
  }
}

function windowQuery(db: Db, realmId: number, userId: number, scope: Scope, terms: NegatableTerm[], d: Driver) {
  const dialect = dialectOf(db);
  const order = sql.ref<number>(orderColumn(dialect, d));
  let q = db.selectFrom(fromClause(dialect, scope, d, userId) as never as 'messages as m').select(order.as('id'));
  if (dialect === 'sqlite' && d.on !== 'messages') {
    // The joins of the driving tables, as conditions (a CROSS JOIN written first takes none).
    q = q.where(d.on === 'rows' ? sql<SqlBool>`um.user_id = ${userId} and m.id = um.message_id` : sql<SqlBool>`m.id = s.rowid and message_search match ${d.match}`);
  }
  if (d.on !== 'search' && d.predicate) q = q.where(raw(d.predicate));
  // The organization is implied by the user's rows and by the channels of the scope; it is a condition only for
  // the indexes by organization, which need it (a planner offered it elsewhere may walk messages_realm).
  if (d.on === 'messages' && d.index.endsWith('_realm')) q = q.where('m.realm_id', '=', realmId);
  if (scope.kind === 'channels') {
    q = scope.streamIds.length ? q.where(sql<SqlBool>`m.stream_id in (${sql.join(scope.streamIds)})`) : q.where(sql<SqlBool>`1 = 0`);
    if (scope.streamIds.length === 1) q = q.where((eb) => eb('m.recipient_id', '=', channelRecipient(scope.streamIds[0])));
  }
  for (const t of terms) {
    // The search index already matched the driving search's words; only its phrases remain to check.
    if (dialect === 'sqlite' && d.on === 'search' && t.op === 'search' && !t.negated && t.text === d.text) {
      const phrases = searchPhrases(t.text);
      if (phrases) q = q.where(phrases);
      continue;
    }
    q = q.where((eb) => {
      const c = condition(eb as unknown as EB, t, t.negated, dialect);
      return t.negated ? eb.not(c) : c;
    });
  }
  return { q, order };
}

export interface Window {
  ids: number[];
  foundAnchor: boolean;
  foundOldest: boolean;
  foundNewest: boolean;
}

// For the query-plan test: the SQL a window query sends, newest first below `anchor`.
export function compileWindowQuery(db: Db, realmId: number, userId: number, scope: Scope, terms: NegatableTerm[], anchor: number, limit: number): CompiledQuery {
  const { q, order } = windowQuery(db, realmId, userId, scope, terms, driverOf(scope, terms));
  return q.where(sql<SqlBool>`${order} < ${anchor}`).orderBy(order, 'desc').limit(limit).compile();
}

export async function messageWindow(
  db: Db, realmId: number, userId: number, scope: Scope, terms: NegatableTerm[],
  anchor: number, numBefore: number, numAfter: number, includeAnchor: boolean,
): Promise<Window> {
  const d = driverOf(scope, terms);
  const q = () => windowQuery(db, realmId, userId, scope, terms, d);
  const ids = async (build: ReturnType<typeof q>, cond: RawBuilder<SqlBool> | null, dir: 'asc' | 'desc', limit: number) => {
    let b = build.q;
    if (cond) b = b.where(cond);
    return (await b.orderBy(build.order, dir).limit(limit).execute()).map((r) => Number(r.id));
  };
  // Ids are 32-bit integers on PostgreSQL, which refuses to compare them with a larger anchor (`newest`).
  const beyond = anchor > MAX_MESSAGE_ID;
  const bound = (op: '<' | '>' | '=') => {
    const b = q();
    return { b, cond: sql<SqlBool>`${b.order} ${sql.raw(op)} ${anchor}` };
  };
  let before: number[] = [];
  if (numBefore > 0) {
    const { b, cond } = bound('<');
    before = (await ids(b, beyond ? null : cond, 'desc', numBefore)).reverse();
  }
  let at: number[] = [];
  if (includeAnchor && !beyond) {
    const { b, cond } = bound('=');
    at = await ids(b, cond, 'asc', 1);
  }
  let after: number[] = [];
  if (numAfter > 0 && !beyond) {
    const { b, cond } = bound('>');
    after = await ids(b, cond, 'asc', numAfter);
  }
  return {
    ids: [...before, ...at, ...after],
    foundAnchor: at.length > 0,
    foundOldest: before.length < numBefore,
    foundNewest: after.length < numAfter,
  };
}

export async function firstUnreadId(db: Db, realmId: number, userId: number, terms: NegatableTerm[]): Promise<number | null> {
  const all = [...terms, { op: 'is', what: 'unread', negated: false } as NegatableTerm];
  const { q, order } = windowQuery(db, realmId, userId, { kind: 'user' }, all, driverOf({ kind: 'user' }, all));
  const row = await q.orderBy(order, 'asc').limit(1).executeTakeFirst();
  return row ? Number(row.id) : null;
}

export async function matchingIds(db: Db, realmId: number, userId: number, scope: Scope, terms: NegatableTerm[], requested: number[]): Promise<number[]> {
  const ids = requested.filter((id) => id > 0 && id <= MAX_MESSAGE_ID);
  if (!ids.length) return [];
  const { q } = windowQuery(db, realmId, userId, scope, terms, { on: 'messages', index: 'primary' });
  const rows = await q.where('m.id', 'in', ids).execute();
  return rows.map((r) => Number(r.id));
}
