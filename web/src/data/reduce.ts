// Applying events to the state: a pure function of the state, the events of one answer from the server, and the
// time (for typing notices' expiry). Each family of events has its file in events/.
import type { ServerEvent } from '../api/types';
import { Draft } from './draft';
import { channelEvents } from './events/channels';
import { flagEvents } from './events/flags';
import { messageEvents } from './events/messages';
import { orgEvents } from './events/org';
import { peopleEvents } from './events/people';
import { settingsEvents } from './events/settings';
import type { State } from './state';

type Reducer = (d: Draft, e: ServerEvent, now: number) => void;

const REDUCERS: Record<string, Reducer> = { ...messageEvents, ...flagEvents, ...peopleEvents, ...channelEvents, ...settingsEvents, ...orgEvents };

export function applyEvents(state: State, events: ServerEvent[], now = Date.now()): State {
  const d = new Draft(state);
  for (const e of events) REDUCERS[e.type]?.(d, e, now);
  return d.result();
}

// Changes the app makes itself (a fetched page of messages, an optimistic flag) go through the same draft.
export function produce(state: State, fn: (d: Draft) => void): State {
  const d = new Draft(state);
  fn(d);
  return d.result();
}
