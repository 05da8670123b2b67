// Message lists per narrow: ascending ids known to be contiguous in the narrow, and whether the oldest and the
// newest message of the narrow are in. A fetch extends a list at one end (or starts it); events add the new
// messages the app can tell belong, and drop deleted or moved ones.
import type { MessageList } from './state';
import type { Term } from './narrow';

export type FetchKind = 'initial' | 'older' | 'newer';

export interface Fetched {
  ids: number[]; // ascending
  foundOldest: boolean;
  foundNewest: boolean;
}

export function mergeFetched(list: MessageList | undefined, terms: Term[], kind: FetchKind, f: Fetched): MessageList {
  if (!list || kind === 'initial' || !list.ids.length) return { terms, ids: [...f.ids], foundOldest: f.foundOldest, foundNewest: f.foundNewest };
  if (kind === 'older') {
    const first = list.ids[0];
    const older = f.ids.filter((id) => id < first);
    return { ...list, ids: [...older, ...list.ids], foundOldest: f.foundOldest };
  }
  const last = list.ids[list.ids.length - 1];
  const newer = f.ids.filter((id) => id > last);
  return { ...list, ids: [...list.ids, ...newer], foundNewest: f.foundNewest };
}

// A new message: `belongs` true (the app can tell it is in the narrow), false, or undefined (only the server
// knows: the list no longer knows its newest end).
export function addNew(list: MessageList, id: number, belongs: boolean | undefined): MessageList {
  if (belongs === false || !list.foundNewest) return list;
  if (belongs === undefined) return { ...list, foundNewest: false };
  const ids = list.ids;
  if (ids.includes(id)) return list;
  if (!ids.length || ids[ids.length - 1] < id) return { ...list, ids: [...ids, id] };
  return { ...list, ids: [...ids, id].sort((a, b) => a - b) };
}

// A message that came into a narrow by a move: in the list if its place is inside the list's known range.
export function addMoved(list: MessageList, id: number): MessageList {
  const ids = list.ids;
  if (ids.includes(id)) return list;
  const inside = (list.foundOldest || (ids.length > 0 && id > ids[0])) && (list.foundNewest || (ids.length > 0 && id < ids[ids.length - 1]));
  return inside ? { ...list, ids: [...ids, id].sort((a, b) => a - b) } : list;
}

export function removeIds(list: MessageList, gone: Set<number>): MessageList {
  if (!list.ids.some((id) => gone.has(id))) return list;
  return { ...list, ids: list.ids.filter((id) => !gone.has(id)) };
}
