import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkPayment, type ParsedTransaction } from '../../../src/payments/solana/transfer.js';
import { packPriceRaw } from '../../../src/payments/solana/terms.js';

const MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const PAYEE = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
const PAYEE_ATA = 'FGETo8T8wMcN2wCjav8VK6eh3dLk63evNDPxzLSJra8B';
const expected = { mint: MINT, payee: PAYEE, payeeTokenAccount: PAYEE_ATA };

/** As @solana/kit hands it over: u64 fields (slot, blockTime) as bigint. */
function tx(pre: string | undefined, post: string, err: unknown = null): ParsedTransaction {
  const balance = (amount: string) => ({
    accountIndex: 1,
    mint: MINT,
    owner: PAYEE,
    uiTokenAmount: { amount, decimals: 6 },
  });
  return {
    slot: 18_446_744_073_709_551_615n,
    blockTime: 1_764_000_000n,
    meta: { err, preTokenBalances: pre === undefined ? [] : [balance(pre)], postTokenBalances: [balance(post)] },
    transaction: { message: { accountKeys: [{ pubkey: 'payer' }, { pubkey: PAYEE_ATA }], instructions: [] } },
  };
}

describe('reading a Solana payment', () => {
  test('the price of the pack is 19 whole tokens in raw units of a 6-decimal token', () => {
    assert.equal(packPriceRaw(6), 19_000_000n);
  });

  test('a token account created by the payment (no pre balance) counts from zero; u64 slot survives as bigint', () => {
    const verdict = checkPayment(tx(undefined, '19000000'), expected);
    assert.deepEqual(verdict, {
      ok: true,
      amount: 19_000_000n,
      decimals: 6,
      slot: 18_446_744_073_709_551_615n,
      memoReference: undefined,
    });
  });

  test('the balance change counts, not the balance: an account already holding tokens must still receive the price', () => {
    const verdict = checkPayment(tx('50000000', '60000000'), expected);
    assert.equal(verdict.ok, false);
    assert.equal(!verdict.ok && verdict.status, 402);
  });

  test('amounts beyond 2^53 are exact', () => {
    const verdict = checkPayment(tx('0', '9007199254740993'), expected);
    assert.equal(verdict.ok && verdict.amount, 9_007_199_254_740_993n);
  });
});
