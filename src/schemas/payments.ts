import { z } from 'zod';

/** x402 v1 PaymentRequirements: what the 402 answer of the x402 route offers. */
export const X402PaymentRequirements = z
  .object({
    scheme: z.literal('exact'),
    network: z.enum(['base', 'base-sepolia']),
    maxAmountRequired: z.string().describe('Price in atomic units of the asset (USDC has 6 decimals): "190000".'),
    resource: z.string().describe('Absolute URL of the paid resource.'),
    description: z.string(),
    mimeType: z.string(),
    payTo: z.string().describe('Checksummed EVM address that receives the payment.'),
    maxTimeoutSeconds: z.int(),
    asset: z.string().describe("Checksummed address of the network's USDC contract."),
    outputSchema: z.record(z.string(), z.unknown()).describe('How to call the resource and what it answers.'),
    extra: z
      .object({ name: z.string(), version: z.string() })
      .describe("The token's EIP-712 domain name and version, needed to sign the authorization."),
  })
  .meta({ id: 'X402PaymentRequirements' });

export const X402PaymentRequired = z
  .object({
    x402Version: z.literal(1),
    error: z.string().describe('Why payment is (still) required: a reason code, or "X-PAYMENT header is required".'),
    accepts: z.array(X402PaymentRequirements),
  })
  .meta({ id: 'X402PaymentRequired', description: 'x402 v1 payment-required answer.' });

/** GET /api/agent/deep-signal/solana: the terms of a Solana credit pack. */
export const SolanaPaymentTerms = z
  .object({
    scheme: z.literal('solana-spl-transfer'),
    cluster: z.enum(['devnet', 'testnet', 'mainnet-beta']),
    mint: z.string().describe('The SPL token mint to pay in (USDC by default).'),
    asset: z.string().describe('Symbol of the token.'),
    decimals: z.int(),
    payTo: z.string().describe('Wallet that receives the payment (its associated token account for the mint).'),
    payToTokenAccount: z.string().describe('The associated token account of payTo for the mint: where the tokens go.'),
    amount: z.string().describe('Minimum amount in raw token units (u64 as a decimal string).'),
    uiAmount: z.string().describe('The same amount in whole tokens.'),
    credits: z.int().describe('Credits granted for one payment.'),
    memo: z
      .string()
      .describe(
        'Optional binding: a memo "signal-service:<accountReference>" (the X-Account-Reference header of GET /api/account/credits) makes the payment redeemable only by that account.',
      ),
    redeem: z.object({ method: z.literal('POST'), url: z.string(), body: z.string(), authentication: z.string() }),
    howToPay: z.array(z.string()),
  })
  .meta({ id: 'SolanaPaymentTerms' });

export const SolanaTermsResponse = z
  .object({ accepts: z.array(SolanaPaymentTerms) })
  .meta({ id: 'SolanaTermsResponse', description: 'How to buy a credit pack with a Solana stablecoin transfer.' });

export const SolanaRedeemRequest = z
  .object({
    signature: z
      .string()
      .min(1)
      .max(100)
      .describe('The base58 signature of the transfer transaction (87 or 88 characters).'),
  })
  .strict()
  .meta({ id: 'SolanaRedeemRequest' });

export const SolanaRedeemResponse = z
  .object({
    signature: z.string(),
    creditsAdded: z.int().min(1),
    balance: z.int().min(0).describe('The key’s credit balance after the grant.'),
    amount: z.string().describe('Raw token units received.'),
    cluster: z.string(),
  })
  .meta({ id: 'SolanaRedeemResponse' });

/** x402 v2 PaymentRequirements (an entry of `accepts` in the PAYMENT-REQUIRED header). */
export const X402PaymentRequirementsV2 = z
  .object({
    scheme: z.literal('exact'),
    network: z
      .enum(['eip155:8453', 'eip155:84532'])
      .describe('CAIP-2 id: eip155:8453 is Base, eip155:84532 Base Sepolia.'),
    amount: z.string().describe('Price in atomic units of the asset (USDC has 6 decimals): "190000".'),
    asset: z.string().describe("Checksummed address of the network's USDC contract."),
    payTo: z.string().describe('Checksummed EVM address that receives the payment.'),
    maxTimeoutSeconds: z.int(),
    extra: z
      .object({ name: z.string(), version: z.string() })
      .describe("The token's EIP-712 domain name and version, needed to sign the authorization."),
  })
  .meta({ id: 'X402PaymentRequirementsV2' });

export const X402PaymentRequiredV2 = z
  .object({
    x402Version: z.literal(2),
    error: z.string().describe('Why payment is (still) required: a reason code, or "X-PAYMENT header is required".'),
    resource: z.object({ url: z.string(), description: z.string(), mimeType: z.string() }),
    accepts: z.array(X402PaymentRequirementsV2),
    extensions: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('Declarations beside the offer (MCP: `bazaar`, the discovery declaration of the paid tool).'),
  })
  .meta({
    id: 'X402PaymentRequiredV2',
    description: 'x402 v2 payment-required answer: the JSON carried base64-encoded in the PAYMENT-REQUIRED header.',
  });

export const X402PaymentResponseV2 = z
  .object({
    success: z.literal(true),
    transaction: z
      .string()
      .describe('Hash of the settlement transaction; empty when a settlement found later has no known transaction.'),
    network: z.string().describe('CAIP-2 id of the network.'),
    payer: z.string(),
    amount: z.string(),
  })
  .meta({
    id: 'X402PaymentResponseV2',
    description: 'x402 v2 settlement: the JSON carried base64-encoded in the PAYMENT-RESPONSE header.',
  });
