import type { Kysely } from 'kysely';
import { ServiceError } from '../../domain/errors.js';
import type { Database } from '../../store/schema.js';
import { localPaymentProblem } from './checks.js';
import { FacilitatorUnavailable, type Facilitator } from './facilitator.js';
import { decodePaymentHeader, encodePaymentResponse, MalformedPayment, type SettlementReceipt } from './payload.js';
import {
  authorizationKey,
  authorizationSeen,
  markSettled,
  releaseAuthorization,
  reserveAuthorization,
} from './records.js';
import type { PaymentRequirements } from './requirements.js';

/** The paid work: found → the body to sell (and the startup it names), not found → the miss body (never charged). */
export type PaidLookup<Hit, Miss> = (
  name: string,
) => Promise<{ found: true; startup: string; body: Hit } | { found: false; body: Miss }>;

export type PayPerCallOutcome<Hit, Miss> =
  | { kind: 'payment-required'; error: string }
  | { kind: 'not-found'; body: Miss }
  | { kind: 'paid'; body: Hit; paymentResponse: string; receipt: SettlementReceipt };

export interface PayPerCallDeps {
  db: Kysely<Database>;
  facilitator: Facilitator;
  requirements: PaymentRequirements;
  /** Unix seconds (injectable so the validity window can be tested). */
  nowSeconds?: () => number;
}

const facilitatorDown = (err: FacilitatorUnavailable) =>
  new ServiceError(
    'payment-provider-unavailable',
    err.step === 'verify'
      ? 'The payment facilitator cannot be reached; nothing was charged. Retry later with the same payment.'
      : 'The payment facilitator did not confirm the settlement. Sign a new authorization before retrying.',
    { retryAfterSeconds: 30 },
  );

/**
 * One x402 v1 "exact" payment for one call, in the order that never charges for nothing:
 * decode → local checks → refuse an authorization already seen → facilitator /verify → the lookup →
 * (miss: no settlement) → reserve the authorization → facilitator /settle → record it → the paid body.
 * Malformed headers are a malformed-payment error (400); an unreachable facilitator payment-provider-unavailable
 * (503); everything else a 402 verdict.
 */
export async function payPerCall<Hit, Miss>(
  deps: PayPerCallDeps,
  header: string | undefined,
  name: string,
  lookup: PaidLookup<Hit, Miss>,
): Promise<PayPerCallOutcome<Hit, Miss>> {
  const { db, facilitator, requirements } = deps;
  if (header === undefined || header.trim() === '')
    return { kind: 'payment-required', error: 'X-PAYMENT header is required' };

  let payment;
  try {
    payment = decodePaymentHeader(header);
  } catch (err) {
    if (err instanceof MalformedPayment) throw new ServiceError('malformed-payment', err.message);
    throw err;
  }
  const now = deps.nowSeconds?.() ?? Math.floor(Date.now() / 1000);
  const refused = localPaymentProblem(payment, requirements, now);
  if (refused) return { kind: 'payment-required', error: refused };

  const key = authorizationKey(payment, requirements.asset);
  if (await authorizationSeen(db, key)) return { kind: 'payment-required', error: 'authorization_already_used' };

  let verdict;
  try {
    verdict = await facilitator.verify(payment, requirements);
  } catch (err) {
    if (err instanceof FacilitatorUnavailable) throw facilitatorDown(err);
    throw err;
  }
  if (!verdict.isValid)
    return { kind: 'payment-required', error: reasonCode(verdict.invalidReason, 'invalid_payment') };

  const result = await lookup(name);
  if (!result.found) return { kind: 'not-found', body: result.body };

  const reservation = await reserveAuthorization(db, key, payment.payload.authorization.value, result.startup);
  if (reservation === undefined) return { kind: 'payment-required', error: 'authorization_already_used' };

  let settled;
  try {
    settled = await facilitator.settle(payment, requirements);
  } catch (err) {
    // The settlement may or may not have happened: keep the reservation so this authorization is never served twice.
    if (err instanceof FacilitatorUnavailable) throw facilitatorDown(err);
    throw err;
  }
  if (!settled.success || !/^0x[0-9a-fA-F]{64}$/.test(settled.transaction)) {
    await releaseAuthorization(db, reservation);
    return { kind: 'payment-required', error: reasonCode(settled.errorReason, 'settlement_failed') };
  }
  await markSettled(db, reservation, settled.transaction);
  const receipt: SettlementReceipt = {
    success: true,
    txHash: settled.transaction,
    transaction: settled.transaction,
    network: requirements.network,
    payer: payment.payload.authorization.from,
  };
  return { kind: 'paid', body: result.body, paymentResponse: encodePaymentResponse(receipt), receipt };
}

/** A facilitator's reason code, passed on only when it is a plain code (never free text from a third party). */
function reasonCode(reason: string | null | undefined, fallback: string): string {
  return reason && /^[a-z0-9_]{1,80}$/.test(reason) ? reason : fallback;
}
