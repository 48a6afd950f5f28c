import { randomBytes } from 'node:crypto';
import { getAddress, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { TRANSFER_WITH_AUTHORIZATION_TYPES, usdcDomain, X402_NETWORKS } from '../../src/payments/x402/networks.js';
import type { PaymentRequirements } from '../../src/payments/x402/requirements.js';

/** A fresh wallet that signs x402 v1 "exact" payments as a real client does (EIP-3009 typed data through viem). */
export function testPayer() {
  const account = privateKeyToAccount(generatePrivateKey());
  return {
    address: account.address,
    async pay(
      requirements: PaymentRequirements,
      overrides: Partial<{ to: string; value: string; validAfter: string; validBefore: string; nonce: Hex }> = {},
    ): Promise<{ header: string; nonce: Hex }> {
      const now = Math.floor(Date.now() / 1000);
      const authorization = {
        from: account.address,
        to: getAddress(overrides.to ?? requirements.payTo),
        value: overrides.value ?? requirements.maxAmountRequired,
        validAfter: overrides.validAfter ?? String(now - 600),
        validBefore: overrides.validBefore ?? String(now + requirements.maxTimeoutSeconds),
        nonce: overrides.nonce ?? (`0x${randomBytes(32).toString('hex')}` as Hex),
      };
      const signature = await account.signTypedData({
        domain: usdcDomain(X402_NETWORKS[requirements.network]),
        types: TRANSFER_WITH_AUTHORIZATION_TYPES,
        primaryType: 'TransferWithAuthorization',
        message: {
          ...authorization,
          value: BigInt(authorization.value),
          validAfter: BigInt(authorization.validAfter),
          validBefore: BigInt(authorization.validBefore),
        },
      });
      const payload = {
        x402Version: 1,
        scheme: 'exact',
        network: requirements.network,
        payload: { signature, authorization },
      };
      return { header: Buffer.from(JSON.stringify(payload)).toString('base64'), nonce: authorization.nonce };
    },
  };
}
