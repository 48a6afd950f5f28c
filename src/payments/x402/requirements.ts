import { getAddress } from 'viem';
import { stablecoinAtomicAmount, X402_PAY_PER_CALL } from '../../core/documents/pricing.js';
import { X402_NETWORKS, type X402Network } from './networks.js';

export const X402_VERSION = 1 as const;

/** How long a client has to complete the payment: the reference client sets validBefore = now + this. */
export const X402_MAX_TIMEOUT_SECONDS = 60;

/** One x402 v1 PaymentRequirements object, every field the reference client validates. */
export interface PaymentRequirements {
  scheme: 'exact';
  network: X402Network;
  maxAmountRequired: string;
  resource: string;
  description: string;
  mimeType: string;
  payTo: string;
  maxTimeoutSeconds: number;
  asset: string;
  outputSchema: Record<string, unknown>;
  extra: { name: string; version: string };
}

/** The 402 body: `{x402Version: 1, error, accepts: [requirements]}`. */
export interface PaymentRequiredBody {
  x402Version: typeof X402_VERSION;
  error: string;
  accepts: PaymentRequirements[];
}

export interface X402Settings {
  payTo: string;
  network: X402Network;
  /** Absolute URL of the paid resource. */
  resource: string;
  /** JSON Schema of a successful answer (advertised in `outputSchema.output`). */
  outputJsonSchema: Record<string, unknown>;
}

/** The single requirements object the route accepts: the price from pricing.ts, USDC on the configured network. */
export function paymentRequirements(settings: X402Settings): PaymentRequirements {
  const info = X402_NETWORKS[settings.network];
  return {
    scheme: 'exact',
    network: info.network,
    maxAmountRequired: stablecoinAtomicAmount(X402_PAY_PER_CALL.priceCents),
    resource: settings.resource,
    description:
      'Deep Signal: the enriched profile of one tracked startup (scores, sector rank, thesis, comparables, history). Settled only when the startup is tracked.',
    mimeType: 'application/json',
    payTo: getAddress(settings.payTo),
    maxTimeoutSeconds: X402_MAX_TIMEOUT_SECONDS,
    asset: info.usdc,
    outputSchema: {
      input: {
        type: 'http',
        method: 'POST',
        discoverable: true,
        bodyType: 'json',
        bodyFields: {
          name: { type: 'string', required: true, description: 'Startup name, 1 to 100 characters' },
        },
      },
      output: settings.outputJsonSchema,
    },
    extra: { name: info.eip712.name, version: info.eip712.version },
  };
}

export function paymentRequiredBody(requirements: PaymentRequirements, error: string): PaymentRequiredBody {
  return { x402Version: X402_VERSION, error, accepts: [requirements] };
}

/**
 * x402 protocol version 2 (what `@x402/fetch` 2.x speaks by default): the same offer, named as v2 names it. The
 * network is a CAIP-2 id, the price is `amount`; what v1 put in each requirements object (resource, description,
 * mime type) is said once in `resource`. The 402 carries it base64-encoded in the `PAYMENT-REQUIRED` header, beside
 * the v1 body the interface specifies, so clients of either version find their own.
 */
export const X402_VERSION_2 = 2 as const;

export interface PaymentRequirementsV2 {
  scheme: 'exact';
  network: `eip155:${number}`;
  amount: string;
  asset: string;
  payTo: string;
  maxTimeoutSeconds: number;
  extra: { name: string; version: string };
}

export interface PaymentRequiredV2 {
  x402Version: typeof X402_VERSION_2;
  error: string;
  resource: { url: string; description: string; mimeType: string };
  accepts: PaymentRequirementsV2[];
  /** Declarations beside the offer, by name: `bazaar`, the discovery facilitators catalogue paid resources by. */
  extensions?: Record<string, unknown>;
}

/** The v2 form of the route's single offer (the same price, recipient, token and time limit). */
export function paymentRequirementsV2(v1: PaymentRequirements): PaymentRequirementsV2 {
  return {
    scheme: v1.scheme,
    network: X402_NETWORKS[v1.network].caip2,
    amount: v1.maxAmountRequired,
    asset: v1.asset,
    payTo: v1.payTo,
    maxTimeoutSeconds: v1.maxTimeoutSeconds,
    extra: { ...v1.extra },
  };
}

export function paymentRequiredV2(
  v1: PaymentRequirements,
  error: string,
  extensions?: Record<string, unknown>,
): PaymentRequiredV2 {
  return {
    x402Version: X402_VERSION_2,
    error,
    resource: { url: v1.resource, description: v1.description, mimeType: v1.mimeType },
    accepts: [paymentRequirementsV2(v1)],
    ...(extensions ? { extensions } : {}),
  };
}

/** The `PAYMENT-REQUIRED` header: standard base64 of the v2 JSON. */
export function encodePaymentRequiredHeader(body: PaymentRequiredV2): string {
  return Buffer.from(JSON.stringify(body), 'utf8').toString('base64');
}
