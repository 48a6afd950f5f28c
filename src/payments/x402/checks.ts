import type { ExactEvmPaymentPayload } from './payload.js';
import { X402_VERSION, type PaymentRequirements } from './requirements.js';

/**
 * What we check before asking the facilitator: the payment is for this route (version, scheme, network, recipient),
 * pays enough, and is valid now. The reason codes are the ones x402 facilitators use, so clients see one vocabulary.
 * Returns undefined when the payment passes, else the reason.
 */
export function localPaymentProblem(
  payment: ExactEvmPaymentPayload,
  requirements: PaymentRequirements,
  nowSeconds: number,
): string | undefined {
  const auth = payment.payload.authorization;
  if (payment.x402Version !== X402_VERSION) return 'invalid_x402_version';
  if (payment.scheme !== requirements.scheme) return 'unsupported_scheme';
  if (payment.network !== requirements.network) return 'invalid_network';
  if (auth.to.toLowerCase() !== requirements.payTo.toLowerCase()) return 'invalid_exact_evm_payload_recipient_mismatch';
  if (BigInt(auth.value) < BigInt(requirements.maxAmountRequired))
    return 'invalid_exact_evm_payload_authorization_value';
  // Settlement takes a few seconds: an authorization about to expire would fail on-chain after we answered.
  if (BigInt(auth.validBefore) < BigInt(nowSeconds + 6)) return 'invalid_exact_evm_payload_authorization_valid_before';
  if (BigInt(auth.validAfter) > BigInt(nowSeconds)) return 'invalid_exact_evm_payload_authorization_valid_after';
  return undefined;
}
