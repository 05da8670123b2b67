// A minimal external store: components read slices of it through useStore (hooks.ts); everything that changes it
// goes through set/update, outside the components.
export class Store<T> {
  private listeners = new Set<() => void>();

  constructor(private state: T) {}

  get = (): T => this.state;

  set(next: T): void {
    if (next === this.state) return;
    this.state = next;
    for (const l of [...this.listeners]) l();
  }

  update(fn: (s: T) => T): void {
    this.set(fn(this.state));
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
}

// Caches a derivation on the identity of its inputs (the parts of the state it reads).
export function memo<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
  let last: A | undefined;
  let value: R;
  return (...args: A) => {
    if (!last || last.length !== args.length || args.some((a, i) => a !== last![i])) {
      value = fn(...args);
      last = args;
    }
    return value;
  };
}
