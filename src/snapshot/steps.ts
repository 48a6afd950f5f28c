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

/** Yields after every `every` items of `items` (and passes each item to `visit`). */
export function* inChunks<T>(items: Iterable<T>, every: number, visit: (item: T) => void): Steps<void> {
  let n = 0;
  for (const item of items) {
    visit(item);
    if (++n % every === 0) yield;
  }
}
