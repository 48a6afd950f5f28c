import { createSolanaRpc, signature as toSignature } from '@solana/kit';
import type { ParsedTransaction } from './transfer.js';

/** The Solana RPC could not answer (down, timed out, or an error answer): the route says 503 with Retry-After. */
export class SolanaRpcUnavailable extends Error {
  constructor(reason: string) {
    super(`Solana RPC: ${reason}`);
    this.name = 'SolanaRpcUnavailable';
  }
}

export type TransactionFetcher = (signature: string) => Promise<ParsedTransaction | null>;

/**
 * `getTransaction` through @solana/kit: jsonParsed (so token balances and memos come decoded), version-0
 * transactions included (without maxSupportedTransactionVersion the node refuses them), at a named commitment.
 */
export function rpcTransactionFetcher(options: {
  rpcUrl: string;
  commitment: 'confirmed' | 'finalized';
  timeoutMs?: number;
}): TransactionFetcher {
  const rpc = createSolanaRpc(options.rpcUrl);
  return async (signature) => {
    try {
      const tx = await rpc
        .getTransaction(toSignature(signature), {
          encoding: 'jsonParsed',
          maxSupportedTransactionVersion: 0,
          commitment: options.commitment,
        })
        .send({ abortSignal: AbortSignal.timeout(options.timeoutMs ?? 10_000) });
      return tx as unknown as ParsedTransaction | null;
    } catch (err) {
      throw new SolanaRpcUnavailable((err as Error).name === 'TimeoutError' ? 'timed out' : 'request failed');
    }
  };
}
