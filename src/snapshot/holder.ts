import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import { ServiceError } from '../domain/errors.js';
import type { Database } from '../store/schema.js';
import { listPeriods } from '../store/periods.js';
import { periodInfo, loadSnapshot } from './load.js';
import { periodsFingerprint, type Snapshot } from './snapshot.js';

/**
 * Called with each new snapshot. It may return steps (an iterator, see steps.ts): the holder then runs them in the
 * background, one per event-loop turn. Or a promise (work that waits on the store): the holder does not wait for
 * it, but `settled()` does, and its failure is reported like a failed step.
 */
export type SnapshotListener = (snapshot: Snapshot) => void | Iterator<unknown> | PromiseLike<unknown>;

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | undefined)?.then === 'function';
}

/**
 * Holds the current snapshot and swaps in a new one when the stored periods change. The swap is one reference
 * assignment: a request that started on the old snapshot finishes on it, the next one sees the new.
 */
export class SnapshotHolder {
  private snapshot: Snapshot | undefined;
  private readonly listeners: SnapshotListener[] = [];
  private deferred: SnapshotListener[] | undefined;
  private readonly names = new Map<SnapshotListener, string>();
  /** Listeners whose work is done for a new period before it is swapped in (see `advance`). */
  private readonly ahead = new Set<SnapshotListener>();

  constructor(initial?: Snapshot) {
    this.snapshot = initial;
  }

  get current(): Snapshot | undefined {
    return this.snapshot;
  }

  /** The current snapshot, for a request that needs one: while no period is published yet, a 503 'unavailable'. */
  published(): Snapshot {
    if (this.snapshot) return this.snapshot;
    throw new ServiceError('no-period-published', {}, { retryAfterSeconds: 30 });
  }

  /**
   * Called after every swap (and at once when a snapshot is already there): rebuild derived indexes here. `name`
   * names the work in the warm-up's debug lines. `ahead`: when a new period comes through `advance`, this listener's
   * steps run for it before it is swapped in (for work in steps that a request would otherwise finish itself).
   * `first`: runs before the listeners registered earlier, at a swap and ahead of one (for background work whose
   * result is wanted soonest: the new period's most read bodies are compressed while its indexes are built).
   */
  onSwap(listener: SnapshotListener, name?: string, options: { ahead?: boolean; first?: boolean } = {}): void {
    const add = (list: SnapshotListener[]) => (options.first ? list.unshift(listener) : list.push(listener));
    add(this.listeners);
    if (name) this.names.set(listener, name);
    if (options.ahead) this.ahead.add(listener);
    if (!this.snapshot) return;
    if (this.deferred) add(this.deferred);
    else {
      const steps = this.started(listener(this.snapshot));
      if (steps) this.runInSteps([() => steps], this.snapshot);
    }
  }

  /**
   * From now until `warmUp()`, listeners registered while a snapshot is already there do not run at once: the server
   * starts answering the hot reads first, and the per-period indexes those listeners build follow right after.
   */
  deferWarmUp(): void {
    this.deferred ??= [];
  }

  /**
   * Runs the deferred listeners for the current snapshot in the background, one step per event-loop turn so requests
   * are answered in between: a listener that returns steps (an index built in steps, see steps.ts) gets one turn per
   * step. A request that needs an index before its turn builds it itself (indexes are memoised per snapshot).
   * `measured` hears each listener's wall and CPU time and its longest step (what a request could have waited).
   */
  warmUp(report: (err: unknown) => void, measured?: WarmUpMeasure): void {
    const pending = this.deferred ?? [];
    this.deferred = undefined;
    this.report = report;
    if (this.snapshot) this.runInSteps(pending, this.snapshot, measured);
  }

  /**
   * The first snapshot, given after the listeners registered (the server is built while the store opens, before the
   * period is loaded). While the warm-up is deferred, every listener runs in it; otherwise this is a swap.
   */
  provide(first: Snapshot): void {
    if (!this.deferred) return this.swap(first);
    this.snapshot = first;
    this.deferred = [...this.listeners];
  }

  /**
   * Swaps in a new period's snapshot. Each listener's first call runs now (an error in it is the caller's); the
   * steps it returns run in the background, as in the warm-up.
   */
  swap(next: Snapshot): void {
    this.snapshot = next;
    if (this.deferred) this.deferred = [];
    // Counted as running from here, so that a listener that asks for settled() waits for the steps started below.
    const end = this.begin();
    try {
      const steps: Iterator<unknown>[] = [];
      for (const listener of this.listeners) {
        const returned = this.started(listener(next));
        if (returned) steps.push(returned);
      }
      if (steps.length > 0)
        this.runInSteps(
          steps.map((it) => () => it),
          next,
        );
    } finally {
      end();
    }
  }

