import { getAddress, type Address } from 'viem';

export type X402Network = 'base' | 'base-sepolia';

export interface X402NetworkInfo {
  network: X402Network;
  /** The CAIP-2 id x402 v2 names the network by. */
  caip2: `eip155:${number}`;
  chainId: number;
  /** The network's USDC contract, checksummed (the reference client compares the checksummed string). */
  usdc: Address;
  /** The token's EIP-712 domain name and version: a signature made with another name does not verify. */
  eip712: { name: string; version: string };
  /** Where a settlement transaction can be looked up by hash. */
  explorerTx: (hash: string) => string;
}

/** Circle's USDC on Base and on Base Sepolia, with the EIP-712 domains their contracts declare. */
export const X402_NETWORKS: Record<X402Network, X402NetworkInfo> = {
  base: {
    network: 'base',
    caip2: 'eip155:8453',
    chainId: 8453,
    usdc: getAddress('0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'),
    eip712: { name: 'USD Coin', version: '2' },
    explorerTx: (hash) => `https://basescan.org/tx/${hash}`,
  },
  'base-sepolia': {
    network: 'base-sepolia',
    caip2: 'eip155:84532',
    chainId: 84532,
    usdc: getAddress('0x036CbD53842c5426634e7929541eC2318f3dCF7e'),
    eip712: { name: 'USDC', version: '2' },
    explorerTx: (hash) => `https://sepolia.basescan.org/tx/${hash}`,
  },
};

/** The network an x402 v2 CAIP-2 id names, if it is one we know. */
export function networkByCaip2(id: string): X402NetworkInfo | undefined {
  return Object.values(X402_NETWORKS).find((n) => n.caip2 === id);
}

/** EIP-3009 `TransferWithAuthorization`, the typed data an x402 "exact" EVM payment signs. */
export const TRANSFER_WITH_AUTHORIZATION_TYPES = {
  TransferWithAuthorization: [
    { name: 'from', type: 'address' },
    { name: 'to', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'validAfter', type: 'uint256' },
    { name: 'validBefore', type: 'uint256' },
    { name: 'nonce', type: 'bytes32' },
  ],
} as const;

/** The EIP-712 domain of the network's USDC contract. */
export function usdcDomain(info: X402NetworkInfo) {
  return { name: info.eip712.name, version: info.eip712.version, chainId: info.chainId, verifyingContract: info.usdc };
}
