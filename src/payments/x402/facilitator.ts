import { z } from 'zod';
import type { ExactEvmPaymentPayload, ExactEvmPaymentPayloadV2 } from './payload.js';
import type { PaymentRequirements, PaymentRequirementsV2 } from './requirements.js';

/**
 * A client for an x402 facilitator: `POST {url}/verify` and `POST {url}/settle`, each with `{x402Version,
 * paymentPayload, paymentRequirements}` (the same envelope in versions 1 and 2: each version's payload with the
 * requirements object of that version). A facilitator that cannot be reached, times out or answers something that
 * is not a verdict is reported as FacilitatorUnavailable (the route answers 503), never as a verdict.
 */
export interface FacilitatorOptions {
  url: string;
  /** Extra headers (auth for a mainnet facilitator). Never logged. */
  headers?: Record<string, string>;
  timeoutMs?: number;
}

export const VerifyResponse = z.object({
  isValid: z.boolean(),
  invalidReason: z.string().nullish(),
  payer: z.string().nullish(),
});
export type VerifyResponse = z.infer<typeof VerifyResponse>;

export const SettleResponse = z.object({
  success: z.boolean(),
  errorReason: z.string().nullish(),
  payer: z.string().nullish(),
  transaction: z.string(),
  network: z.string(),
  amount: z.string().nullish(),
});
export type SettleResponse = z.infer<typeof SettleResponse>;

export class FacilitatorUnavailable extends Error {
  constructor(
    readonly step: 'verify' | 'settle',
    reason: string,
  ) {
    super(`facilitator ${step}: ${reason}`);
    this.name = 'FacilitatorUnavailable';
  }
}

/** One payment as the facilitator takes it: a v1 payload with v1 requirements, or a v2 payload with v2 requirements. */
export type FacilitatorPayment =
  | { x402Version: 1; paymentPayload: ExactEvmPaymentPayload; paymentRequirements: PaymentRequirements }
  | { x402Version: 2; paymentPayload: ExactEvmPaymentPayloadV2; paymentRequirements: PaymentRequirementsV2 };

export interface Facilitator {
  verify(payment: FacilitatorPayment): Promise<VerifyResponse>;
  settle(payment: FacilitatorPayment): Promise<SettleResponse>;
}

export function httpFacilitator(options: FacilitatorOptions): Facilitator {
  const call = async <T>(step: 'verify' | 'settle', schema: z.ZodType<T>, payment: FacilitatorPayment): Promise<T> => {
    let response: Response;
    try {
      response = await fetch(`${options.url}/${step}`, {
        method: 'POST',
        headers: { ...options.headers, 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(payment),
        signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
      });
    } catch (err) {
      throw new FacilitatorUnavailable(step, (err as Error).name === 'TimeoutError' ? 'timed out' : 'unreachable');
    }
    // Facilitators answer a refused payment either with 200 or with 4xx and the same verdict body; read both.
    const body: unknown = await response.json().catch(() => undefined);
    const parsed = schema.safeParse(body);
    if (parsed.success && response.status < 500) return parsed.data;
    throw new FacilitatorUnavailable(step, `answered ${response.status} without a verdict`);
  };
  return {
    verify: (payment) => call('verify', VerifyResponse, payment),
    settle: (payment) => call('settle', SettleResponse, payment),
  };
}
