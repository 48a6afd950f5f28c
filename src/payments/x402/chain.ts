import { createPublicClient, http, parseAbi, parseAbiItem, type Address, type Hex, type PublicClient } from 'viem';

/**
 * What the token contract says about an EIP-3009 authorization, read over Ethereum JSON-RPC: whether its nonce has
 * been used (`authorizationState(authorizer, nonce)`, true once `transferWithAuthorization` ran — whoever submitted
 * it), and the transaction that used it (the `AuthorizationUsed(authorizer, nonce)` event). This is the ground truth
 * a settlement whose answer we never saw is reconciled against: the facilitator's word is not needed.
 */
export interface AuthorizationChain {
  /** True when the nonce is used (the transfer happened), false when it is still unused. Throws when unreachable. */
  authorizationUsed(asset: string, payer: string, nonce: string): Promise<boolean>;
  /** The hash of the transaction that used the nonce, searched in the last `lookbackBlocks`; undefined if not found. */
  settlementTransaction(
    asset: string,
    payer: string,
    nonce: string,
    lookbackBlocks: number,
  ): Promise<string | undefined>;
}

const ABI = parseAbi(['function authorizationState(address authorizer, bytes32 nonce) view returns (bool)']);
const AUTHORIZATION_USED = parseAbiItem('event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)');

export class ChainUnavailable extends Error {
  constructor(reason: string) {
    super(`token contract not reachable: ${reason}`);
    this.name = 'ChainUnavailable';
  }
}

export function rpcAuthorizationChain(rpcUrl: string, timeoutMs = 10_000): AuthorizationChain {
  const client: PublicClient = createPublicClient({ transport: http(rpcUrl, { timeout: timeoutMs, retryCount: 1 }) });
  return {
    async authorizationUsed(asset, payer, nonce) {
      try {
        return await client.readContract({
          address: asset as Address,
          abi: ABI,
          functionName: 'authorizationState',
          args: [payer as Address, nonce as Hex],
        });
      } catch (err) {
        throw new ChainUnavailable((err as Error).name);
      }
    },
    async settlementTransaction(asset, payer, nonce, lookbackBlocks) {
      try {
        const latest = await client.getBlockNumber();
        const logs = await client.getLogs({
          address: asset as Address,
          event: AUTHORIZATION_USED,
          args: { authorizer: payer as Address, nonce: nonce as Hex },
          fromBlock: latest > BigInt(lookbackBlocks) ? latest - BigInt(lookbackBlocks) : 0n,
          toBlock: latest,
        });
        return logs[0]?.transactionHash ?? undefined;
      } catch {
        return undefined;
      }
    },
  };
}
