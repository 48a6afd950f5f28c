import type { Snapshot } from './snapshot.js';

/**
 * Like `derive`, for values that need a query: computed once per snapshot and shared by concurrent callers. A failed
 * computation is forgotten, so the next request tries again instead of repeating the error for the whole period.
 */
export function deriveAsync<T>(build: (snapshot: Snapshot) => Promise<T>): (snapshot: Snapshot) => Promise<T> {
  const cache = new WeakMap<Snapshot, Promise<T>>();
  return (snapshot) => {
    let pending = cache.get(snapshot);
    if (!pending) {
      pending = build(snapshot);
      cache.set(snapshot, pending);
      const entry = pending;
      entry.catch(() => {
        if (cache.get(snapshot) === entry) cache.delete(snapshot);
      });
    }
    return pending;
  };
}
