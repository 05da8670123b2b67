import { cached, cacheMap } from './cache.js';
import type { Db } from './db.js';

// Alert words match without regard to case; `word_key` is the lower-cased word, unique per user.
export const alertWordKey = (word: string) => word.toLowerCase();

// Rows per insert: four values each, well within SQLite's 32,766 variables per statement.
const INSERT_CHUNK = 500;

export async function listAlertWords(db: Db, userId: number): Promise<string[]> {
  const rows = await db.selectFrom('alert_words').select('word').where('user_id', '=', userId).orderBy('id').execute();
  return rows.map((r) => r.word);
}

// Adds the words the user does not have yet (compared without regard to case); returns how many it added.
export async function addAlertWords(db: Db, realmId: number, userId: number, have: string[], words: string[]): Promise<number> {
  const known = new Set(have.map(alertWordKey));
  const fresh = new Map<string, string>();
  for (const w of words) if (!known.has(alertWordKey(w)) && !fresh.has(alertWordKey(w))) fresh.set(alertWordKey(w), w);
  const rows = [...fresh].map(([key, word]) => ({ realm_id: realmId, user_id: userId, word, word_key: key }));
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) await db.insertInto('alert_words').values(rows.slice(i, i + INSERT_CHUNK)).execute();
  return rows.length;
}

export async function removeAlertWords(db: Db, userId: number, words: string[]): Promise<void> {
  const keys = [...new Set(words.map(alertWordKey))];
  for (let i = 0; i < keys.length; i += INSERT_CHUNK) {
    await db.deleteFrom('alert_words').where('user_id', '=', userId).where('word_key', 'in', keys.slice(i, i + INSERT_CHUNK)).execute();
  }
}

// Every alert word of the organization by user, in one indexed query, kept in memory until any of them changes
// (src/store/cache.ts): the same Map object as long as the words are the same, so that what is built from it
// (the matching automaton) can be kept with it.
const wordsByRealm = cacheMap<number, Map<number, string[]>>('alert_words');

export async function realmAlertWords(db: Db, realmId: number): Promise<ReadonlyMap<number, readonly string[]>> {
  return cached(db, wordsByRealm, realmId, async () => {
    const rows = await db.selectFrom('alert_words').select(['user_id', 'word']).where('realm_id', '=', realmId).execute();
    const out = new Map<number, string[]>();
    for (const r of rows) {
      const list = out.get(r.user_id);
      if (list) list.push(r.word);
      else out.set(r.user_id, [r.word]);
    }
    return out;
  });
}
