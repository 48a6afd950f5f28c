import type { ExactEvmPaymentPayload, ExactEvmPaymentPayloadV2 } from './payload.js';
import { X402_VERSION, X402_VERSION_2, type PaymentRequirements, type PaymentRequirementsV2 } from './requirements.js';

/**
 * What we check before asking the facilitator: the payment is for this route (version, scheme, network, recipient),
 * pays enough, and is valid now. The reason codes are the ones x402 facilitators use, so clients see one vocabulary.
 * Each returns undefined when the payment passes, else the reason.
 */
type Authorization = ExactEvmPaymentPayload['payload']['authorization'];

function authorizationProblem(auth: Authorization, payTo: string, amount: string) {
  if (auth.to.toLowerCase() !== payTo.toLowerCase()) return 'invalid_exact_evm_payload_recipient_mismatch';
  if (BigInt(auth.value) < BigInt(amount)) return 'invalid_exact_evm_payload_authorization_value';
  return undefined;
}

/** Whether the authorization can be settled now (its validity window). */
export function windowProblem(auth: Authorization, nowSeconds: number): string | undefined {
  // Settlement takes a few seconds: an authorization about to expire would fail on-chain after we answered.
  if (BigInt(auth.validBefore) < BigInt(nowSeconds + 6)) return 'invalid_exact_evm_payload_authorization_valid_before';
  if (BigInt(auth.validAfter) > BigInt(nowSeconds)) return 'invalid_exact_evm_payload_authorization_valid_after';
  return undefined;
}

/** An `X-PAYMENT` (v1) payment against the route's v1 requirements, its validity window included. */
export function localPaymentProblem(
  payment: ExactEvmPaymentPayload,
  requirements: PaymentRequirements,
  nowSeconds: number,
): string | undefined {
  return offerProblem(payment, requirements) ?? windowProblem(payment.payload.authorization, nowSeconds);
}

/** Whether a v1 payment pays this route's offer (version, scheme, network, recipient, amount). */
export function offerProblem(payment: ExactEvmPaymentPayload, requirements: PaymentRequirements): string | undefined {
  if (payment.x402Version !== X402_VERSION) return 'invalid_x402_version';
  if (payment.scheme !== requirements.scheme) return 'unsupported_scheme';
  if (payment.network !== requirements.network) return 'invalid_network';
  return authorizationProblem(payment.payload.authorization, requirements.payTo, requirements.maxAmountRequired);
}

/**
 * A `PAYMENT-SIGNATURE` (v2) payment: the entry it says it `accepted` must be our offer (scheme, network, amount,
 * token and recipient, as the reference server requires of the entry it matches), and the authorization must pay it.
 */
export function localPaymentProblemV2(
  payment: ExactEvmPaymentPayloadV2,
  requirements: PaymentRequirementsV2,
  nowSeconds: number,
): string | undefined {
  return offerProblemV2(payment, requirements) ?? windowProblem(payment.payload.authorization, nowSeconds);
}

/** Whether a v2 payment pays this route's offer. */
export function offerProblemV2(
  payment: ExactEvmPaymentPayloadV2,
  requirements: PaymentRequirementsV2,
): string | undefined {
  const { accepted } = payment;
  if (payment.x402Version !== X402_VERSION_2) return 'invalid_x402_version';
  if (accepted.scheme !== requirements.scheme) return 'unsupported_scheme';
  if (accepted.network !== requirements.network) return 'invalid_network';
  if (
    accepted.amount !== requirements.amount ||
    accepted.asset.toLowerCase() !== requirements.asset.toLowerCase() ||
    accepted.payTo.toLowerCase() !== requirements.payTo.toLowerCase()
  ) {
    return 'invalid_payment_requirements';
  }
  return authorizationProblem(payment.payload.authorization, requirements.payTo, requirements.amount);
}
