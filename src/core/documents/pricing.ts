import type { Pricing } from '../../schemas/documents.js';
import { INTERFACE_REVISION_DATE } from '../../domain/license.js';
import { siteUrls } from '../../domain/urls.js';

/**
 * Every price the service charges, in one place. GET /api/v1/pricing.json is built from these constants and the
 * payment routes charge from them, so the published table and the charge cannot disagree. Amounts are integers in
 * minor units (cents) so no arithmetic on them is ever fractional. Tier slugs are stable; prices may change (then
 * move PRICES_AS_OF too).
 */

/** When the current prices took effect: the revision of the interface that set them. */
export const PRICES_AS_OF = `${INTERFACE_REVISION_DATE}T00:00:00.000Z`;

/** The currency of card-paid tiers. */
export const CARD_CURRENCY = 'EUR' as const;

/** The stablecoin both on-chain rails settle in (USD Coin, 6 decimals on Base and on Solana). */
export const STABLECOIN = { asset: 'USDC', decimals: 6, currency: 'USD' } as const;

export const CREDITS_PER_MATCHED_CALL = 1;
export const CREDITS_PER_MISS = 0;
export const CREDITS_EXPIRE = false;

export const TIER_SLUGS = {
  free: 'free',
  creditPack: 'deep-signal-credit-pack',
  x402: 'x402-pay-per-call',
  solanaPack: 'solana-credit-pack',
} as const;

/** The Deep Signal credit pack, bought by card: 100 credits for 19 EUR. */
export const DEEP_SIGNAL_CREDIT_PACK = {
  slug: TIER_SLUGS.creditPack,
  credits: 100,
  priceCents: 1900,
  currency: CARD_CURRENCY,
} as const;

/** x402 pay-per-call: 0.19 USD in the stablecoin per successful call; misses are not charged. */
export const X402_PAY_PER_CALL = {
  slug: TIER_SLUGS.x402,
  priceCents: 19,
  currency: STABLECOIN.currency,
} as const;

/** The Solana pack: 19 units of the stablecoin for 100 credits (the default; a deployment may configure another). */
export const SOLANA_CREDIT_PACK = {
  slug: TIER_SLUGS.solanaPack,
  credits: 100,
  priceCents: 1900,
  currency: STABLECOIN.currency,
} as const;

