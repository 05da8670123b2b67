// Alert words (§6 alert_words): words or phrases a user wants to be alerted to. A message containing one, as a
// whole word and without regard to case, carries the has_alert_word flag for that recipient.
import type { App } from '../app.js';
import { ApiError } from '../http/errors.js';
import { codePointLength } from '../lib/text.js';
import { addAlertWords, alertWordKey, listAlertWords, realmAlertWords, removeAlertWords } from '../store/alert-words.js';
import type { Db, Tx } from '../store/db.js';
import { FLAG_BITS } from '../store/messages.js';
import type { Realm } from '../store/realms.js';
import type { User } from '../store/users.js';
import { checkRoom } from './per-user-limits.js';
import { inTransaction } from './transaction.js';

const ALERT_WORD_MAX_LENGTH = 100;

export async function accessAlertWords(app: App, user: User): Promise<string[]> {
  return listAlertWords(app.db, user.id);
}

export async function alertWordsState(db: Db, user: User | null) {
  return { alert_words: user ? await listAlertWords(db, user.id) : [] };
}

// Surrounding spaces are dropped and empty words ignored, as the reference server does.
function checkWords(words: string[]): string[] {
  words.forEach((w, i) => {
    if (codePointLength(w) > ALERT_WORD_MAX_LENGTH) throw new ApiError(`alert_words[${i}] is too long (limit: ${ALERT_WORD_MAX_LENGTH} characters)`);
  });
  return words.map((w) => w.trim()).filter(Boolean);
}

async function change(app: App, realm: Realm, user: User, fn: (tx: Tx) => Promise<void>): Promise<string[]> {
  return inTransaction(app, async (tx, emit) => {
    const before = await listAlertWords(tx, user.id);
    await fn(tx);
    const after = await listAlertWords(tx, user.id);
    if (after.join('\n') !== before.join('\n')) emit(realm.id, { type: 'alert_words', alert_words: after }, [user.id]);
    return after;
  });
}

export async function doAddAlertWords(app: App, realm: Realm, user: User, words: string[]): Promise<string[]> {
  const checked = checkWords(words);
  return change(app, realm, user, async (tx) => {
    const have = new Set((await listAlertWords(tx, user.id)).map(alertWordKey));
    checkRoom(have.size, new Set(checked.map(alertWordKey).filter((k) => !have.has(k))).size, 'alert words');
    await addAlertWords(tx, realm.id, user.id, checked);
  });
}

export async function doRemoveAlertWords(app: App, realm: Realm, user: User, words: string[]): Promise<string[]> {
  const checked = checkWords(words);
  return change(app, realm, user, (tx) => removeAlertWords(tx, user.id, checked));
}

// The characters that may surround an alert word in the message's Markdown, besides its start and end (the
// reference server's rules: so that "one" alerts in "one? two." but not in "clone" or "http://t.co/one").
const BEFORE = new Set([' ', '\n', '(', '"', '.', ',', "'", ';', '[', '*', '`', '>']);
const AFTER = new Set([' ', '\n', ')', '"', '?', ':', '.', ',', "'", ';', ']', '!', '*', '`']);

function containsAlertWord(content: string, word: string): boolean {
  const needle = word.toLowerCase();
  for (let at = content.indexOf(needle); at !== -1; at = content.indexOf(needle, at + 1)) {
    const end = at + needle.length;
    if ((at === 0 || BEFORE.has(content[at - 1])) && (end === content.length || AFTER.has(content[end]))) return true;
  }
  return false;
}

// Adds has_alert_word to the rows of recipients whose alert words the message contains. One query, which
// finds nothing (and costs little) in organizations where nobody has alert words.
export async function flagAlertWords(tx: Tx, realmId: number, content: string, rows: { userId: number; flags: number }[]): Promise<void> {
  const words = await realmAlertWords(tx, realmId);
  if (!words.size) return;
  const lower = content.toLowerCase();
  for (const row of rows) {
    const mine = words.get(row.userId);
    if (mine?.some((w) => containsAlertWord(lower, w))) row.flags |= FLAG_BITS.has_alert_word;
  }
}
