import type { X402Config } from '../../config.js';
import { rpcAuthorizationChain, type AuthorizationChain } from './chain.js';
import { httpFacilitator, type Facilitator } from './facilitator.js';

/**
 * The x402 clients of a serving process, built once by the composition root and shared by every surface that sells
 * per call (REST, MCP) and by the reconciler: the facilitator that verifies and settles payments, and the token
 * contract read to learn what became of a settlement whose answer was lost.
 */
export interface X402Clients {
  facilitator: Facilitator;
  chain: AuthorizationChain;
}

export function x402Clients(x402: Pick<X402Config, 'facilitatorUrl' | 'facilitatorHeaders' | 'rpcUrl'>): X402Clients {
  return {
    facilitator: httpFacilitator({ url: x402.facilitatorUrl, headers: x402.facilitatorHeaders }),
    chain: rpcAuthorizationChain(x402.rpcUrl),
  };
}
