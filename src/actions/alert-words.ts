// Alert words (§6 alert_words): words or phrases a user wants to be alerted to. A message containing one, as a
// whole word and without regard to case, carries the has_alert_word flag for that recipient.
import type { App } from '../app.js';
import { ApiError } from '../lib/errors.js';
import { LIMITS } from '../lib/limits.js';
import { codePointLength } from '../lib/text.js';
import { WordAutomaton } from '../lib/word-automaton.js';
import { addAlertWords, alertWordKey, listAlertWords, realmAlertWords, removeAlertWords } from '../store/alert-words.js';
import type { Db, Tx } from '../store/db.js';
import { FLAG_BITS } from '../store/messages.js';
import type { Realm } from '../store/realms.js';
import type { User } from '../store/users.js';
import { inTransaction } from './transaction.js';

export async function accessAlertWords(app: App, user: User): Promise<string[]> {
  return listAlertWords(app.db, user.id);
}

// Surrounding spaces are dropped and empty words ignored, as the reference server does.
function checkWords(words: string[]): string[] {
  words.forEach((w, i) => {
    if (codePointLength(w) > LIMITS.alertWordLength) throw new ApiError(`alert_words[${i}] is too long (limit: ${LIMITS.alertWordLength} characters)`);
  });
  return words.map((w) => w.trim()).filter(Boolean);
}

async function change(app: App, realm: Realm, user: User, fn: (tx: Tx, before: string[]) => Promise<void>): Promise<string[]> {
  return inTransaction(app, async (tx, emit) => {
    const before = await listAlertWords(tx, user.id);
    await fn(tx, before);
    const after = await listAlertWords(tx, user.id);
    if (after.join('\n') !== before.join('\n')) emit(realm.id, { type: 'alert_words', alert_words: after }, [user.id]);
    return after;
  });
}

export async function doAddAlertWords(app: App, realm: Realm, user: User, words: string[]): Promise<string[]> {
  const checked = checkWords(words);
  return change(app, realm, user, async (tx, before) => {
    const added = await addAlertWords(tx, realm.id, user.id, before, checked);
    if (before.length + added > LIMITS.alertWordsPerUser) {
      throw new ApiError(`Too many alert words (limit: ${LIMITS.alertWordsPerUser} per user)`);
    }
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

// One automaton over the organization's distinct lower-cased alert words, with the users of each word; built
// once per set of words (the cached words object stands for that set, and is replaced when any word changes).
interface Matcher {
  automaton: WordAutomaton;
  users: number[][]; // by word index
}

const matchers = new WeakMap<object, Promise<Matcher>>();

async function buildMatcher(words: ReadonlyMap<number, readonly string[]>): Promise<Matcher> {
  const index = new Map<string, number>();
  const users: number[][] = [];
  for (const [userId, list] of words) {
    for (const w of list) {
      const key = alertWordKey(w);
      let i = index.get(key);
      if (i === undefined) {
        index.set(key, (i = users.length));
        users.push([]);
      }
      users[i].push(userId);
    }
  }
  return { automaton: await WordAutomaton.build([...index.keys()]), users };
}

async function realmMatcher(db: Db, realmId: number): Promise<Matcher | null> {
  const words = await realmAlertWords(db, realmId);
  if (!words.size) return null;
  let matcher = matchers.get(words);
  if (!matcher) {
    matcher = buildMatcher(words);
    matchers.set(words, matcher);
    matcher.catch(() => matchers.delete(words));
  }
  return matcher;
}

// Adds has_alert_word to the rows of recipients whose alert words the message contains: one pass over the
// message finds every organization word in it (whole words only), then only the matched words' users are
// looked at. Costs nothing where nobody has alert words.
export async function flagAlertWords(tx: Tx, realmId: number, content: string, rows: { userId: number; flags: number }[]): Promise<void> {
  const matcher = await realmMatcher(tx, realmId);
  if (!matcher) return;
  const text = content.toLowerCase();
  const matched = new Set<number>();
  matcher.automaton.scan(text, (word, start, end) => {
    if (matched.has(word)) return;
    if ((start === 0 || BEFORE.has(text[start - 1])) && (end === text.length || AFTER.has(text[end]))) matched.add(word);
  });
  if (!matched.size) return;
  const alerted = new Set<number>();
  for (const word of matched) for (const userId of matcher.users[word]) alerted.add(userId);
  for (const row of rows) if (alerted.has(row.userId)) row.flags |= FLAG_BITS.has_alert_word;
}
