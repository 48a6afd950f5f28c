import { z } from 'zod';

/**
 * The `X-PAYMENT` header of x402 v1: base64 of JSON `{x402Version, scheme, network, payload: {signature,
 * authorization}}` for the "exact" EVM scheme. Numbers are decimal strings; the nonce is 0x and 64 hex digits.
 */
const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'must be an EVM address');
const uint256 = z.string().regex(/^(0|[1-9]\d{0,77})$/, 'must be a decimal integer string');

export const ExactEvmPaymentPayload = z.object({
  x402Version: z.number().int(),
  scheme: z.string().min(1).max(32),
  network: z.string().min(1).max(64),
  payload: z.object({
    // 65 bytes for an EOA; smart wallets (ERC-1271, ERC-6492 wrapped) send longer signatures.
    signature: z.string().regex(/^0x[0-9a-fA-F]{2,4096}$/, 'must be a 0x hex signature'),
    authorization: z.object({
      from: address,
      to: address,
      value: uint256,
      validAfter: uint256,
      validBefore: uint256,
      nonce: z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'must be 0x and 64 hex digits'),
    }),
  }),
});
export type ExactEvmPaymentPayload = z.infer<typeof ExactEvmPaymentPayload>;

/**
 * The `PAYMENT-SIGNATURE` header of x402 v2: base64 of JSON `{x402Version: 2, resource?, accepted, payload,
 * extensions?}`, where `accepted` is the requirements entry the client chose (copied from the 402) and `payload` is
 * the same EIP-3009 authorization and signature as in v1.
 */
export const ExactEvmPaymentPayloadV2 = z.object({
  x402Version: z.number().int(),
  resource: z
    .object({ url: z.string().max(2048) })
    .loose()
    .optional(),
  accepted: z
    .object({
      scheme: z.string().min(1).max(32),
      network: z.string().min(1).max(64),
      amount: uint256,
      asset: address,
      payTo: address,
    })
    .loose(),
  payload: ExactEvmPaymentPayload.shape.payload,
  extensions: z.record(z.string(), z.unknown()).optional(),
});
export type ExactEvmPaymentPayloadV2 = z.infer<typeof ExactEvmPaymentPayloadV2>;

/** Far above any real payment header; a bigger one is refused before decoding. */
export const MAX_PAYMENT_HEADER_LENGTH = 12 * 1024;

export class MalformedPayment extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'MalformedPayment';
  }
}

/** Base64 (standard or URL-safe) of JSON, checked against `schema`; MalformedPayment names what is wrong. */
function decodeHeader<T>(header: string, name: string, schema: z.ZodType<T>): T {
  const text = header.trim();
  if (text.length === 0 || text.length > MAX_PAYMENT_HEADER_LENGTH) {
    throw new MalformedPayment(`${name} must be base64 of a JSON payment payload.`);
  }
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) throw new MalformedPayment(`${name} is not base64.`);
  let json: unknown;
  try {
    json = JSON.parse(
      Buffer.from(text, text.includes('-') || text.includes('_') ? 'base64url' : 'base64').toString('utf8'),
    );
  } catch {
    throw new MalformedPayment(`${name} does not decode to JSON.`);
  }
  return checked(json, name, schema);
}

/** A decoded payment checked against `schema`; MalformedPayment names the first field that is wrong. */
function checked<T>(json: unknown, name: string, schema: z.ZodType<T>): T {
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new MalformedPayment(
      `${name} payload is invalid: ${issue?.path.join('.') || 'payload'} ${issue?.message ?? ''}`.trim(),
    );
  }
  return parsed.data;
}

/** Decodes an `X-PAYMENT` header (v1), or throws MalformedPayment saying what is wrong (never echoing the header). */
export function decodePaymentHeader(header: string): ExactEvmPaymentPayload {
  return decodeHeader(header, 'X-PAYMENT', ExactEvmPaymentPayload);
}

/** Decodes a `PAYMENT-SIGNATURE` header (v2), or throws MalformedPayment. */
export function decodePaymentSignatureHeader(header: string): ExactEvmPaymentPayloadV2 {
  return decodeHeader(header, 'PAYMENT-SIGNATURE', ExactEvmPaymentPayloadV2);
}

/**
 * The payment of x402 v2's MCP binding: the same payload as `PAYMENT-SIGNATURE`, sent as a JSON value in a tool
 * call's `_meta["x402/payment"]` instead of a base64 header; MalformedPayment when it is not one.
 */
export function parsePaymentPayloadV2(value: unknown, name: string): ExactEvmPaymentPayloadV2 {
  if (JSON.stringify(value ?? null).length > MAX_PAYMENT_HEADER_LENGTH) {
    throw new MalformedPayment(`${name} is far larger than any payment payload.`);
  }
  return checked(value, name, ExactEvmPaymentPayloadV2);
}

/** What `X-PAYMENT-RESPONSE` carries: the hash under both names clients read (`txHash` and `transaction`). */
export interface SettlementReceipt {
  success: true;
  txHash: string;
  transaction: string;
  network: string;
  payer: string;
}

export function encodePaymentResponse(receipt: SettlementReceipt): string {
  return Buffer.from(JSON.stringify(receipt), 'utf8').toString('base64');
}

/** What `PAYMENT-RESPONSE` (v2) carries: the facilitator's settle response, network as its CAIP-2 id. */
export interface SettlementResponseV2 {
  success: true;
  transaction: string;
  network: string;
  payer: string;
  amount: string;
}

export function encodePaymentResponseV2(response: SettlementResponseV2): string {
  return Buffer.from(JSON.stringify(response), 'utf8').toString('base64');
}
