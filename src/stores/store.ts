// A named store: one object of state, replaced (never mutated) on each change,
// read by components through useSyncExternalStore. Plain TypeScript, so the
// lab's actions and the engine's frames update it outside React.
import { useSyncExternalStore } from 'react';

export interface Store<T extends object> {
  get(): T;
  /** Merges `patch` (or what `f` makes of the current state) into a new state and tells the subscribers. */
  set(patch: Partial<T> | ((s: T) => Partial<T>)): void;
  subscribe(listener: () => void): () => void;
}

export function createStore<T extends object>(initial: T): Store<T> {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => state,
    set(patch) {
      const p = typeof patch === 'function' ? patch(state) : patch;
      if (Object.entries(p).every(([k, v]) => Object.is(state[k as keyof T], v))) return;
      state = { ...state, ...p };
      for (const l of [...listeners]) l();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The part of a store's state `select` picks; the component re-renders when that part changes (Object.is). */
export function useStore<T extends object, S>(store: Store<T>, select: (s: T) => S): S {
  return useSyncExternalStore(store.subscribe, () => select(store.get()));
}
