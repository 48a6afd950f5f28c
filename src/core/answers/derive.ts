import { derive, type Snapshot } from '../../snapshot/snapshot.js';
import { SteppedBuild, type Steps } from '../../snapshot/steps.js';

/**
 * Memoises a value computed from a snapshot and a base URL: built once per snapshot (so once per period, rebuilt
 * when a new period is swapped in) and dropped with it (kept in the snapshot's `derived` map). `derive` from
 * snapshot.ts, for values that also depend on the configured base URL.
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
  // One build per snapshot and base URL, memoised like any per-base value.
  const buildOf = derivePerBase((snapshot, baseUrl) => new SteppedBuild(() => build(snapshot, baseUrl)));
  const get = (snapshot: Snapshot, baseUrl: string): T => buildOf(snapshot, baseUrl).get();
  get.warm = (snapshot: Snapshot, baseUrl: string): Steps<T> => buildOf(snapshot, baseUrl).warm();
  return get;
}
