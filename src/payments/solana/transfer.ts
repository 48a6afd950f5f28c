import { MEMO_PREFIX, packPriceRaw } from './terms.js';

/**
 * Reading a payment out of a `getTransaction` answer (encoding jsonParsed). Pure: the RPC call lives in rpc.ts.
 * What counts is the payee token account's balance change for the configured mint (post − pre, raw u64 amounts),
 * which covers `transfer`, `transferChecked` and any program that moved the tokens; the token account is derived by
 * us, so the client cannot name another recipient.
 */

interface TokenBalance {
  accountIndex: number;
  mint: string;
  owner?: string;
  uiTokenAmount: { amount: string; decimals: number };
}

interface ParsedInstruction {
  program?: string;
  programId?: string;
  parsed?: unknown;
}

/** The fields of a jsonParsed transaction we read (kit's type is wider; u64 fields arrive as bigint). */
export interface ParsedTransaction {
  slot: bigint | number;
  blockTime?: bigint | number | null;
  meta: {
    err: unknown;
    preTokenBalances?: readonly TokenBalance[] | null;
    postTokenBalances?: readonly TokenBalance[] | null;
    innerInstructions?: readonly { instructions: readonly ParsedInstruction[] }[] | null;
  } | null;
  transaction: {
    message: {
      accountKeys: readonly ({ pubkey: string } | string)[];
      instructions: readonly ParsedInstruction[];
    };
  };
}

export interface PaymentExpectation {
  mint: string;
  payee: string;
  payeeTokenAccount: string;
}

export type PaymentVerdict =
  | { ok: true; amount: bigint; decimals: number; slot: bigint; memoReference: string | undefined }
  | { ok: false; status: 402 | 422; reason: string };

const MEMO_PROGRAMS = new Set([
  'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr',
  'Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo',
]);

/** Every memo of the transaction (top level and inner instructions), as text. */
function memosOf(tx: ParsedTransaction): string[] {
  const all = [
    ...tx.transaction.message.instructions,
    ...(tx.meta?.innerInstructions ?? []).flatMap((group) => group.instructions),
  ];
  return all
    .filter((ix) => ix.program === 'spl-memo' || (ix.programId !== undefined && MEMO_PROGRAMS.has(ix.programId)))
    .map((ix) => (typeof ix.parsed === 'string' ? ix.parsed : ''))
    .filter(Boolean);
}

/** The account reference of a `signal-service:<reference>` memo, if the transaction carries one. */
export function memoReference(tx: ParsedTransaction): string | undefined {
  for (const memo of memosOf(tx)) {
    const text = memo.trim();
    if (text.startsWith(MEMO_PREFIX)) return text.slice(MEMO_PREFIX.length).trim();
  }
  return undefined;
}

export function checkPayment(tx: ParsedTransaction | null, expected: PaymentExpectation): PaymentVerdict {
  if (!tx || !tx.meta) {
    return { ok: false, status: 402, reason: 'The transaction is not found or not yet confirmed; retry shortly.' };
  }
  if (tx.meta.err !== null && tx.meta.err !== undefined) {
    return { ok: false, status: 422, reason: 'The transaction failed on-chain; no tokens moved.' };
  }
  const keys = tx.transaction.message.accountKeys.map((k) => (typeof k === 'string' ? k : k.pubkey));
  const index = keys.indexOf(expected.payeeTokenAccount);
  const post = (tx.meta.postTokenBalances ?? []).find((b) => b.accountIndex === index && b.mint === expected.mint);
  if (index < 0 || !post) {
    const otherMint = (tx.meta.postTokenBalances ?? []).some(
      (b) => b.owner === expected.payee && b.mint !== expected.mint,
    );
    return {
      ok: false,
      status: 422,
      reason: otherMint
        ? `The transaction paid another token than ${expected.mint}.`
        : 'The transaction paid no tokens to this service’s token account.',
    };
  }
  const pre = (tx.meta.preTokenBalances ?? []).find((b) => b.accountIndex === index && b.mint === expected.mint);
  const received = BigInt(post.uiTokenAmount.amount) - BigInt(pre?.uiTokenAmount.amount ?? '0');
  if (received <= 0n) {
    return { ok: false, status: 422, reason: 'The transaction paid no tokens to this service’s token account.' };
  }
  const decimals = post.uiTokenAmount.decimals;
  const price = packPriceRaw(decimals);
  if (received < price) {
    return {
      ok: false,
      status: 402,
      reason: `The transaction paid ${received} raw units; the pack costs ${price}, paid in one transaction.`,
    };
  }
  return { ok: true, amount: received, decimals, slot: BigInt(tx.slot), memoReference: memoReference(tx) };
}
