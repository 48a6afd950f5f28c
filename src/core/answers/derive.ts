import { derive, type Snapshot } from '../../snapshot/snapshot.js';
import type { Steps } from '../../snapshot/steps.js';

/**
 * Memoises a value computed from a snapshot and a base URL: built once per snapshot (so once per period, rebuilt
 * when a new period is swapped in) and dropped with it (kept in the snapshot's `derived` map). `derive` from snapshot.ts for values that also depend on the
 * configured base URL.
 */
export function derivePerBase<T>(build: (snapshot: Snapshot, baseUrl: string) => T) {
  const byBaseOf = derive(() => new Map<string, T>());
  return (snapshot: Snapshot, baseUrl: string): T => {
    const byBase = byBaseOf(snapshot);
    if (!byBase.has(baseUrl)) byBase.set(baseUrl, build(snapshot, baseUrl));
    return byBase.get(baseUrl)!;
  };
}

/** A per-period value built in steps: read it with `get` (finishing any build under way), warm it with `warm`. */
export interface SteppedPerBase<T> {
  (snapshot: Snapshot, baseUrl: string): T;
  /**
   * The build as steps, for a background warm-up: each `next()` does one chunk. It shares the build with `get`: a
   * request that needs the value before the warm-up is done finishes the remaining steps itself.
   */
  warm(snapshot: Snapshot, baseUrl: string): Steps<T>;
}

/** `derivePerBase` for a value built in steps (see steps.ts). */
export function derivePerBaseInSteps<T>(build: (snapshot: Snapshot, baseUrl: string) => Steps<T>): SteppedPerBase<T> {
  interface Entry {
    done: boolean;
    value?: T;
    steps?: Steps<T>;
  }
  const entriesOf = derive(() => new Map<string, Entry>());
  const entryOf = (snapshot: Snapshot, baseUrl: string): Entry => {
    const byBase = entriesOf(snapshot);
    let entry = byBase.get(baseUrl);
    if (!entry) byBase.set(baseUrl, (entry = { done: false }));
    return entry;
  };
  const step = (entry: Entry, snapshot: Snapshot, baseUrl: string): boolean => {
    entry.steps ??= build(snapshot, baseUrl);
    let next: IteratorResult<void, T>;
    try {
      next = entry.steps.next();
    } catch (err) {
      // A build that failed is dropped: the next read starts it again (and fails again, visibly, if it must).
      entry.steps = undefined;
      throw err;
    }
    if (!next.done) return false;
    entry.done = true;
    entry.value = next.value;
    entry.steps = undefined;
    return true;
  };
  const get = (snapshot: Snapshot, baseUrl: string): T => {
    const entry = entryOf(snapshot, baseUrl);
    while (!entry.done) step(entry, snapshot, baseUrl);
    return entry.value as T;
  };
  get.warm = function* (snapshot: Snapshot, baseUrl: string): Steps<T> {
    const entry = entryOf(snapshot, baseUrl);
    while (!entry.done && !step(entry, snapshot, baseUrl)) yield;
    return entry.value as T;
  };
  return get;
}
