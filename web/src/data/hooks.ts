// Components read the stores through these: they re-render only when the slice they select changes (selectors
// return parts of the state, or memoized derivations, never fresh objects).
import { useSyncExternalStore } from 'react';
import { ui, type Ui } from '../app/ui';
import { server } from './session';
import type { State } from './state';
import type { Store } from './store';

export function useStore<T, R>(store: Store<T>, selector: (s: T) => R): R {
  return useSyncExternalStore(store.subscribe, () => selector(store.get()));
}

// For components shown only once registered.
export function useServer<R>(selector: (s: State) => R): R {
  return useStore(server, (s) => selector(s!));
}

export function useUi<R>(selector: (u: Ui) => R): R {
  return useStore(ui, selector);
}
