import type { Snapshot } from './snapshot.js';

/**
 * Like `derive`, for values that need a query: computed once per snapshot (kept in its `derived` map) and shared by
 * concurrent callers. A failed computation is forgotten, so the next request tries again instead of repeating the
 * error for the whole period.
 */
export function deriveAsync<T>(build: (snapshot: Snapshot) => Promise<T>): (snapshot: Snapshot) => Promise<T> {
  const read = (snapshot: Snapshot): Promise<T> => {
    let pending = snapshot.derived.get(read) as Promise<T> | undefined;
    if (!pending) {
      pending = build(snapshot);
      snapshot.derived.set(read, pending);
      const entry = pending;
      entry.catch(() => {
        if (snapshot.derived.get(read) === entry) snapshot.derived.delete(read);
      });
    }
    return pending;
  };
  return read;
}
