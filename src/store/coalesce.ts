/**
 * Group commit for small statements: calls that arrive while earlier ones are running wait and then go to the
 * database together, as one statement. At low load a call runs at once (nothing to wait for, no timer); under load
 * the batches grow by themselves, so the database sees one statement and one commit per batch instead of one per
 * call. `run` receives the queued items in arrival order and must return one result per item, in the same order.
 *
 * A failed batch fails every call in it (the statement is atomic: none of them took effect).
 */
export class Coalescer<I, O> {
  private queue: { item: I; resolve: (value: O) => void; reject: (error: unknown) => void }[] = [];
  private running = 0;

  constructor(
    private readonly run: (items: I[]) => Promise<O[]>,
    private readonly options: { maxInFlight: number; maxBatch: number },
  ) {}

  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.running < this.options.maxInFlight && this.queue.length > 0) {
      const batch = this.queue.splice(0, this.options.maxBatch);
      this.running++;
      this.run(batch.map((b) => b.item))
        .then(
          (results) => {
            if (results.length !== batch.length) {
              throw new Error(`batch of ${batch.length} answered ${results.length} results`);
            }
            batch.forEach((b, i) => b.resolve(results[i]!));
          },
          (error: unknown) => batch.forEach((b) => b.reject(error)),
        )
        .catch((error: unknown) => batch.forEach((b) => b.reject(error)))
        .finally(() => {
          this.running--;
          this.pump();
        });
    }
  }
}

/**
 * Group commit on a database handle: at most 4 statements in flight, up to 256 calls in each (a handle's pool has
 * more connections than that, so other queries are never starved).
 */
export const GROUP_COMMIT = { maxInFlight: 4, maxBatch: 256 };

/** One coalescer per owner (a database handle), made on first use, running `run(owner, items)`. */
export function coalescerPer<K extends object, I, O>(
  run: (owner: K, items: I[]) => Promise<O[]>,
  options = GROUP_COMMIT,
): (owner: K) => Coalescer<I, O> {
  const made = new WeakMap<K, Coalescer<I, O>>();
  return (owner) => {
    let coalescer = made.get(owner);
    if (!coalescer) made.set(owner, (coalescer = new Coalescer((items: I[]) => run(owner, items), options)));
    return coalescer;
  };
}
