// Full-text search over message topics and content. SQLite keeps a contentless FTS5 table (`message_search`,
// porter stemming) that this module writes whenever a message's text changes; PostgreSQL a table of stored
// documents, to_tsvector('english', topic || ' ' || content) with a GIN index, that a trigger keeps current
// (migrations/037-postgres-search-table.ts).
//
// Search text follows the reference server: every word must match (stemmed, English stop words ignored), and
// each "quoted phrase" must also appear verbatim (case-insensitive) in the content or the topic.
import { PostgresAdapter, sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import { porterStem } from '../lib/stem.js';
import type { Dialect } from './db.js';

// PostgreSQL's English stop-word list; SQLite drops the same words so both databases match alike.
export const STOP_WORDS: ReadonlySet<string> = new Set(
  ('i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers herself it its ' +
    'itself they them their theirs themselves what which who whom this that these those am is are was were be been being ' +
    'have has had having do does did doing a an the and but if or because as until while of at by for with about against ' +
    'between into through during before after above below to from up down in out on off over under again further then once ' +
    'here there when where why how all any both each few more most other some such no nor not only own same so than too ' +
    'very s t can will just don should now').split(' '),
);

// Runs of letters and digits, lower-cased, as FTS5's unicode61 tokenizer sees them. Accents are kept, as
// PostgreSQL's English configuration keeps them, so both databases find the same messages.
export function searchTokens(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}\p{M}]+/gu) ?? [];
}

export const foldWord = (word: string) => searchTokens(word).join('');

export interface ParsedSearch {
  words: string[]; // searchable words, stop words removed
  phrases: string[]; // quoted phrases, lower case
}

export function parseSearch(text: string): ParsedSearch {
  const phrases = [...text.matchAll(/"([^"]+)"/g)].map((m) => m[1].trim().toLowerCase()).filter(Boolean);
  const words = [...new Set(searchTokens(text).filter((w) => !STOP_WORDS.has(w)))];
  return { words, phrases };
}

// The stems a highlighter looks for: what the index stored for each searched word.
export function searchStems(texts: string[]): Set<string> {
  return new Set(texts.flatMap((t) => parseSearch(t).words.map(porterStem)));
}

export function dialectOf(db: Kysely<any>): Dialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

// Keeps the SQLite index in step with a message's text; call it whenever a message is inserted (`fresh`: not
// indexed before) or its topic or content (the Markdown source) changes, in the same transaction. On PostgreSQL
// a trigger does it.
export async function indexMessageText(tx: Kysely<any>, id: number, topic: string, content: string, fresh = false): Promise<void> {
  if (dialectOf(tx) !== 'sqlite') return;
  if (!fresh) await sql`delete from message_search where rowid = ${id}`.execute(tx);
  await sql`insert into message_search (rowid, topic, content) values (${id}, ${topic}, ${content})`.execute(tx);
}

// The same for many new messages at once (the bulk path, src/store/message-bulk.ts): their stored text, read
// back in one statement per range of consecutive ids.
export async function indexNewMessages(tx: Kysely<any>, ids: number[]): Promise<void> {
  if (dialectOf(tx) !== 'sqlite' || !ids.length) return;
  const sorted = [...ids].sort((a, b) => a - b);
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
    await sql`insert into message_search (rowid, topic, content) select id, topic, content from messages where id between ${sorted[i]} and ${sorted[j]}`.execute(tx);
    i = j + 1;
  }
}

// For deleted messages. Not strictly needed (searches join messages, and SQLite never reuses message ids),
// but it keeps the index small.
export async function unindexMessages(tx: Kysely<any>, ids: number[]): Promise<void> {
  if (dialectOf(tx) !== 'sqlite' || !ids.length) return;
  for (let i = 0; i < ids.length; i += 500) {
    await sql`delete from message_search where rowid in (${sql.join(ids.slice(i, i + 500))})`.execute(tx);
  }
}

// The document stored on PostgreSQL (`table`: the row's prefix, e.g. `new.` in the trigger). Its parser would
// read `<word>` in Markdown as an HTML tag and `&name;` as an entity, and skip them; SQLite's tokenizer sees these
// characters as separators, so blank them here too.
export const postgresSearchDocument = (table = '') => `to_tsvector('english', translate(${table}topic || ' ' || ${table}content, '<>&', '   '))`;

const likePattern = (s: string) => `%${s.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

// SQLite: the FTS5 query of a `search` operand's words; null when it has only stop words.
export function searchMatch(text: string): string | null {
  const { words } = parseSearch(text);
  return words.length ? words.map((w) => `"${w}"`).join(' ') : null;
}

// The operand's quoted phrases, each of which must appear verbatim; null when it has none.
export function searchPhrases(text: string): Expression<SqlBool> | null {
  const parts = parseSearch(text).phrases.map(
    (p) => sql<SqlBool>`(lower(m.content) like ${likePattern(p)} escape '\\' or m.topic_key like ${likePattern(p)} escape '\\')`,
  );
  return parts.length ? (parts.length === 1 ? parts[0] : sql<SqlBool>`(${sql.join(parts, sql` and `)})`) : null;
}

// The condition for one `search` operand, on messages aliased `m`.
export function searchCondition(dialect: Dialect, text: string): Expression<SqlBool> {
  const { words } = parseSearch(text);
  // Only stop words: the reference server's query is empty and matches nothing.
  if (!words.length) return sql<SqlBool>`1 = 0`;
  const parts: Expression<SqlBool>[] = [];
  if (dialect === 'postgres') {
    parts.push(sql<SqlBool>`m.id in (select id from message_search where document @@ plainto_tsquery('english', ${text}))`);
  } else {
    parts.push(sql<SqlBool>`m.id in (select rowid from message_search where message_search match ${searchMatch(text)})`);
  }
  const phrases = searchPhrases(text);
  if (phrases) parts.push(phrases);
  return parts.length === 1 ? parts[0] : sql<SqlBool>`(${sql.join(parts, sql` and `)})`;
}
