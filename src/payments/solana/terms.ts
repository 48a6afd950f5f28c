import { findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { address } from '@solana/kit';
import { SOLANA_CREDIT_PACK, STABLECOIN } from '../../core/documents/pricing.js';

export type SolanaCluster = 'devnet' | 'testnet' | 'mainnet-beta';

export interface SolanaSettings {
  cluster: SolanaCluster;
  /** The wallet that is paid (the owner of the receiving token account). */
  payTo: string;
  mint: string;
  rpcUrl: string;
  commitment: 'confirmed' | 'finalized';
}

/** Memos of the form `signal-service:<accountReference>` bind a payment to one account. */
export const MEMO_PREFIX = 'signal-service:';

/** The pack: credits granted for one payment of at least `priceCents` of the stablecoin (pricing.ts). */
export const SOLANA_PACK = { credits: SOLANA_CREDIT_PACK.credits, priceCents: SOLANA_CREDIT_PACK.priceCents };

/** The price in raw units of a token with `decimals` decimals: 1900 cents of a 6-decimal token → 19000000n. */
export function packPriceRaw(decimals: number): bigint {
  const cents = BigInt(SOLANA_PACK.priceCents);
  return decimals >= 2 ? cents * 10n ** BigInt(decimals - 2) : cents / 10n ** BigInt(2 - decimals);
}

/**
 * Where the payment must land: the payee's associated token account for the mint (classic Token program, as USDC
 * uses), derived here from configuration and never taken from the client.
 */
export async function payeeTokenAccount(settings: Pick<SolanaSettings, 'payTo' | 'mint'>): Promise<string> {
  const [ata] = await findAssociatedTokenPda({
    owner: address(settings.payTo),
    mint: address(settings.mint),
    tokenProgram: TOKEN_PROGRAM_ADDRESS,
  });
  return ata;
}

/** GET /api/agent/deep-signal/solana: the terms, under `accepts`. */
export async function solanaTerms(settings: SolanaSettings, redeemUrl: string, creditsUrl: string) {
  const decimals = STABLECOIN.decimals;
  const raw = packPriceRaw(decimals);
  const tokenAccount = await payeeTokenAccount(settings);
  const whole = `${raw / 10n ** BigInt(decimals)}.${(raw % 10n ** BigInt(decimals)).toString().padStart(decimals, '0')}`;
  return {
    accepts: [
      {
        scheme: 'solana-spl-transfer' as const,
        cluster: settings.cluster,
        mint: settings.mint,
        asset: STABLECOIN.asset,
        decimals,
        payTo: settings.payTo,
        payToTokenAccount: tokenAccount,
        amount: raw.toString(),
        uiAmount: whole,
        credits: SOLANA_PACK.credits,
        memo: `${MEMO_PREFIX}<accountReference>`,
        redeem: {
          method: 'POST' as const,
          url: redeemUrl,
          body: '{"signature": "<base58 transaction signature>"}',
          authentication: 'Authorization: Bearer <API_KEY>',
        },
        howToPay: [
          `Send at least ${whole} ${STABLECOIN.asset} (mint ${settings.mint}) on Solana ${settings.cluster} to ${settings.payTo}; the tokens must arrive in its associated token account ${tokenAccount}.`,
          `Optional but recommended: add the memo "${MEMO_PREFIX}<accountReference>" (the X-Account-Reference header of GET ${creditsUrl}) so only your key can redeem the payment.`,
          `Once the transaction is ${settings.commitment}, POST its signature to ${redeemUrl} with your key: ${SOLANA_PACK.credits} credits are added. Each signature is redeemable once.`,
        ],
      },
    ],
  };
}
