import { randomBytes } from 'node:crypto';
import { getAddress, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import {
  networkByCaip2,
  TRANSFER_WITH_AUTHORIZATION_TYPES,
  usdcDomain,
  X402_NETWORKS,
} from '../../src/payments/x402/networks.js';
import type { PaymentRequirements, PaymentRequirementsV2 } from '../../src/payments/x402/requirements.js';

type Overrides = Partial<{ to: string; value: string; validAfter: string; validBefore: string; nonce: Hex }>;

/**
 * A fresh wallet that signs x402 "exact" payments as a real client does (EIP-3009 typed data through viem): `pay`
 * for an X-PAYMENT header (v1), `payV2` for a PAYMENT-SIGNATURE header (v2) accepting the offer it is given.
 */
export function testPayer() {
  const account = privateKeyToAccount(generatePrivateKey());
  async function sign(
    network: PaymentRequirements['network'],
    payTo: string,
    amount: string,
    maxTimeoutSeconds: number,
    overrides: Overrides,
  ) {
    const now = Math.floor(Date.now() / 1000);
    const authorization = {
      from: account.address,
      to: getAddress(overrides.to ?? payTo),
      value: overrides.value ?? amount,
      validAfter: overrides.validAfter ?? String(now - 600),
      validBefore: overrides.validBefore ?? String(now + maxTimeoutSeconds),
      nonce: overrides.nonce ?? (`0x${randomBytes(32).toString('hex')}` as Hex),
    };
    const signature = await account.signTypedData({
      domain: usdcDomain(X402_NETWORKS[network]),
      types: TRANSFER_WITH_AUTHORIZATION_TYPES,
      primaryType: 'TransferWithAuthorization',
      message: {
        ...authorization,
        value: BigInt(authorization.value),
        validAfter: BigInt(authorization.validAfter),
        validBefore: BigInt(authorization.validBefore),
      },
    });
    return { signature, authorization };
  }
  return {
    address: account.address,
    async payV2(offer: PaymentRequirementsV2, overrides: Overrides = {}): Promise<{ header: string; nonce: Hex }> {
      const network = networkByCaip2(offer.network)!.network;
      const payload = await sign(network, offer.payTo, offer.amount, offer.maxTimeoutSeconds, overrides);
      const body = { x402Version: 2, accepted: offer, payload };
      return { header: Buffer.from(JSON.stringify(body)).toString('base64'), nonce: payload.authorization.nonce };
    },
    async pay(requirements: PaymentRequirements, overrides: Overrides = {}): Promise<{ header: string; nonce: Hex }> {
      const { signature, authorization } = await sign(
        requirements.network,
        requirements.payTo,
        requirements.maxAmountRequired,
        requirements.maxTimeoutSeconds,
        overrides,
      );
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