/** "19.00" from 1900. */
export function formatMinor(cents: number): string {
  if (!Number.isInteger(cents) || cents < 0) throw new RangeError(`not a non-negative whole number of cents: ${cents}`);
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/** The stablecoin amount in its smallest unit, as the integer string on-chain payloads use: 19 cents → "190000". */
export function stablecoinAtomicAmount(cents: number): string {
  if (!Number.isInteger(cents) || cents < 0) throw new RangeError(`not a non-negative whole number of cents: ${cents}`);
  return (BigInt(cents) * 10n ** BigInt(STABLECOIN.decimals - 2)).toString();
}

/** Price of one call bought through a pack, in cents; packs are sized so this is a whole number of cents. */
export function perCallCents(pack: { priceCents: number; credits: number }): number {
  const cents = pack.priceCents / (pack.credits * CREDITS_PER_MATCHED_CALL);
  if (!Number.isInteger(cents)) throw new RangeError('a pack must divide into whole cents per call');
  return cents;
}

export function buildPricing(baseUrl: string): Pricing {
  const urls = siteUrls(baseUrl);
  const money = (cents: number, currency: 'EUR' | 'USD') => ({ amount: formatMinor(cents), currency });
  const deepSignal = { method: 'POST' as const, url: urls.api('/api/agent/deep-signal') };
  return {
    name: 'Signal Service pricing',
    url: urls.api('/api/v1/pricing.json'),
    currency: CARD_CURRENCY,
    asOf: PRICES_AS_OF,
    tiers: [
      {
        slug: TIER_SLUGS.free,
        name: 'Free API',
        description:
          'Every free read: signals, exports, lookup, answers, search, diligence, markets, citations, documents and feeds. No key, no sign-up.',
        price: money(0, CARD_CURRENCY),
        unit: 'free',
        credits: null,
        pricePerCall: money(0, CARD_CURRENCY),
        settlement: null,
        authentication: 'none',
        endpoints: [
          { method: 'GET', url: urls.api('/api/signals.json') },
          { method: 'GET', url: urls.api('/api/signal') },
          { method: 'GET', url: urls.api('/api/dataset.jsonl') },
        ],
      },
      {
        slug: DEEP_SIGNAL_CREDIT_PACK.slug,
        name: 'Deep Signal credit pack',
        description: `${DEEP_SIGNAL_CREDIT_PACK.credits} Deep Signal credits bought by card. A call that matches a tracked startup consumes ${CREDITS_PER_MATCHED_CALL} credit; a miss consumes none; credits do not expire.`,
        price: money(DEEP_SIGNAL_CREDIT_PACK.priceCents, DEEP_SIGNAL_CREDIT_PACK.currency),
        unit: 'pack',
        credits: DEEP_SIGNAL_CREDIT_PACK.credits,
        pricePerCall: money(perCallCents(DEEP_SIGNAL_CREDIT_PACK), DEEP_SIGNAL_CREDIT_PACK.currency),
        settlement: null,
        authentication: 'Authorization: Bearer <API_KEY> (the key is e-mailed after checkout)',
        endpoints: [deepSignal, { method: 'GET', url: urls.api('/api/account/credits') }],
      },
      {
        slug: X402_PAY_PER_CALL.slug,
        name: 'x402 pay per call',
        description:
          'No key and no sign-up: the first call answers 402 with payment requirements; retry with the signed payment in an X-PAYMENT header (x402 version 1) or a PAYMENT-SIGNATURE header (version 2). Only successful calls are settled.',
        price: money(X402_PAY_PER_CALL.priceCents, X402_PAY_PER_CALL.currency),
        unit: 'call',
        credits: null,
        pricePerCall: money(X402_PAY_PER_CALL.priceCents, X402_PAY_PER_CALL.currency),
        settlement: {
          asset: STABLECOIN.asset,
          decimals: STABLECOIN.decimals,
          atomicAmount: stablecoinAtomicAmount(X402_PAY_PER_CALL.priceCents),
          rail: 'x402 (EIP-3009 transfer authorization, settled by a facilitator on a layer-2 network)',
        },
        authentication: 'X-PAYMENT header',
        endpoints: [{ method: 'POST', url: urls.api('/api/agent/deep-signal/x402') }],
      },
      {
        slug: SOLANA_CREDIT_PACK.slug,
        name: 'Solana credit pack',
        description: `${SOLANA_CREDIT_PACK.credits} Deep Signal credits for ${formatMinor(SOLANA_CREDIT_PACK.priceCents)} ${STABLECOIN.asset} sent on Solana; redeem the transaction signature once.`,
        price: money(SOLANA_CREDIT_PACK.priceCents, SOLANA_CREDIT_PACK.currency),
        unit: 'pack',
        credits: SOLANA_CREDIT_PACK.credits,
        pricePerCall: money(perCallCents(SOLANA_CREDIT_PACK), SOLANA_CREDIT_PACK.currency),
        settlement: {
          asset: STABLECOIN.asset,
          decimals: STABLECOIN.decimals,
          atomicAmount: stablecoinAtomicAmount(SOLANA_CREDIT_PACK.priceCents),
          rail: 'Solana token transfer, verified on-chain; each signature redeemable once',
        },
        authentication: 'Authorization: Bearer <API_KEY>',
        endpoints: [
          { method: 'GET', url: urls.api('/api/agent/deep-signal/solana') },
          { method: 'POST', url: urls.api('/api/agent/deep-signal/solana') },
        ],
      },
    ],
    creditRules: {
      creditsPerMatchedCall: CREDITS_PER_MATCHED_CALL,
      creditsPerMiss: CREDITS_PER_MISS,
      creditsExpire: CREDITS_EXPIRE,
      signatureRedeemableOnce: true,
    },
    purchaseUrl: urls.api('/agents/credits'),
  };
}
