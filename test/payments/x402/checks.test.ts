import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { localPaymentProblem, localPaymentProblemV2 } from '../../../src/payments/x402/checks.js';
import type { ExactEvmPaymentPayload, ExactEvmPaymentPayloadV2 } from '../../../src/payments/x402/payload.js';
import { paymentRequirements, paymentRequirementsV2 } from '../../../src/payments/x402/requirements.js';

const NOW = 1_800_000_000;
const requirements = paymentRequirements({
  payTo: '0x209693bc6afc0c5328ba36faf03c514ef312287c',
  network: 'base',
  resource: 'https://signals.example.org/api/agent/deep-signal/x402',
  outputJsonSchema: { type: 'object' },
});

function payment(overrides: Partial<ExactEvmPaymentPayload['payload']['authorization']> = {}): ExactEvmPaymentPayload {
  return {
    x402Version: 1,
    scheme: 'exact',
    network: 'base',
    payload: {
      signature: '0x00',
      authorization: {
        from: '0x857b06519E91e3A54538791bDbb0E22373e36b66',
        to: '0x209693bc6afc0c5328ba36faf03c514ef312287c',
        value: '190000',
        validAfter: String(NOW - 600),
        validBefore: String(NOW + 60),
        nonce: `0x${'00'.repeat(32)}`,
        ...overrides,
      },
    },
  };
}

describe('local x402 payment checks', () => {
  test('a payment of the price to payTo, valid now, passes (recipient compared without case)', () => {
    assert.equal(localPaymentProblem(payment(), requirements, NOW), undefined);
  });

  test('paying more than the price passes; one unit less does not', () => {
    assert.equal(localPaymentProblem(payment({ value: '190001' }), requirements, NOW), undefined);
    assert.equal(
      localPaymentProblem(payment({ value: '189999' }), requirements, NOW),
      'invalid_exact_evm_payload_authorization_value',
    );
  });

  test('an authorization that expires within the settlement margin is refused', () => {
    assert.equal(
      localPaymentProblem(payment({ validBefore: String(NOW + 3) }), requirements, NOW),
      'invalid_exact_evm_payload_authorization_valid_before',
    );
  });

  test('an authorization not valid yet is refused', () => {
    assert.equal(
      localPaymentProblem(payment({ validAfter: String(NOW + 30) }), requirements, NOW),
      'invalid_exact_evm_payload_authorization_valid_after',
    );
  });

  test('a 78-digit value is compared as a big integer, not a float', () => {
    assert.equal(localPaymentProblem(payment({ value: '9'.repeat(78) }), requirements, NOW), undefined);
  });
});

describe('x402 payment requirements', () => {
  test('Base mainnet: USDC at its checksummed address with the "USD Coin" EIP-712 domain', () => {
    assert.equal(requirements.asset, '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913');
    assert.deepEqual(requirements.extra, { name: 'USD Coin', version: '2' });
    assert.equal(requirements.payTo, '0x209693Bc6afc0C5328bA36FaF03C514EF312287C');
    assert.equal(requirements.maxAmountRequired, '190000');
  });
});

describe('local x402 v2 payment checks', () => {
  const offer = paymentRequirementsV2(requirements);
  function paymentV2(accepted: Partial<typeof offer> = {}): ExactEvmPaymentPayloadV2 {
    const v1 = payment();
    return { x402Version: 2, accepted: { ...offer, ...accepted }, payload: v1.payload };
  }

  test('the v2 offer is the v1 one with the network as a CAIP-2 id and the price as amount', () => {
    assert.deepEqual(offer, {
      scheme: 'exact',
      network: 'eip155:8453',
      amount: requirements.maxAmountRequired,
      asset: requirements.asset,
      payTo: requirements.payTo,
      maxTimeoutSeconds: requirements.maxTimeoutSeconds,
      extra: requirements.extra,
    });
  });

  test('a payment accepting the offer passes', () => {
    assert.equal(localPaymentProblemV2(paymentV2(), offer, NOW), undefined);
  });

  test('an accepted entry that is not the offer is refused, whatever the authorization pays', () => {
    assert.equal(localPaymentProblemV2(paymentV2({ amount: '1' }), offer, NOW), 'invalid_payment_requirements');
    assert.equal(
      localPaymentProblemV2(paymentV2({ payTo: '0x1111111111111111111111111111111111111111' }), offer, NOW),
      'invalid_payment_requirements',
    );
    assert.equal(localPaymentProblemV2(paymentV2({ network: 'eip155:84532' }), offer, NOW), 'invalid_network');
  });

  test('version 1 in a PAYMENT-SIGNATURE is refused', () => {
    assert.equal(localPaymentProblemV2({ ...paymentV2(), x402Version: 1 }, offer, NOW), 'invalid_x402_version');
  });
});
