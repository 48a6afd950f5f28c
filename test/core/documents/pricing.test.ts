import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { INTERFACE_REVISION_DATE } from '../../../src/domain/license.js';
import {
  buildPricing,
  DEEP_SIGNAL_CREDIT_PACK,
  formatMinor,
  perCallCents,
  PRICES_AS_OF,
  SOLANA_CREDIT_PACK,
  stablecoinAtomicAmount,
  X402_PAY_PER_CALL,
} from '../../../src/core/documents/pricing.js';
import { Pricing } from '../../../src/schemas/documents.js';
import { BASE } from '../fixtures.js';

const tier = (slug: string) => buildPricing(BASE).tiers.find((t) => t.slug === slug)!;

describe('pricing', () => {
  test('tier slugs are the four stable slugs, in order', () => {
    assert.deepEqual(
      buildPricing(BASE).tiers.map((t) => t.slug),
      ['free', 'deep-signal-credit-pack', 'x402-pay-per-call', 'solana-credit-pack'],
    );
  });

  test('the Deep Signal credit pack is 100 credits for 19.00 EUR, 0.19 EUR per call', () => {
    const pack = tier('deep-signal-credit-pack');
    assert.deepEqual(
      [pack.credits, pack.price, pack.pricePerCall],
      [100, { amount: '19.00', currency: 'EUR' }, { amount: '0.19', currency: 'EUR' }],
    );
  });

  test('x402 pay per call is 0.19 USD of the stablecoin, 190000 atomic units', () => {
    const x402 = tier('x402-pay-per-call');
    assert.deepEqual(x402.price, { amount: '0.19', currency: 'USD' });
    assert.equal(x402.settlement?.atomicAmount, '190000');
    assert.equal(stablecoinAtomicAmount(X402_PAY_PER_CALL.priceCents), '190000');
  });

  test('the Solana pack is 19 units of the stablecoin for 100 credits', () => {
    const solana = tier('solana-credit-pack');
    assert.deepEqual(
      [solana.credits, solana.price.amount, solana.settlement?.atomicAmount],
      [100, '19.00', '19000000'],
    );
    assert.equal(SOLANA_CREDIT_PACK.credits, DEEP_SIGNAL_CREDIT_PACK.credits);
  });

  test('the free tier costs nothing', () => {
    assert.deepEqual(tier('free').price, { amount: '0.00', currency: 'EUR' });
  });

  test('prices are as of the interface revision date, as an ISO timestamp', () => {
    assert.equal(PRICES_AS_OF, `${INTERFACE_REVISION_DATE}T00:00:00.000Z`);
    assert.equal(buildPricing(BASE).asOf, PRICES_AS_OF);
  });

  test('a matched call consumes one credit and a miss none; credits do not expire', () => {
    assert.deepEqual(buildPricing(BASE).creditRules, {
      creditsPerMatchedCall: 1,
      creditsPerMiss: 0,
      creditsExpire: false,
      signatureRedeemableOnce: true,
    });
  });

  test('money helpers refuse fractional cents', () => {
    assert.equal(formatMinor(1905), '19.05');
    assert.throws(() => formatMinor(0.5), RangeError);
    assert.throws(() => stablecoinAtomicAmount(1.5), RangeError);
    assert.throws(() => perCallCents({ priceCents: 1900, credits: 7 }), RangeError);
  });

  test('the pricing document matches its schema', () => {
    const doc = buildPricing(BASE);
    assert.deepEqual(Pricing.parse(doc), doc);
  });
});
