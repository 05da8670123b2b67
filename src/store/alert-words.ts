import type { Db } from './db.js';

// Alert words match without regard to case; `word_key` is the lower-cased word, unique per user.
export const alertWordKey = (word: string) => word.toLowerCase();

export async function listAlertWords(db: Db, userId: number): Promise<string[]> {
  const rows = await db.selectFrom('alert_words').select('word').where('user_id', '=', userId).orderBy('id').execute();
  return rows.map((r) => r.word);
}

// Adds the words the user does not have yet (compared without regard to case).
export async function addAlertWords(db: Db, realmId: number, userId: number, words: string[]): Promise<void> {
  const have = new Set((await listAlertWords(db, userId)).map(alertWordKey));
  const fresh = new Map<string, string>();
  for (const w of words) if (!have.has(alertWordKey(w)) && !fresh.has(alertWordKey(w))) fresh.set(alertWordKey(w), w);
  if (!fresh.size) return;
  await db
    .insertInto('alert_words')
    .values([...fresh].map(([key, word]) => ({ realm_id: realmId, user_id: userId, word, word_key: key })))
    .execute();
}

export async function removeAlertWords(db: Db, userId: number, words: string[]): Promise<void> {
  if (!words.length) return;
  await db.deleteFrom('alert_words').where('user_id', '=', userId).where('word_key', 'in', words.map(alertWordKey)).execute();
}

// Every alert word of the organization by user, in one indexed query; empty (and cheap) when nobody has any.
export async function realmAlertWords(db: Db, realmId: number): Promise<Map<number, string[]>> {
  const rows = await db.selectFrom('alert_words').select(['user_id', 'word']).where('realm_id', '=', realmId).execute();
  const out = new Map<number, string[]>();
  for (const r of rows) {
    const list = out.get(r.user_id);
    if (list) list.push(r.word);
    else out.set(r.user_id, [r.word]);
  }
  return out;
}
