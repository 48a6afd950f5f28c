import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import { bearerToken } from '../../../payments/authenticate.js';
import { seconds, withReset } from './headers.js';
import type { Decision } from './types.js';

/**
 * Paid routes: the credit-pack key's digest (never the key itself) once the key is known to open an account, or the
 * client address otherwise (no key, a malformed one, or one that is unknown or revoked). A made-up key therefore
 * spends its sender's address budget and creates no state of its own. The key is read by the one Bearer rule
 * (src/payments/authenticate.ts), so what counts as a key here is what authenticates. Other classes count by the
 * client address (`request.ip`, as the trusted-proxy rule gives it).
 */
export function paidKey(request: FastifyRequest, keyIsValid: boolean): string {
  const token = keyIsValid ? bearerToken(request.headers.authorization) : undefined;
  return token !== undefined ? `k:${createHash('sha256').update(token).digest('hex')}` : `ip:${request.ip}`;
}

/**
 * Addresses whose paid budget refused them, until the refusal's Retry-After (this instance's memory, bounded): a
 * further key from such an address is refused without being looked up, so made-up keys cost the database nothing
 * once the address has spent its budget on them.
 */
export class RefusedAddresses {
  private readonly refusals: LRUCache<string, Decision>;

  constructor(max = 100_000) {
    this.refusals = new LRUCache({ max });
  }

  /** The refusal still standing for this address, its Retry-After counted down to now. */
  get(address: string): Decision | undefined {
    const decision = this.refusals.get(address);
    if (!decision) return undefined;
    const retryAfter = seconds(this.refusals.getRemainingTTL(address));
    return { ...decision, retryAfter, state: withReset(decision.state, retryAfter) };
  }

  set(address: string, decision: Decision): void {
    this.refusals.set(address, decision, { ttl: decision.retryAfter * 1000 });
  }
}
