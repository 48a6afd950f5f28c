import type { RateLimitClass } from '../../../config.js';
import { errorResponses } from '../../openapi.js';
import { BURST_WINDOW_SECONDS } from './budgets.js';
import type { RateLimitConfig } from './types.js';

/** The operation's `x-rate-limit`: its class, and for a limited class its budget and what it is counted by. */
function describe(cls: RateLimitClass, config: RateLimitConfig): Record<string, unknown> {
  if (cls === 'unlimited' || !config.rateLimiting.enabled) return { class: cls, limited: false };
  const { perMinute, burst } = config.rateLimits[cls];
  return {
    class: cls,
    limited: true,
    perMinute,
    burst,
    burstWindowSeconds: BURST_WINDOW_SECONDS,
    key:
      cls === 'paid'
        ? 'SHA-256 of a valid credit-pack key (client address without one, or for a key that is unknown or revoked)'
        : 'client address',
  };
}

/** Documents a route's class in its OpenAPI operation: `x-rate-limit`, and the 429 response of a limited route. */
export function documentRateLimit(
  schema: Record<string, unknown> | undefined,
  cls: RateLimitClass,
  config: RateLimitConfig,
): void {
  if (!schema || schema.hide) return;
  schema['x-rate-limit'] = describe(cls, config);
  if (cls === 'unlimited' || !config.rateLimiting.enabled) return;
  const response = (schema.response ?? {}) as Record<string, unknown>;
  if (!response['429']) {
    response['429'] = errorResponses(429)['429'];
    schema.response = response;
  }
}
