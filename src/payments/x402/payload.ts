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

/** Far above any real payment header; a bigger one is refused before decoding. */
export const MAX_PAYMENT_HEADER_LENGTH = 12 * 1024;

export class MalformedPayment extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'MalformedPayment';
  }
}

/** Decodes an `X-PAYMENT` header, or throws MalformedPayment saying what is wrong (never echoing the header). */
export function decodePaymentHeader(header: string): ExactEvmPaymentPayload {
  const text = header.trim();
  if (text.length === 0 || text.length > MAX_PAYMENT_HEADER_LENGTH) {
    throw new MalformedPayment('X-PAYMENT must be base64 of a JSON payment payload.');
  }
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) throw new MalformedPayment('X-PAYMENT is not base64.');
  let json: unknown;
  try {
    json = JSON.parse(
      Buffer.from(text, text.includes('-') || text.includes('_') ? 'base64url' : 'base64').toString('utf8'),
    );
  } catch {
    throw new MalformedPayment('X-PAYMENT does not decode to JSON.');
  }
  const parsed = ExactEvmPaymentPayload.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new MalformedPayment(
      `X-PAYMENT payload is invalid: ${issue?.path.join('.') || 'payload'} ${issue?.message ?? ''}`.trim(),
    );
  }
  return parsed.data;
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
