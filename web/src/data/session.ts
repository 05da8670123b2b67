// The live connection: register (the snapshot and an event queue), then long-poll the queue and apply each
// answer's events. A lost connection is retried with backoff (the queue outlives a server restart); a queue the
// server no longer has (BAD_EVENT_QUEUE_ID) means registering again and reloading what is shown. The compose box
// and the rest of the UI state live elsewhere (app/ui.ts) and survive both.
import { api, ApiError, NetworkError } from '../api/client';
import type { RegisterResponse, ServerEvent } from '../api/types';
import { applyEvents } from './reduce';
import { fromRegister, type State } from './state';
import { Store } from './store';

export const server = new Store<State | null>(null);

export type ConnectionStatus =
  | { status: 'connecting' }
  | { status: 'connected' }
  | { status: 'reconnecting'; retryAt: number; attempt: number }
  | { status: 'reloading' }; // registering again after losing the queue

export const connection = new Store<ConnectionStatus>({ status: 'connecting' });

// Capabilities of this client (the reference's names): events in the newest shapes, and fewer fields it would
// ignore.
const CAPABILITIES = {
  notification_settings_null: true,
  bulk_message_deletion: true,
  user_avatar_url_field_optional: true,
  stream_typing_notifications: true,
  user_settings_object: true,
  linkifier_url_template: true,
  user_list_incomplete: true,
  archived_channels: true,
  empty_topic_name: true,
  simplified_presence_events: true,
};

const FETCH = [
  'realm', 'realm_user', 'user_settings', 'subscription', 'message', 'update_message_flags', 'starred_messages',
  'recent_private_conversations', 'presence', 'drafts', 'scheduled_messages', 'user_topic', 'realm_emoji', 'user_status',
  // What the settings overlay shows (small lists; the overlay's code itself loads on demand).
  'realm_user_groups', 'realm_linkifiers', 'realm_playgrounds', 'default_streams', 'custom_profile_fields', 'channel_folders',
  'realm_bot', 'alert_words', 'muted_users',
];

type EventListener = (events: ServerEvent[], before: State, after: State) => void;
const eventListeners = new Set<EventListener>();
const reloadListeners = new Set<() => void>();

// Notifications, sounds and the like watch the events as they are applied.
export function onEvents(l: EventListener): () => void {
  eventListeners.add(l);
  return () => eventListeners.delete(l);
}

// Views reload what they show after a new registration.
export function onReload(l: () => void): () => void {
  reloadListeners.add(l);
  return () => reloadListeners.delete(l);
}

let queueId = '';
let lastEventId = -1;
let generation = 0;
let longpollSeconds = 90;
let wake: (() => void) | null = null;
let poll: AbortController | null = null;

export async function register(): Promise<State> {
  const r: RegisterResponse = await api.call('POST /register', {
    apply_markdown: true,
    client_gravatar: true,
    slim_presence: true,
    include_subscribers: 'false',
    client_capabilities: CAPABILITIES,
    fetch_event_types: FETCH,
  });
  queueId = r.queue_id;
  lastEventId = r.last_event_id;
  pending = []; // the old queue's: the new snapshot holds their effect
  longpollSeconds = Number(r.event_queue_longpoll_timeout_seconds ?? 90);
  const state = fromRegister(r);
  server.set(state);
  return state;
}

export async function start(): Promise<void> {
  await register();
  connection.set({ status: 'connected' });
  void loop(++generation);
}

// Retry at once (the "Try now" button, or the browser coming back online).
export function retryNow(): void {
  wake?.();
}

const sleep = (ms: number) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      wake = null;
      resolve();
    }, ms);
    wake = () => {
      clearTimeout(timer);
      wake = null;
      resolve();
    };
  });

export function backoffMs(attempt: number): number {
  const base = Math.min(30_000, 1000 * 2 ** Math.min(attempt, 5));
  return base / 2 + Math.random() * (base / 2);
}

async function loop(gen: number): Promise<void> {
  let attempt = 0;
  while (gen === generation) {
    try {
      poll = new AbortController();
      // A poll the server never answers (a dead connection) is given up after the server's own timeout.
      const timer = setTimeout(() => poll?.abort(), (longpollSeconds + 20) * 1000);
      const res: { events: ServerEvent[] } = await api.call('GET /events', { queue_id: queueId, last_event_id: lastEventId }, { signal: poll.signal }).finally(() => clearTimeout(timer));
      if (gen !== generation) return;
      if (attempt > 0 || connection.get().status !== 'connected') connection.set({ status: 'connected' });
      attempt = 0;
      if (res.events.length) apply(res.events);
    } catch (err) {
      if (gen !== generation) return;
      if (err instanceof ApiError && err.code === 'BAD_EVENT_QUEUE_ID') {
        await reRegister(gen);
        continue;
      }
      if (err instanceof ApiError && err.status === 401) return; // the client sends the person to the login page
      attempt++;
      const wait = backoffMs(attempt - 1);
      connection.set({ status: 'reconnecting', retryAt: Date.now() + wait, attempt });
      await sleep(wait);
      if (!(err instanceof NetworkError) && !(err instanceof ApiError) && (err as Error).name !== 'AbortError') console.error(err);
    }
  }
}

// Events are applied at once after a quiet spell; under a flood, at most every APPLY_MS, so that the page renders
// a few times a second with many new messages rather than for each answer (the queue is polled on regardless).
const APPLY_MS = 200;
let pending: ServerEvent[] = [];
let applyTimer: ReturnType<typeof setTimeout> | undefined;
let lastApply = 0;

function apply(events: ServerEvent[]): void {
  lastEventId = Math.max(lastEventId, ...events.map((e) => e.id));
  pending.push(...events);
  const wait = lastApply + APPLY_MS - Date.now();
  if (wait <= 0) flush();
  else applyTimer ??= setTimeout(flush, wait);
}

function flush(): void {
  clearTimeout(applyTimer);
  applyTimer = undefined;
  lastApply = Date.now();
  const events = pending;
  pending = [];
  const before = server.get();
  if (!before || !events.length) return;
  const after = applyEvents(before, events);
  server.set(after);
  for (const l of eventListeners) l(events, before, after);
}

async function reRegister(gen: number): Promise<void> {
  connection.set({ status: 'reloading' });
  let attempt = 0;
  while (gen === generation) {
    try {
      await register();
      connection.set({ status: 'connected' });
      for (const l of reloadListeners) l();
      return;
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) return;
      const wait = backoffMs(attempt++);
      connection.set({ status: 'reconnecting', retryAt: Date.now() + wait, attempt });
      await sleep(wait);
    }
  }
}

export const currentQueueId = () => queueId;

// The state, for code that runs after start().
export function state(): State {
  const s = server.get();
  if (!s) throw new Error('not registered yet');
  return s;
}

export function stop(): void {
  generation++;
  poll?.abort();
}
