import { ServiceError } from '../../../domain/errors.js';
import type { ClassBudget } from './budgets.js';
import type { Decision } from './types.js';

/** The headers of a decision (draft-ietf-httpapi-ratelimit-headers), on every response of a limited route. */
export function rateLimitHeaders(budget: ClassBudget, decision: Decision): Record<string, string> {
  return { 'ratelimit-policy': budget.policy, ratelimit: decision.state };
}

/** The 429 problem of a refusal, with its Retry-After. */
export function tooManyRequests(decision: Decision, budget: ClassBudget): ServiceError {
  return new ServiceError(
    'rate-limit-exceeded',
    { budget: budget.name, retryAfterSeconds: decision.retryAfter },
    { retryAfterSeconds: decision.retryAfter },
  );
}
