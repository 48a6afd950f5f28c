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

  constructor(initial?: Snapshot) {
    this.snapshot = initial;
  }

  get current(): Snapshot | undefined {
    return this.snapshot;
  }

  /** Called after every swap (and at once when a snapshot is already there): rebuild derived indexes here. */
  onSwap(listener: SnapshotListener): void {
    this.listeners.push(listener);
    if (this.snapshot) listener(this.snapshot);
  }

  swap(next: Snapshot): void {
    this.snapshot = next;
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
