import type { X402Config } from '../../config.js';
import { deepSignal } from '../../core/deep-signal/index.js';
import type { DeepSignal as DeepSignalBody, DeepSignalMiss } from '../../schemas/deep-signal.js';
import type { Snapshot } from '../../snapshot/snapshot.js';
import type { X402Clients } from './clients.js';
import type { PaidLookup, PayPerCallDeps } from './pay-per-call.js';
import { paymentRequirements, paymentRequirementsV2 } from './requirements.js';

/** Where the REST API sells Deep Signal per call with x402. */
export const X402_DEEP_SIGNAL_PATH = '/api/agent/deep-signal/x402';

/** Everything payPerCall needs to sell Deep Signal at one resource, but the database. */
export type DeepSignalSeller = Omit<PayPerCallDeps, 'db'>;

/**
 * Deep Signal's x402 offer at `resource` (the REST route's URL, or the MCP endpoint's), with the process's clients of
 * the facilitator and the token contract that verify and settle it: the same price, recipient and network wherever
 * it is sold. Undefined when the server has no x402 wallet (X402_PAY_TO unset), and so no clients.
 */
export function deepSignalSeller(
  x402: Pick<X402Config, 'payTo' | 'network'>,
  clients: X402Clients | undefined,
  resource: string,
  outputJsonSchema: Record<string, unknown>,
): DeepSignalSeller | undefined {
  if (!x402.payTo || !clients) return undefined;
  const requirements = paymentRequirements({ payTo: x402.payTo, network: x402.network, resource, outputJsonSchema });
  return { requirements, requirementsV2: paymentRequirementsV2(requirements), ...clients };
}

/** The paid work of every x402 surface: Deep Signal of the period served (a miss is never settled). */
export function deepSignalLookup(snapshot: Snapshot): PaidLookup<DeepSignalBody, DeepSignalMiss> {
  return async (name) => {
    const result = await deepSignal(snapshot, name);
    return result.found ? { found: true, startup: result.startup.login, body: result.body } : result;
  };
}
