import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Work done in steps: a generator that yields between chunks of work and returns its result. The per-period indexes
 * are built this way, so that a warm-up or a period swap running in the background hands the event loop back to
 * requests between chunks instead of holding it for the whole build (half a second and more at 10,000 startups).
 */
export type Steps<T> = Generator<void, T, void>;

/** Runs every remaining step at once and returns the result. */
export function drain<T>(steps: Steps<T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/**
 * Runs the steps to the end, one step per turn of the event loop (the next step waits for `setImmediate`), so the
 * requests and I/O that arrive meanwhile are served between steps.
 */
export async function inTurns<T>(steps: Steps<T>): Promise<T> {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
    await nextTurn();
  }
}

/** Yields after every `every` items of `items` (and passes each item to `visit`). */
export function* inChunks<T>(items: Iterable<T>, every: number, visit: (item: T) => void): Steps<void> {
  let n = 0;
  for (const item of items) {
    visit(item);
    if (++n % every === 0) yield;
  }
}

/**
 * One build in steps, shared by everyone who needs its result: `get` finishes whatever steps remain at once (a
 * request that needs the value before the background warm-up got to it), `warm` hands the remaining steps out one
 * at a time (the warm-up). Both drive the same generator, so no step runs twice. A build that throws is dropped: the
 * next read starts it again (and fails again, visibly, if it must).
 */
export class SteppedBuild<T> {
  private done = false;
  private value: T | undefined;
  private steps: Steps<T> | undefined;

  constructor(private readonly start: () => Steps<T>) {}

  get(): T {
    while (!this.done) this.step();
    return this.value as T;
  }

  *warm(): Steps<T> {
    while (!this.done && !this.step()) yield;
    return this.value as T;
  }

  /** Runs one step; true once the value is there. */
  private step(): boolean {
    this.steps ??= this.start();
    let next: IteratorResult<void, T>;
    try {
      next = this.steps.next();
    } catch (err) {
      this.steps = undefined;
      throw err;
    }
    if (!next.done) return false;
    this.done = true;
    this.value = next.value;
    this.steps = undefined;
    return true;
  }
}

/**
 * Sorts `items` (a new array; stable, like Array.prototype.sort) in steps of about `chunk` items: runs of `chunk`
 * items are sorted one per step, then merged pairwise, yielding every `chunk` items merged. A sort of a few hundred
 * thousand documents by a collator is over a second of work, which a background warm-up must not do in one turn.
 * Hand-written: the sorts of the standard library and of npm packages run to the end in one call.
 */
export function* sortInSteps<T>(items: readonly T[], compare: (a: T, b: T) => number, chunk = 4096): Steps<T[]> {
  let runs: T[][] = [];
  for (let i = 0; i < items.length; i += chunk) {
    runs.push(items.slice(i, i + chunk).sort(compare));
    if (i + chunk < items.length) yield;
  }
  while (runs.length > 1) {
    const merged: T[][] = [];
    for (let r = 0; r < runs.length; r += 2) {
      const a = runs[r]!;
      const b = runs[r + 1];
      if (b === undefined) {
        merged.push(a);
        continue;
      }
      const out: T[] = [];
      let i = 0;
      let j = 0;
      while (i < a.length && j < b.length) {
        // Equal items keep their order: the one from the earlier run first.
        out.push(compare(b[j]!, a[i]!) < 0 ? b[j++]! : a[i++]!);
        if (out.length % chunk === 0) yield;
      }
      while (i < a.length) out.push(a[i++]!);
      while (j < b.length) out.push(b[j++]!);
      merged.push(out);
      yield;
    }
    runs = merged;
  }
  return runs[0] ?? [];
}
