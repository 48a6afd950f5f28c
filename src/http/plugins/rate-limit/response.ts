import { HttpProblem, statusTitle } from '../../problem.js';
import type { ClassBudget } from './budgets.js';
import type { Decision } from './types.js';

/** The headers of a decision (draft-ietf-httpapi-ratelimit-headers), on every response of a limited route. */
export function rateLimitHeaders(budget: ClassBudget, decision: Decision): Record<string, string> {
  return { 'ratelimit-policy': budget.policy, ratelimit: decision.state };
}

/** The 429 problem of a refusal, with its Retry-After. */
export function tooManyRequests(decision: Decision, budget: ClassBudget): HttpProblem {
  return new HttpProblem(
    429,
    statusTitle(429),
    `Rate limit exceeded for this client (${budget.name} routes). Retry after ${decision.retryAfter} s, or use the feed or a local copy of the dataset for heavy use.`,
    {},
    { 'retry-after': String(decision.retryAfter) },
  );
}
