// Loading messages into the list of a narrow: the first page around an anchor (the first unread message, or a
// linked one), then older or newer pages as the person scrolls. One request per list and direction at a time.
import { api } from '../api/client';
import type { Message } from '../api/types';
import { matchContext } from './events/messages';
import { mergeFetched, type FetchKind } from './lists';
import { apiNarrow, matches, narrowKey, type Term } from './narrow';
import { produce } from './reduce';
import { server, state } from './session';

const inFlight = new Map<string, Promise<FetchResult>>();

export interface FetchResult {
  anchor?: number; // the message the first page opened at (first unread, or the one asked for)
  error?: string;
}

interface MessagesAnswer {
  messages: Message[];
  anchor: number;
  found_anchor: boolean;
  found_oldest: boolean;
  found_newest: boolean;
}

export const PAGE = 200;
const FIRST_PAGE = 60;

// `near`: the message to open at, or an end of the narrow; the first unread message by default.
export type Anchor = number | 'oldest' | 'newest';

export function loadMessages(terms: Term[], kind: FetchKind, near?: Anchor): Promise<FetchResult> {
  const key = narrowKey(terms);
  const flight = `${key}|${kind}`;
  const running = inFlight.get(flight);
  if (running) return running;
  const p = doLoad(terms, key, kind, near).finally(() => inFlight.delete(flight));
  inFlight.set(flight, p);
  return p;
}

// The first view's first page, asked for while the app registers (it needs nothing from the snapshot).
let prefetched: { key: string; near?: number; answer: Promise<MessagesAnswer> } | null = null;

export function prefetchMessages(terms: Term[], near?: number): void {
  const answer: Promise<MessagesAnswer> = api.call('GET /messages', { anchor: String(near ?? 'first_unread'), num_before: FIRST_PAGE, num_after: FIRST_PAGE, narrow: apiNarrow(terms), apply_markdown: true, client_gravatar: true });
  answer.catch(() => {});
  prefetched = { key: narrowKey(terms), near, answer };
}

function takePrefetched(key: string, near?: number): Promise<MessagesAnswer> | undefined {
  const p = prefetched;
  prefetched = null;
  return p && p.key === key && p.near === near ? p.answer : undefined;
}

export const isLoading = (terms: Term[], kind: FetchKind) => inFlight.has(`${narrowKey(terms)}|${kind}`);

async function doLoad(terms: Term[], key: string, kind: FetchKind, near?: Anchor): Promise<FetchResult> {
  const list = state().lists.get(key);
  let params: Record<string, unknown>;
  if (kind === 'initial' || !list || !list.ids.length) {
    params = { anchor: String(near ?? 'first_unread'), num_before: near === 'newest' ? PAGE : FIRST_PAGE, num_after: near === 'oldest' ? PAGE : FIRST_PAGE };
    kind = 'initial';
  } else if (kind === 'older') params = { anchor: list.ids[0], num_before: PAGE, num_after: 0, include_anchor: false };
  else params = { anchor: list.ids[list.ids.length - 1], num_before: 0, num_after: PAGE, include_anchor: false };
  const registration = state().me; // a new registration meanwhile makes this answer stale
  let res: MessagesAnswer;
  try {
    const early = kind === 'initial' && typeof near !== 'string' ? takePrefetched(key, near) : undefined;
    res = await (early ?? (api.call('GET /messages', { ...params, narrow: apiNarrow(terms), apply_markdown: true, client_gravatar: true }) as Promise<MessagesAnswer>));
  } catch (err) {
    return { error: (err as Error).message };
  }
  server.update((s) => {
    if (!s || s.me !== registration) return s; // registered again meanwhile: this answer belongs to the old state
    return produce(s, (d) => {
      const messages = d.mut('messages');
      // A copy updated by events while the request ran is newer than the answer's; a search adds its highlights.
      for (const m of res.messages) {
        const held = messages.get(m.id);
        if (!held) messages.set(m.id, m);
        else if (m.match_content !== undefined && held.match_content !== m.match_content) messages.set(m.id, { ...held, match_content: m.match_content, match_subject: m.match_subject });
      }
      let next = mergeFetched(d.get('lists').get(key), terms, kind as FetchKind, {
        ids: res.messages.map((m) => m.id),
        foundOldest: res.found_oldest,
        foundNewest: res.found_newest,
      });
      // Messages that arrived by event while the page was on its way, after its newest (after nothing, for a
      // narrow that had no message at all).
      if (next.foundNewest && (next.ids.length || next.foundOldest)) {
        const last = next.ids.length ? next.ids[next.ids.length - 1] : 0;
        const ctx = matchContext({ me: d.get('me'), userTopics: d.get('userTopics') });
        const later = [...messages.values()].filter((m) => m.id > last && matches(terms, m, ctx) === true).map((m) => m.id).sort((a, b) => a - b);
        if (later.length) next = { ...next, ids: [...next.ids, ...later] };
      }
      d.mut('lists').set(key, next);
    });
  });
  return { anchor: kind === 'initial' ? (res.found_anchor || typeof near !== 'number' ? res.anchor : undefined) : undefined };
}

// Drops the lists of narrows not shown, keeping memory bounded on long sessions (their messages stay shared).
export function forgetLists(keep: string[]): void {
  server.update((s) => s && produce(s, (d) => {
    for (const key of d.get('lists').keys()) if (!keep.includes(key)) d.mut('lists').delete(key);
  }));
}

let recentLoaded: Promise<void> | null = null;

// The newest messages of every conversation (for Recent conversations): fetched once; events keep them current.
export function loadRecent(): Promise<void> {
  recentLoaded ??= (api.call('GET /messages', { anchor: 'newest', num_before: 1000, num_after: 0, narrow: [], apply_markdown: true, client_gravatar: true }) as Promise<MessagesAnswer>)
    .then((res) => {
      server.update((s) => s && produce(s, (d) => {
        const messages = d.mut('messages');
        for (const m of res.messages) if (!messages.has(m.id)) messages.set(m.id, m);
      }));
    })
    .catch((err) => {
      recentLoaded = null;
      throw err;
    });
  return recentLoaded;
}

export function forgetRecent(): void {
  recentLoaded = null;
}
