import type { RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimitingConfig, RateLimitsConfig } from '../../../config.js';

/** What the limiter is configured by: the on/off switch and the budget of each class. */
export type RateLimitConfig = { rateLimiting: Pick<RateLimitingConfig, 'enabled'>; rateLimits: RateLimitsConfig };

/** A budget's answer to one request. */
export interface Decision {
  allowed: boolean;
  /** Value of the RateLimit header (draft-ietf-httpapi-ratelimit-headers). */
  state: string;
  /** Whole seconds before a retry can succeed (refused requests). */
  retryAfter: number;
}

/** What a limiter grants: rate-limiter-flexible's answer, of which the budgets read two fields. */
export type Granted = Pick<RateLimiterRes, 'remainingPoints' | 'msBeforeNext'>;

/** What a budget needs of one window's limiter: rate-limiter-flexible's consume, refusing with a RateLimiterRes. */
export interface Consumer {
  consume(key: string, points?: number, options?: Record<string, unknown>): Promise<Granted>;
}
