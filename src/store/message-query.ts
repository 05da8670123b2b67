// GET /messages and its relatives: a resolved narrow turned into one indexed query per side of the anchor.
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Db, Dialect } from './db.js';
import { FLAG_BITS, MAX_MESSAGE_ID } from './messages.js';
import type { Schema } from './schema.js';
import { dialectOf, searchCondition } from './search.js';

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

function condition(eb: EB, t: Term, dialect: Dialect): Expression<SqlBool> {
  const flags = (bits: number) => sql<SqlBool>`(coalesce(um.flags, 0) & ${bits}) <> 0`;
  switch (t.op) {
    case 'channel':
      // Spelled so that direct messages (no stream_id) are false rather than unknown, and so match when negated.
      return eb.and([eb('m.stream_id', 'is not', null), eb('m.stream_id', '=', t.streamId)]);
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
          return flags(FLAG_BITS.starred);
        case 'mentioned':
          return flags(MENTION_BITS);
        case 'alerted':
          return flags(FLAG_BITS.has_alert_word);
        case 'unread':
          return sql<SqlBool>`(um.flags is not null and (um.flags & ${FLAG_BITS.read}) = 0)`;
        case 'resolved':
          return eb('m.topic', 'like', '✔ %');
      }
      break;
    case 'has':
      return eb(t.what === 'link' ? 'm.has_link' : t.what === 'image' ? 'm.has_image' : 'm.has_attachment', '=', 1);
    case 'id':
      return t.messageId > 0 && t.messageId <= MAX_MESSAGE_ID ? eb('m.id', '=', t.messageId) : sql<SqlBool>`1 = 0`;
    case 'search':
      return searchCondition(dialect, t.text);
  }
  throw new Error('unreachable');
}

export interface Window {
  ids: number[];
  foundAnchor: boolean;
  foundOldest: boolean;
  foundNewest: boolean;
}

function base(db: Db, realmId: number, userId: number, scope: Scope, terms: NegatableTerm[]) {
  let q = db.selectFrom('messages as m');
  const joined =
    scope.kind === 'user'
      ? q.innerJoin('user_messages as um', (j) => j.onRef('um.message_id', '=', 'm.id').on('um.user_id', '=', userId))
      : q.leftJoin('user_messages as um', (j) => j.onRef('um.message_id', '=', 'm.id').on('um.user_id', '=', userId));
  let w = joined.where('m.realm_id', '=', realmId);
  if (scope.kind === 'channels') w = scope.streamIds.length ? w.where('m.stream_id', 'in', scope.streamIds) : w.where(sql<SqlBool>`1 = 0`);
  const dialect = dialectOf(db);
  for (const t of terms) w = w.where((eb) => (t.negated ? eb.not(condition(eb as unknown as EB, t, dialect)) : condition(eb as unknown as EB, t, dialect)));
  return w;
}

export async function messageWindow(
  db: Db, realmId: number, userId: number, scope: Scope, terms: NegatableTerm[],
  anchor: number, numBefore: number, numAfter: number, includeAnchor: boolean,
): Promise<Window> {
  const q = () => base(db, realmId, userId, scope, terms).select('m.id');
  // Ids are 32-bit integers on PostgreSQL, which refuses to compare them with a larger anchor (`newest`).
  const beyond = anchor > MAX_MESSAGE_ID;
  const below = (qb: ReturnType<typeof q>) => (beyond ? qb : qb.where('m.id', '<', anchor));
  const before = numBefore > 0 ? (await below(q()).orderBy('m.id', 'desc').limit(numBefore).execute()).map((r) => r.id).reverse() : [];
  const at = includeAnchor && !beyond ? await q().where('m.id', '=', anchor).executeTakeFirst() : undefined;
  const after = numAfter > 0 && !beyond ? (await q().where('m.id', '>', anchor).orderBy('m.id', 'asc').limit(numAfter).execute()).map((r) => r.id) : [];
  return {
    ids: [...before, ...(at ? [at.id] : []), ...after],
    foundAnchor: !!at,
    foundOldest: before.length < numBefore,
    foundNewest: after.length < numAfter,
  };
}

export async function firstUnreadId(db: Db, realmId: number, userId: number, terms: NegatableTerm[]): Promise<number | null> {
  const row = await base(db, realmId, userId, { kind: 'user' }, [...terms, { op: 'is', what: 'unread', negated: false }])
    .select('m.id').orderBy('m.id', 'asc').limit(1).executeTakeFirst();
  return row?.id ?? null;
}

export async function matchingIds(db: Db, realmId: number, userId: number, scope: Scope, terms: NegatableTerm[], requested: number[]): Promise<number[]> {
  const ids = requested.filter((id) => id > 0 && id <= MAX_MESSAGE_ID);
  if (!ids.length) return [];
  const rows = await base(db, realmId, userId, scope, terms).select('m.id').where('m.id', 'in', ids).execute();
  return rows.map((r) => r.id);
}
