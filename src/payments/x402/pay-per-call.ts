import type { Kysely } from 'kysely';
import { ServiceError } from '../../domain/errors.js';
import type { Database } from '../../store/schema.js';
import { ChainUnavailable, type AuthorizationChain } from './chain.js';
import { offerProblem, offerProblemV2, windowProblem } from './checks.js';
import { FacilitatorUnavailable, type Facilitator, type FacilitatorPayment } from './facilitator.js';
import {
  decodePaymentHeader,
  decodePaymentSignatureHeader,
  encodePaymentResponse,
  parsePaymentPayloadV2,
  encodePaymentResponseV2,
  MalformedPayment,
  type ExactEvmPaymentPayload,
  type SettlementReceipt,
  type SettlementResponseV2,
} from './payload.js';
import {
  authorizationKey,
  claimDelivery,
  expireLease,
  findAuthorization,
  markSettled,
  releaseAuthorization,
  reserveAuthorization,
  RESERVATION_LEASE_SECONDS,
  signatureHash,
  takeOverReservation,
  type AuthorizationRow,
} from './records.js';
import type { PaymentRequirements, PaymentRequirementsV2 } from './requirements.js';

/** The paid work: found → the body to sell (and the startup it names), not found → the miss body (never charged). */
export type PaidLookup<Hit, Miss> = (
  name: string,
) => Promise<{ found: true; startup: string; body: Hit } | { found: false; body: Miss }>;

/**
 * The payment a call presents: the `X-PAYMENT` (x402 v1) or `PAYMENT-SIGNATURE` (x402 v2) header of an HTTP request,
 * or, in x402 v2's MCP binding, the payload itself from a tool call's `_meta["x402/payment"]`.
 */
export interface PaymentHeaders {
  xPayment?: string | undefined;
  paymentSignature?: string | undefined;
  /** The v2 payload as a JSON value (MCP), decoded and checked exactly as a PAYMENT-SIGNATURE header is. */
  paymentPayload?: unknown;
}

export type PayPerCallOutcome<Hit, Miss> =
  | { kind: 'payment-required'; error: string }
  | { kind: 'not-found'; body: Miss }
  | {
      kind: 'paid';
      body: Hit;
      /** The response header to answer with: X-PAYMENT-RESPONSE (v1) or PAYMENT-RESPONSE (v2). */
      responseHeader: 'X-PAYMENT-RESPONSE' | 'PAYMENT-RESPONSE';
      paymentResponse: string;
      receipt: SettlementReceipt;
      /** The v2 settlement response (what PAYMENT-RESPONSE encodes), for a v2 payment: MCP sends it as it is. */
      settlement?: SettlementResponseV2;
      /** True when this answers a payment settled earlier whose answer was never handed out (nothing settled now). */
      redelivered: boolean;
    };

export interface PayPerCallDeps {
  db: Kysely<Database>;
  facilitator: Facilitator;
  /** The token contract, read to learn what became of a settlement whose answer we never saw. */
  chain: AuthorizationChain;
  requirements: PaymentRequirements;
  requirementsV2: PaymentRequirementsV2;
  /** Unix seconds (injectable so the validity window can be tested). */
  nowSeconds?: () => number;
}

type Authorization = ExactEvmPaymentPayload['payload']['authorization'];

/** A decoded payment of either version, with what every later step needs. */
interface Presented {
  version: 1 | 2;
  facilitatorPayment: FacilitatorPayment;
  authorization: Authorization;
  signature: string;
}

const unconfirmed = () => new ServiceError('settlement-unconfirmed', {}, { retryAfterSeconds: 5 });

const inFlight = (row: AuthorizationRow) => {
  const held = (Date.now() - new Date(row.reserved_at).getTime()) / 1000;
  return new ServiceError(
    'authorization-in-flight',
    {},
    { retryAfterSeconds: Math.max(1, Math.ceil(RESERVATION_LEASE_SECONDS - held)) },
  );
};

const facilitatorDown = (err: FacilitatorUnavailable) =>
  err.step === 'verify' ? new ServiceError('facilitator-unreachable', {}, { retryAfterSeconds: 30 }) : unconfirmed();

function decode(headers: PaymentHeaders, deps: PayPerCallDeps): Presented | { error: string } {
  const { xPayment, paymentSignature, paymentPayload } = headers;
  try {
    if (paymentSignature !== undefined || paymentPayload !== undefined) {
      const payment =
        paymentSignature !== undefined
          ? decodePaymentSignatureHeader(paymentSignature)
          : parsePaymentPayloadV2(paymentPayload, '_meta["x402/payment"]');
      const refused = offerProblemV2(payment, deps.requirementsV2);
      if (refused) return { error: refused };
      return {
        version: 2,
        facilitatorPayment: { x402Version: 2, paymentPayload: payment, paymentRequirements: deps.requirementsV2 },
        authorization: payment.payload.authorization,
        signature: payment.payload.signature,
      };
    }
    const payment = decodePaymentHeader(xPayment!);
    const refused = offerProblem(payment, deps.requirements);
    if (refused) return { error: refused };
    return {
      version: 1,
      facilitatorPayment: { x402Version: 1, paymentPayload: payment, paymentRequirements: deps.requirements },
      authorization: payment.payload.authorization,
      signature: payment.payload.signature,
    };
  } catch (err) {
    if (err instanceof MalformedPayment) throw new ServiceError('payment-header-malformed', { reason: err.message });
    throw err;
  }
}

