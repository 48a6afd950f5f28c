import type { Snapshot } from '../../snapshot/snapshot.js';

/**
 * Memoises a value computed from a snapshot and a base URL: built once per snapshot (so once per period, rebuilt
 * when a new period is swapped in) and dropped with it. `derive` from snapshot.ts for values that also depend on the
 * configured base URL.
 */
export function derivePerBase<T>(build: (snapshot: Snapshot, baseUrl: string) => T) {
  const cache = new WeakMap<Snapshot, Map<string, T>>();
  return (snapshot: Snapshot, baseUrl: string): T => {
    let byBase = cache.get(snapshot);
    if (!byBase) cache.set(snapshot, (byBase = new Map()));
    if (!byBase.has(baseUrl)) byBase.set(baseUrl, build(snapshot, baseUrl));
    return byBase.get(baseUrl)!;
  };
}
