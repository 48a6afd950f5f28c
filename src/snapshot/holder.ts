import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import { listPeriods } from '../store/periods.js';
import { periodInfo, loadSnapshot } from './load.js';
import { periodsFingerprint, type Snapshot } from './snapshot.js';

export type SnapshotListener = (snapshot: Snapshot) => void;

/**
 * Holds the current snapshot and swaps in a new one when the stored periods change. The swap is one reference
 * assignment: a request that started on the old snapshot finishes on it, the next one sees the new.
 */
export class SnapshotHolder {
  private snapshot: Snapshot | undefined;
  private readonly listeners: SnapshotListener[] = [];
  private deferred: SnapshotListener[] | undefined;

  constructor(initial?: Snapshot) {
    this.snapshot = initial;
  }

  get current(): Snapshot | undefined {
    return this.snapshot;
  }

  /** Called after every swap (and at once when a snapshot is already there): rebuild derived indexes here. */
  onSwap(listener: SnapshotListener): void {
    this.listeners.push(listener);
    if (!this.snapshot) return;
    if (this.deferred) this.deferred.push(listener);
    else listener(this.snapshot);
  }

  /**
   * From now until `warmUp()`, listeners registered while a snapshot is already there do not run at once: the server
   * starts answering the hot reads first, and the per-period indexes those listeners build follow right after.
   */
  deferWarmUp(): void {
    this.deferred ??= [];
  }

  /**
   * Runs the deferred listeners for the current snapshot, one per event-loop turn so requests are answered in
   * between. A request that needs an index before its turn builds it itself (indexes are memoised per snapshot).
   */
  warmUp(report: (err: unknown) => void): void {
    const pending = this.deferred ?? [];
    this.deferred = undefined;
    const snapshot = this.snapshot;
    const next = () => {
      const listener = pending.shift();
      if (!listener || this.snapshot !== snapshot || !snapshot) return;
      try {
        listener(snapshot);
      } catch (err) {
        report(err);
      }
      setImmediate(next);
    };
    setImmediate(next);
  }

  swap(next: Snapshot): void {
    this.snapshot = next;
    if (this.deferred) this.deferred = [];
    for (const listener of this.listeners) listener(next);
  }
}

export interface PollerOptions {
  db: Kysely<Database>;
  baseUrl: string;
  holder: SnapshotHolder;
  intervalMs: number;
  onError: (err: unknown) => void;
  onSwap?: (snapshot: Snapshot) => void;
}

/** Checks the stored periods' fingerprint every interval and reloads when it changed. Returns a stop function. */
export function startPeriodPoller(options: PollerOptions): () => void {
  let running = false;
  let stopped = false;
  const tick = async () => {
    if (running || stopped) return;
    running = true;
    try {
      const fingerprint = periodsFingerprint((await listPeriods(options.db)).map(periodInfo));
      if (fingerprint !== options.holder.current?.fingerprint) {
        const next = await loadSnapshot(options.db, options.baseUrl);
        if (next && !stopped) {
          options.holder.swap(next);
          options.onSwap?.(next);
        }
      }
    } catch (err) {
      options.onError(err);
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void tick(), options.intervalMs);
  timer.unref();
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
