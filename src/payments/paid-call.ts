import { z } from 'zod';
import { IDEMPOTENCY_KEY_RULE, ServiceError } from '../domain/errors.js';
import { siteUrls } from '../domain/urls.js';

/**
 * The paid-call policy every paid surface applies alike (POST /api/agent/deep-signal, the get_deep_signal tool over
 * /api/agent/call and MCP, A2A's `deep: true`): one Idempotency-Key rule, and errors that say where to go next. A
 * 401 or 402 of a paid call carries `purchaseUrl` (a credit pack), `x402Url` (pay per call, no key) and, when it is
 * known, the key's `balance`.
 */

/** Visible ASCII, 1–255 characters: what Stripe accepts as an Idempotency-Key. */
const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** The Idempotency-Key as a schema (a request header, a tool call's `_meta`). */
export const IdempotencyKey = z.string().regex(IDEMPOTENCY_KEY_PATTERN, IDEMPOTENCY_KEY_RULE);

/** The key, absent when not sent, or a 400 saying what is wrong with it (`where` names it as the caller sent it). */
export function idempotencyKeyOf(value: unknown, where = 'Idempotency-Key'): string | undefined {
  if (value === undefined) return undefined;
  const parsed = IdempotencyKey.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new ServiceError('idempotency-key-invalid', { where });
}

/** Where a caller without a key or without credit goes next. */
function purchaseHelp(baseUrl: string, balance: number | undefined): Record<string, unknown> {
  const urls = siteUrls(baseUrl);
  return {
    purchaseUrl: urls.api('/agents/credits'),
    x402Url: urls.api('/api/agent/deep-signal/x402'),
    ...(balance !== undefined ? { balance } : {}),
  };
}

/** A paid call's error as every surface answers it: a 401 or 402 with the purchase help among its extensions. */
export function withPurchaseHelp(error: ServiceError, baseUrl: string, balance?: number): ServiceError {
  if (error.status !== 401 && error.status !== 402) return error;
  return error.withExtensions(purchaseHelp(baseUrl, balance));
}
