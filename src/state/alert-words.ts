// The alert_words register block.
import { listAlertWords } from '../store/alert-words.js';
import type { Db } from '../store/db.js';
import type { User } from '../store/users.js';

export async function alertWordsState(db: Db, user: User | null) {
  return { alert_words: user ? await listAlertWords(db, user.id) : [] };
}
