import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { RateLimiterMemory, RateLimiterRedis, type IRateLimiterOptions } from 'rate-limiter-flexible';
import { countRateLimitFallback } from '../../../metrics.js';
import type { Consumer } from './types.js';
import { RedisBreaker } from './redis-breaker.js';
import { ReservingLimiter, reservationChunk } from './reserving-limiter.js';

/** Where the counters live: this instance's memory, or Redis when it is given. */
export interface BudgetStore {
  redis?: Redis;
  prefix: string;
  log?: Logger;
  /** How often an open Redis breaker checks whether Redis answers again (ms). */
  probeMs?: number;
}

/** The memory limiter used when Redis does not answer: tells `onUse` each time it decides. */
class FallbackMemoryLimiter extends RateLimiterMemory {
  constructor(
    options: IRateLimiterOptions,
    private readonly onUse: () => void,
  ) {
    super(options);
  }
  override consume(key: string | number, points?: number, options?: { [key: string]: unknown }) {
    this.onUse();
    return super.consume(key, points, options);
  }
}

/** A window's limiter: `points` per `duration` seconds under `keyPrefix`. */
export type LimiterFactory = (keyPrefix: string, points: number, duration: number) => Consumer;

/**
 * Builds the window limiters of one store. In memory: rate-limiter-flexible's memory limiter. With Redis: its Redis
 * limiter, taking points in reservations (ReservingLimiter), with a memory limiter as its insurance when Redis fails
 * (logged at most once a minute, counted in metrics) and a breaker that keeps decisions in memory, without asking
 * Redis, until Redis answers again.
 */
export function limiterFactory(store: BudgetStore): LimiterFactory {
  const { redis } = store;
  if (!redis) {
    return (keyPrefix, points, duration) =>
      new RateLimiterMemory({ keyPrefix: `${store.prefix}:${keyPrefix}`, points, duration });
  }
  let lastWarning = 0;
  const breaker = new RedisBreaker(redis, store.probeMs, store.log);
  const onFallback = () => {
    breaker.trip();
    countRateLimitFallback();
    const now = Date.now();
    if (now - lastWarning > 60_000) {
      lastWarning = now;
      store.log?.warn("redis is not answering: rate limits fall back to this instance's memory until it does");
    }
  };
  return (keyPrefix, points, duration) => {
    const options = { keyPrefix: `${store.prefix}:${keyPrefix}`, points, duration };
    const memory = new FallbackMemoryLimiter(options, onFallback);
    const shared = new RateLimiterRedis({
      ...options,
      storeClient: redis,
      rejectIfRedisNotReady: true,
      insuranceLimiter: memory,
    });
    const reserving = new ReservingLimiter(shared, reservationChunk(points));
    return { consume: (key) => (breaker.open ? memory.consume(key) : reserving.consume(key)) };
  };
}
