// The rows of a message list: each message, with a recipient header where the conversation changes (or the day,
// in a single conversation), and the sender's name and picture only where the sender changes.
import type { Message } from '../api/types';
import { conversationKey } from '../data/narrow';
import { dayOf } from '../app/time';

export interface Row {
  message: Message;
  header: boolean; // recipient bar (channel › topic, or the direct-message conversation)
  dateDivider: boolean; // a new day inside one conversation
  grouped: boolean; // same sender as the row above, shortly after: no name or picture
}

const GROUP_SECONDS = 5 * 60;

// A message's conversation key, kept per message object (a long list asks for all of them at every change).
const convKeys = new WeakMap<Message, string>();
function convOf(m: Message, me: number): string {
  let k = convKeys.get(m);
  if (k === undefined) convKeys.set(m, (k = conversationKey(m, me)));
  return k;
}


// `cache` holds the rows of the previous build: an unchanged row is the same object, so that its component does
// not render again.
export function buildRows(ids: number[], messages: Map<number, Message>, me: number, singleConversation: boolean, cache?: Map<number, Row>): Row[] {
  const rows: Row[] = [];
  let prev: Message | undefined;
  let prevConv = '';
  for (const id of ids) {
    const m = messages.get(id);
    if (!m) continue;
    const conv = convOf(m, me);
    const newDay = !prev || dayOf(prev.timestamp) !== dayOf(m.timestamp);
    const header = singleConversation ? !prev : conv !== prevConv;
    const dateDivider = !header && newDay;
    const grouped = !!prev && !header && !dateDivider && prev.sender_id === m.sender_id && m.timestamp - prev.timestamp < GROUP_SECONDS && !m.is_me_message;
    const old = cache?.get(id);
    const row = old && old.message === m && old.header === header && old.dateDivider === dateDivider && old.grouped === grouped ? old : { message: m, header, dateDivider, grouped };
    cache?.set(id, row);
    rows.push(row);
    prev = m;
    prevConv = conv;
  }
  if (cache && cache.size > rows.length * 2 + 200) {
    cache.clear();
    for (const r of rows) cache.set(r.message.id, r);
  }
  return rows;
}

// Height guesses before a row is measured (px): close guesses keep the scroll bar steady. Kept per row object
// (rows are reused while unchanged), as every layout of a long list asks for all of them.
const estimates = new WeakMap<Row, number>();
export function estimateRow(r: Row): number {
  let e = estimates.get(r);
  if (e === undefined) estimates.set(r, (e = guess(r)));
  return e;
}

function guess(r: Row): number {
  const text = r.message.content.length;
  const body = 22 * Math.min(12, 1 + Math.floor(text / 110)) + (r.message.content.includes('<pre') ? 60 : 0) + (r.message.reactions.length ? 30 : 0);
  return (r.header ? 40 : 0) + (r.dateDivider ? 28 : 0) + (r.grouped ? 8 : 30) + body;
}
