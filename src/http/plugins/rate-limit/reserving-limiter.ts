import { LRUCache } from 'lru-cache';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Consumer, Granted } from './types.js';

/** Reservations of at least this many points are renewed ahead of time (budgets far above the spec's defaults). */
const PREFETCH_FROM_CHUNK = 20;

/** Keys holding a reservation at once, at most (an evicted reservation's points are simply not used). */
const MAX_HELD_KEYS = 100_000;

/** Reservation size for a shared budget of `points`. */
export const reservationChunk = (points: number) => Math.max(1, Math.min(100, Math.floor(points / 10)));

interface Held {
  /** Points of the reservation not yet handed out. */
  left: number;
  expiresAt: number;
  /** What the shared window had left after the reservation was taken. */
  shared: number;
  /** The window refused a whole reservation: take single points until it ends. */
  single: boolean;
}

interface Waiter {
  resolve: (granted: Granted) => void;
  reject: (error: unknown) => void;
}

/**
 * A shared (Redis) limiter that takes its points in small reservations: one round trip reserves `chunk` points of
 * the shared window, and the next requests of that key are decided locally from the reservation until it is spent
 * or the window ends. Requests that arrive while a reservation is on its way wait for it instead of sending their
 * own (one round trip per key at a time, however many requests queue); with large budgets (chunks of
 * PREFETCH_FROM_CHUNK points or more) the next chunk is reserved while half of the current one is left, so busy
 * clients rarely wait at all. The shared budget is never exceeded; an instance may hold up to `chunk − 1` points
 * (`2·chunk − 1` with prefetching) another instance could have used (chunk is a tenth of the budget, at most 100:
 * 6 of 60, 3 of 30, 1 of 10, i.e. exact). When a reservation is refused it is given back and, until the window
 * ends, points are taken one at a time, so the budget is spent to the end.
 */
export class ReservingLimiter implements Consumer {
  private readonly held = new LRUCache<string, Held>({ max: MAX_HELD_KEYS });
  private readonly pending = new Set<string>();
  /** Requests waiting for a reservation of their key, in arrival order. */
  private readonly waiting = new Map<string, Waiter[]>();

  constructor(
    private readonly inner: RateLimiterAbstract,
    readonly chunk: number,
  ) {}

  consume(key: string): Promise<Granted> {
    if (this.chunk <= 1) return this.inner.consume(key);
    const now = Date.now();
    const h = this.held.get(key);
    if (h && h.expiresAt > now && !this.waiting.has(key)) {
      if (h.left > 0) return Promise.resolve(this.take(key, h, now));
      // The window's budget ran short of a whole reservation: one point at a time until it ends.
      if (h.single) return this.inner.consume(key);
    }
    return new Promise<Granted>((resolve, reject) => {
      const queue = this.waiting.get(key);
      if (queue) queue.push({ resolve, reject });
      else this.waiting.set(key, [{ resolve, reject }]);
      if (!this.pending.has(key)) this.reserve(key);
    });
  }

  /** Keeps a reservation until its window ends. */
  private hold(key: string, h: Held): Held {
    this.held.set(key, h, { ttl: Math.max(1, h.expiresAt - Date.now()) });
    return h;
  }

  /** Hands out one held point; large budgets reserve the next chunk while half of this one is left. */
  private take(key: string, h: Held, now: number): Granted {
    h.left--;
    if (this.chunk >= PREFETCH_FROM_CHUNK && !h.single && h.left * 2 < this.chunk && !this.pending.has(key)) {
      this.reserve(key);
    }
    return { remainingPoints: h.shared + h.left, msBeforeNext: h.expiresAt - now };
  }

  /** Takes `chunk` points of the shared window (one round trip), adds them to what is held, serves the waiters. */
  private reserve(key: string): void {
    const now = Date.now();
    this.pending.add(key);
    this.inner
      .consume(key, this.chunk)
      .then(
        (res) => {
          const h = this.held.get(key);
          const expiresAt = now + res.msBeforeNext;
          if (h && h.expiresAt > Date.now() && !h.single) {
            h.left += this.chunk;
            h.shared = res.remainingPoints;
            h.expiresAt = expiresAt;
            return this.hold(key, h);
          }
          return this.hold(key, { left: this.chunk, expiresAt, shared: res.remainingPoints, single: false });
        },
        async (refusal: unknown) => {
          if (!(refusal instanceof RateLimiterRes)) throw refusal;
          await this.inner.reward(key, this.chunk);
          const h = this.held.get(key);
          if (h && h.expiresAt > Date.now()) {
            h.single = true;
            return h;
          }
          return this.hold(key, { left: 0, expiresAt: now + refusal.msBeforeNext, shared: 0, single: true });
        },
      )
      .then(
        (h) => {
          this.pending.delete(key);
          this.serveWaiting(key, h);
        },
        (error: unknown) => {
          // The shared store failed outright: every waiting request gets the error (the hook lets them through).
          this.pending.delete(key);
          const queue = this.waiting.get(key) ?? [];
          this.waiting.delete(key);
          for (const w of queue) w.reject(error);
        },
      );
  }

  private serveWaiting(key: string, h: Held): void {
    const queue = this.waiting.get(key);
    if (!queue) return;
    const now = Date.now();
    const served = Math.min(h.left, queue.length);
    for (let i = 0; i < served; i++) queue[i]!.resolve(this.take(key, h, now));
    if (served === queue.length) {
      this.waiting.delete(key);
      return;
    }
    const rest = queue.slice(served);
    if (h.single) {
      // Not a whole reservation left in the window: the rest ask for single points.
      this.waiting.delete(key);
      for (const w of rest) this.inner.consume(key).then(w.resolve, w.reject);
      return;
    }
    this.waiting.set(key, rest);
    if (!this.pending.has(key)) this.reserve(key);
  }
}