const present = (value: string | undefined) => value !== undefined && value.trim() !== '';

/**
 * One x402 "exact" payment for one call, version 1 (`X-PAYMENT`) or 2 (`PAYMENT-SIGNATURE`), in the order that never
 * charges for nothing: decode → the payment pays this offer → the authorization's record → its validity window →
 * facilitator /verify → the lookup (miss: no settlement) → reserve the authorization → facilitator /settle → record
 * it → the paid body.
 *
 * An authorization already recorded is settled at most once and answered at most once:
 * - settled and answered: refused (`authorization_already_used`);
 * - settled but never answered (the instance crashed, the client was cut off, the facilitator's answer was lost): the
 *   same signed authorization, for the same startup, gets its answer now, with no second settlement;
 * - pending and held by a request in flight: 503 with Retry-After (the end of its lease);
 * - pending and abandoned (no request holds it any more): the token contract says what happened — used: it was
 *   paid, so it is answered; unused and still valid: it is settled now; unused and expired: it is dropped (nothing
 *   was or can be charged) and the payment refused.
 * Malformed headers are a malformed-payment error (400); an unreachable facilitator or token contract
 * payment-provider-unavailable (503); everything else a 402 verdict.
 */
export async function payPerCall<Hit, Miss>(
  deps: PayPerCallDeps,
  headers: PaymentHeaders,
  name: string,
  lookup: PaidLookup<Hit, Miss>,
): Promise<PayPerCallOutcome<Hit, Miss>> {
  const { db, facilitator, requirements } = deps;
  const hasV1 = present(headers.xPayment);
  const hasV2 = present(headers.paymentSignature) || headers.paymentPayload !== undefined;
  if (hasV1 && hasV2) {
    throw new ServiceError('payment-headers-both');
  }
  if (!hasV1 && !hasV2) return { kind: 'payment-required', error: 'X-PAYMENT header is required' };

  const presented = decode(
    hasV2 ? { paymentSignature: headers.paymentSignature, paymentPayload: headers.paymentPayload } : headers,
    deps,
  );
  if ('error' in presented) return { kind: 'payment-required', error: presented.error };
  const { authorization } = presented;
  const key = authorizationKey(requirements.network, requirements.asset, authorization);
  const hash = signatureHash(presented.signature);
  const now = deps.nowSeconds?.() ?? Math.floor(Date.now() / 1000);
  const paid = (body: Hit, txHash: string, redelivered: boolean) =>
    paidOutcome(body, presented, requirements, deps.requirementsV2, txHash, redelivered);

  const row = await findAuthorization(db, key);
  let reservation: number | undefined;
  if (row) {
    if (row.signature_hash !== hash) return { kind: 'payment-required', error: 'authorization_already_used' };
    if (row.status === 'settled') return redeliver(deps, row, name, lookup, paid);
    if (!(await takeOverReservation(db, row.id))) throw inFlight(row);
    // This request now holds an abandoned reservation: the token contract says whether it was paid.
    if (await used(deps, row)) {
      const txHash = await transactionOf(deps, row);
      await markSettled(db, row.id, txHash, false);
      return redeliver(deps, { ...row, status: 'settled', tx_hash: txHash, delivered_at: null }, name, lookup, paid);
    }
    const expired = windowProblem(authorization, now);
    if (expired) {
      await releaseAuthorization(db, row.id);
      return { kind: 'payment-required', error: expired };
    }
    reservation = row.id;
  } else {
    const refused = windowProblem(authorization, now);
    if (refused) return { kind: 'payment-required', error: refused };
  }

  let verdict;
  try {
    verdict = await facilitator.verify(presented.facilitatorPayment);
  } catch (err) {
    if (err instanceof FacilitatorUnavailable) throw facilitatorDown(err);
    throw err;
  }
  if (!verdict.isValid) {
    return { kind: 'payment-required', error: reasonCode(verdict.invalidReason, 'invalid_payment') };
  }

  const result = await lookup(name);
  if (!result.found) return { kind: 'not-found', body: result.body };
  if (row && row.startup !== result.startup) {
    // A taken-over reservation was made for another startup: the authorization stays bound to that request.
    return { kind: 'payment-required', error: 'authorization_already_used' };
  }

  reservation ??= await reserveAuthorization(db, key, {
    amount: authorization.value,
    startup: result.startup,
    validBefore: authorization.validBefore,
    version: presented.version,
    signatureHash: hash,
  });
  if (reservation === undefined) return { kind: 'payment-required', error: 'authorization_already_used' };

  let settled;
  try {
    settled = await facilitator.settle(presented.facilitatorPayment);
  } catch (err) {
    // The settlement may or may not have happened: keep the reservation, but give it up, so that a retry (or the
    // reconciler) asks the token contract at once. Settling again is safe: the contract takes a nonce once.
    if (err instanceof FacilitatorUnavailable) {
      await expireLease(db, reservation);
      throw facilitatorDown(err);
    }
    throw err;
  }
  if (!settled.success || !/^0x[0-9a-fA-F]{64}$/.test(settled.transaction)) {
    // A refusal can also mean an earlier attempt already moved the money (the nonce is used): ask before freeing it.
    const reserved = { ...key, id: reservation, created_at: new Date() };
    if (await used(deps, reserved)) {
      const txHash = await transactionOf(deps, reserved);
      await markSettled(db, reservation, txHash, true);
      return paid(result.body, txHash ?? '', false);
    }
    await releaseAuthorization(db, reservation);
    return { kind: 'payment-required', error: reasonCode(settled.errorReason, 'settlement_failed') };
  }
  await markSettled(db, reservation, settled.transaction, true);
  return paid(result.body, settled.transaction, false);
}