  /**
   * Swaps in a new period once the `ahead` listeners' steps have run for it, one per event-loop turn, while the
   * current period keeps serving: a request after the swap finds the new period's indexes built, instead of building
   * the rest of one itself (at 100,000 startups the site search alone is seconds of work, which held every request).
   * A promise an ahead listener returns (the new period's bodies being compressed) is waited for too, once every
   * ahead listener's steps have run; a rejected one is reported and the swap goes on. Work that waits on the store is
   * not ahead, so it holds no swap back. A step that throws is reported and its listener left for the swap, where it
   * runs again. The other listeners run at the swap, as in `swap`. `cancelled` is asked between steps: once it says
   * so (the server is closing), nothing more runs and nothing is swapped in. Resolves true once `next` is served.
   */
  async advance(next: Snapshot, cancelled: () => boolean = () => false): Promise<boolean> {
    const end = this.begin();
    try {
      const promised: PromiseLike<unknown>[] = [];
      for (const listener of this.listeners) {
        if (!this.ahead.has(listener)) continue;
        try {
          const returned = listener(next);
          if (isThenable(returned)) promised.push(returned);
          const steps = this.started(returned);
          while (steps && !cancelled() && !steps.next().done) await nextTurn();
        } catch (err) {
          this.report(err);
        }
        if (cancelled()) return false;
      }
      // Reported by `started`; here only their end counts.
      await Promise.allSettled(promised);
      if (cancelled()) return false;
      this.swap(next);
      return true;
    } finally {
      end();
    }
  }

  private report: (err: unknown) => void = () => {};
  private running = 0;
  private waiting: (() => void)[] = [];

  /**
   * Resolves once no listener's work is under way in the background, neither steps nor promises: everything the
   * current period's warm-up builds is built.
   */
  settled(): Promise<void> {
    if (this.running === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private begin(): () => void {
    this.running++;
    return () => {
      if (--this.running > 0) return;
      for (const resolve of this.waiting.splice(0)) resolve();
    };
  }

  /** What a listener returned: its steps to run, if any; a promise is followed until it settles (see settled). */
  private started(returned: ReturnType<SnapshotListener>): Iterator<unknown> | undefined {
    if (!isThenable(returned)) return returned ?? undefined;
    const end = this.begin();
    returned.then(end, (err: unknown) => {
      this.report(err);
      end();
    });
    return undefined;
  }

  private runInSteps(pending: SnapshotListener[], snapshot: Snapshot, measured?: WarmUpMeasure): void {
    const stop = this.begin();
    let current: { name: string; steps?: Iterator<unknown>; started: number; cpu: NodeJS.CpuUsage; longest: number };
    const finish = () => {
      if (!measured) return;
      const used = process.cpuUsage(current.cpu);
      measured(
        current.name,
        Math.round(performance.now() - current.started),
        Math.round((used.user + used.system) / 1000),
        Math.round(current.longest),
      );
    };
    const next = () => {
      if (this.snapshot !== snapshot) return stop(); // a newer period took over; its own listeners run
      const turn = performance.now();
      try {
        if (current?.steps) {
          if (current.steps.next().done) {
            current.steps = undefined;
            current.longest = Math.max(current.longest, performance.now() - turn);
            finish();
          }
        } else {
          const listener = pending.shift();
          if (!listener) return stop();
          current = {
            name: this.names.get(listener) ?? (listener.name || 'index'),
            started: turn,
            cpu: process.cpuUsage(),
            longest: 0,
          };
          current.steps = this.started(listener(snapshot));
          if (!current.steps) {
            current.longest = performance.now() - turn;
            finish();
          }
        }
      } catch (err) {
        if (current) current.steps = undefined;
        this.report(err);
      }
      if (current) current.longest = Math.max(current.longest, performance.now() - turn);
      setImmediate(next);
    };
    setImmediate(next);
  }
}

/** What the warm-up reports per listener: wall and CPU time, and its longest step (all in ms). */
export type WarmUpMeasure = (name: string, ms: number, cpuMs: number, longestStepMs: number) => void;

export interface PollerOptions {
  db: Kysely<Database>;
  baseUrl: string;
  holder: SnapshotHolder;
  intervalMs: number;
  onError: (err: unknown) => void;
  onSwap?: (snapshot: Snapshot) => void;
}

/**
 * Checks the stored periods' fingerprint every interval; when it changed, loads the newest period and swaps it in
 * once its indexes are built (`advance`). Returns a stop function.
 */
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
        if (next && !stopped && (await options.holder.advance(next, () => stopped))) options.onSwap?.(next);
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
