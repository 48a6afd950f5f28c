import {
  BurstyRateLimiter,
  RateLimiterRes,
  type IRateLimiterMongoFunctionOptions,
  type RateLimiterLike,
} from 'rate-limiter-flexible';
import type { LimitedClass, RateLimitsConfig } from '../../../config.js';
import { policyHeader, policyName, seconds, stateHeader } from './headers.js';
import { limiterFactory, type BudgetStore } from './limiters.js';
import type { Consumer, Decision, Granted } from './types.js';

/** Reserve refill window, seconds. */
export const BURST_WINDOW_SECONDS = 600;

/**
 * Where the reserve's own answer to one decision is written. BurstyRateLimiter answers with the steady limiter's
 * points only, and hands each call's options to both of its limiters: the reserve writes what it granted there, for
 * the RateLimit header.
 */
interface ReserveAnswer extends IRateLimiterMongoFunctionOptions {
  reserve?: Granted;
}

const recordingReserve = (reserve: Consumer): Consumer => ({
  consume: (key, _points, options) =>
    reserve.consume(key).then((granted) => {
      if (options) (options as Partial<ReserveAnswer>).reserve = granted;
      return granted;
    }),
});

/** BurstyRateLimiter calls nothing of its two limiters but consume. */
const asLimiter = (consumer: Consumer) => consumer as unknown as RateLimiterLike;

/**
 * One class's budget: `perMinute` requests in each fixed minute plus, when `burst` is larger, a reserve of
 * `burst − perMinute` that refills every BURST_WINDOW_SECONDS and is spent once the minute's budget is
 * (rate-limiter-flexible's BurstyRateLimiter).
 */
export class ClassBudget {
  readonly policy: string;
  private readonly steadyName: string;
  private readonly reserveName: string;
  /** The policy a refusal names: the reserve, the last budget spent, when there is one. */
  private readonly refusedBy: string;
  private readonly steady: Consumer;
  private readonly bursty: BurstyRateLimiter | undefined;

  constructor(
    readonly name: LimitedClass,
    steady: Consumer,
    reserve: Consumer | undefined,
    perMinute: number,
    burst: number,
  ) {
    this.steadyName = policyName(name, false);
    this.reserveName = policyName(name, true);
    this.policy = policyHeader(name, perMinute, reserve ? burst - perMinute : 0, BURST_WINDOW_SECONDS);
    this.steady = steady;
    this.bursty = reserve && new BurstyRateLimiter(asLimiter(steady), asLimiter(recordingReserve(reserve)));
    this.refusedBy = reserve ? this.reserveName : this.steadyName;
  }

  decide(key: string): Promise<Decision> {
    const answer: ReserveAnswer = { attrs: {} };
    const consumed = this.bursty ? this.bursty.consume(key, 1, answer) : this.steady.consume(key);
    return consumed.then(
      (granted) => {
        const from = answer.reserve;
        const state = from
          ? stateHeader(this.reserveName, from.remainingPoints, from.msBeforeNext)
          : stateHeader(this.steadyName, granted.remainingPoints, granted.msBeforeNext);
        return { allowed: true, state, retryAfter: 0 };
      },
      (refusal: unknown) => {
        if (!(refusal instanceof RateLimiterRes)) throw refusal;
        // BurstyRateLimiter's refusal waits for the first of the two budgets to come back.
        const retryAfter = seconds(refusal.msBeforeNext);
        return { allowed: false, state: `${this.refusedBy};r=0;t=${retryAfter}`, retryAfter };
      },
    );
  }
}

/** Builds the budgets of the limited classes from the configuration. */
export function createBudgets(rateLimits: RateLimitsConfig, store: BudgetStore): Record<LimitedClass, ClassBudget> {
  const limiter = limiterFactory(store);
  const budgets = {} as Record<LimitedClass, ClassBudget>;
  for (const name of Object.keys(rateLimits) as LimitedClass[]) {
    const { perMinute, burst } = rateLimits[name];
    const reserve = burst > perMinute ? limiter(`${name}:b`, burst - perMinute, BURST_WINDOW_SECONDS) : undefined;
    budgets[name] = new ClassBudget(name, limiter(`${name}:s`, perMinute, 60), reserve, perMinute, burst);
  }
  return budgets;
}