type Paid<Hit> = (body: Hit, txHash: string, redelivered: boolean) => PayPerCallOutcome<Hit, never>;

/** The answer of a settled payment that was never answered, for the startup it paid for, given once. */
async function redeliver<Hit, Miss>(
  deps: PayPerCallDeps,
  row: AuthorizationRow,
  name: string,
  lookup: PaidLookup<Hit, Miss>,
  paid: Paid<Hit>,
): Promise<PayPerCallOutcome<Hit, Miss>> {
  if (row.delivered_at !== null) return { kind: 'payment-required', error: 'authorization_already_used' };
  const result = await lookup(name);
  if (!result.found || result.startup !== row.startup) {
    return { kind: 'payment-required', error: 'authorization_already_used' };
  }
  if (!(await claimDelivery(deps.db, row.id))) return { kind: 'payment-required', error: 'authorization_already_used' };
  return paid(result.body, row.tx_hash ?? '', true);
}

/** Whether the token contract has used the authorization's nonce; 503 when it cannot be asked. */
async function used(deps: PayPerCallDeps, row: Pick<AuthorizationRow, 'asset' | 'payer' | 'nonce'>): Promise<boolean> {
  try {
    return await deps.chain.authorizationUsed(row.asset, row.payer, row.nonce);
  } catch (err) {
    if (err instanceof ChainUnavailable) throw unconfirmed();
    throw err;
  }
}

/** The transaction that used the nonce, searched back to a little before the reservation (Base: a block per 2 s). */
export async function transactionOf(
  deps: Pick<PayPerCallDeps, 'chain'>,
  row: Pick<AuthorizationRow, 'asset' | 'payer' | 'nonce' | 'created_at'>,
): Promise<string | null> {
  const ageSeconds = Math.max(0, (Date.now() - new Date(row.created_at).getTime()) / 1000);
  const lookback = Math.min(10_000, Math.ceil(ageSeconds / 2) + 300);
  return (await deps.chain.settlementTransaction(row.asset, row.payer, row.nonce, lookback)) ?? null;
}

function paidOutcome<Hit>(
  body: Hit,
  presented: Presented,
  requirements: PaymentRequirements,
  requirementsV2: PaymentRequirementsV2,
  txHash: string,
  redelivered: boolean,
): PayPerCallOutcome<Hit, never> {
  const receipt: SettlementReceipt = {
    success: true,
    txHash,
    transaction: txHash,
    network: requirements.network,
    payer: presented.authorization.from,
  };
  if (presented.version === 2) {
    const settlement: SettlementResponseV2 = {
      success: true,
      transaction: txHash,
      network: requirementsV2.network,
      payer: presented.authorization.from,
      amount: requirementsV2.amount,
    };
    return {
      kind: 'paid',
      body,
      responseHeader: 'PAYMENT-RESPONSE',
      paymentResponse: encodePaymentResponseV2(settlement),
      receipt,
      settlement,
      redelivered,
    };
  }
  return {
    kind: 'paid',
    body,
    responseHeader: 'X-PAYMENT-RESPONSE',
    paymentResponse: encodePaymentResponse(receipt),
    receipt,
    redelivered,
  };
}

/** A facilitator's reason code, passed on only when it is a plain code (never free text from a third party). */
function reasonCode(reason: string | null | undefined, fallback: string): string {
  return reason && /^[a-z0-9_]{1,80}$/.test(reason) ? reason : fallback;
}
