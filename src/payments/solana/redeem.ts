import { isSignature } from '@solana/kit';
import type { Kysely } from 'kysely';
import { ServiceError } from '../../domain/errors.js';
import { inTransaction } from '../../store/periods.js';
import type { Database } from '../../store/schema.js';
import { grantCredits } from '../ledger.js';
import { SolanaRpcUnavailable, type TransactionFetcher } from './rpc.js';
import { payeeTokenAccount, SOLANA_PACK, type SolanaSettings } from './terms.js';
import { checkPayment } from './transfer.js';

export const SOLANA_GRANT_REASON = 'solana-payment';

export interface Redemption {
  signature: string;
  creditsAdded: number;
  balance: number;
  amount: string;
  cluster: string;
}

const alreadyRedeemed = () => new ServiceError('already-redeemed');

/** True for a base58 string that decodes to a 64-byte signature. */
export function isTransactionSignature(text: string): boolean {
  return isSignature(text);
}

/**
 * Redeems one Solana stablecoin payment for a credit pack, exactly once: the signature is inserted under its primary
 * key in the same transaction that grants the credits (one grant statement, one ledger row), so a second redemption
 * (same instance or another, now or later, same account or not) finds the row and answers 409, and a crash between
 * the two writes leaves neither.
 */
export async function redeemSolanaPayment(
  db: Kysely<Database>,
  settings: SolanaSettings,
  fetchTransaction: TransactionFetcher,
  account: { id: string },
  signature: string,
): Promise<Redemption> {
  if (!isTransactionSignature(signature)) {
    throw new ServiceError('not-a-transaction-signature');
  }
  const redeemed = await db
    .selectFrom('solana_redemptions')
    .select('signature')
    .where('signature', '=', signature)
    .executeTakeFirst();
  if (redeemed) throw alreadyRedeemed();

  let tx;
  try {
    tx = await fetchTransaction(signature);
  } catch (err) {
    if (err instanceof SolanaRpcUnavailable) {
      throw new ServiceError('solana-rpc-unreachable', {}, { retryAfterSeconds: 30 });
    }
    throw err;
  }
  const verdict = checkPayment(tx, {
    mint: settings.mint,
    payee: settings.payTo,
    payeeTokenAccount: await payeeTokenAccount(settings),
  });
  if (!verdict.ok) {
    throw new ServiceError(verdict.status === 402 ? 'transfer-not-confirmed' : 'transfer-rejected', {
      reason: verdict.reason,
    });
  }
  if (verdict.memoReference !== undefined && verdict.memoReference !== account.id) {
    throw new ServiceError('memo-for-another-account');
  }

  const balance = await inTransaction(db, async (trx) => {
    const inserted = await trx
      .insertInto('solana_redemptions')
      .values({
        signature,
        cluster: settings.cluster,
        mint: settings.mint,
        account_id: account.id,
        amount: verdict.amount.toString(),
        credits: SOLANA_PACK.credits,
        slot: verdict.slot.toString(),
      })
      .onConflict((oc) => oc.column('signature').doNothing())
      .returning('signature')
      .executeTakeFirst();
    if (!inserted) throw alreadyRedeemed();
    return grantCredits(trx, account.id, SOLANA_PACK.credits, SOLANA_GRANT_REASON, signature);
  });
  return {
    signature,
    creditsAdded: SOLANA_PACK.credits,
    balance,
    amount: verdict.amount.toString(),
    cluster: settings.cluster,
  };
}
