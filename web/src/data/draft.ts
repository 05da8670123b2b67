// One batch of events makes one new State: each part of the state is copied at most once, on its first change
// in the batch, and every untouched part is shared with the old state. Reducers change the copies in place,
// which nobody else holds.
import type { State } from './state';
import { cloneUnread, type Unread } from './unread';

type Copyable = Map<unknown, unknown> | Set<unknown> | Record<string, unknown>;

function shallowCopy<T>(value: T): T {
  if (value instanceof Map) return new Map(value) as T;
  if (value instanceof Set) return new Set(value) as T;
  return { ...(value as Copyable) } as T;
}

export class Draft {
  private readonly next: State;
  private readonly copied = new Set<keyof State>();

  constructor(readonly base: State) {
    this.next = { ...base };
  }

  get<K extends keyof State>(key: K): State[K] {
    return this.next[key];
  }

  // The part, copied for this batch if it was not yet.
  mut<K extends keyof State>(key: K): State[K] {
    if (!this.copied.has(key)) {
      this.next[key] = key === 'unread' ? (cloneUnread(this.next.unread as Unread) as State[K]) : shallowCopy(this.next[key]);
      this.copied.add(key);
    }
    return this.next[key];
  }

  set<K extends keyof State>(key: K, value: State[K]): void {
    this.next[key] = value;
    this.copied.add(key);
  }

  result(): State {
    return this.copied.size ? this.next : this.base;
  }
}
