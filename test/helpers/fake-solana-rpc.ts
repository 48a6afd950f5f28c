import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { address, generateKeyPairSigner, getBase58Decoder } from '@solana/kit';

/**
 * A local Solana JSON-RPC node on 127.0.0.1 that answers `getTransaction` from a table of realistic jsonParsed
 * transactions (shaped as a mainnet node returns them) and records each request's parameters.
 */
export interface FakeSolanaRpc {
  url: string;
  transactions: Map<string, unknown>;
  requests: { method: string; params: unknown[] }[];
  close(): Promise<void>;
}

export async function startFakeSolanaRpc(): Promise<FakeSolanaRpc> {
  const state: FakeSolanaRpc = { url: '', transactions: new Map(), requests: [], close: async () => {} };
  const server: Server = createServer(async (req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const call = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    state.requests.push({ method: call.method, params: call.params });
    const result = call.method === 'getTransaction' ? (state.transactions.get(call.params[0]) ?? null) : null;
    res.writeHead(200, { 'content-type': 'application/json' });
    // Serialised by hand so large integers stay JSON numbers, as a node sends them.
    res.end(`{"jsonrpc":"2.0","id":${JSON.stringify(call.id)},"result":${JSON.stringify(result)}}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return state;
}

export const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
export const MEMO_PROGRAM = 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr';

export function randomSignature(): string {
  return getBase58Decoder().decode(randomBytes(64));
}

export async function randomAddress(): Promise<string> {
  return (await generateKeyPairSigner()).address;
}

export async function ataOf(owner: string, mint: string): Promise<string> {
  const [ata] = await findAssociatedTokenPda({
    owner: address(owner),
    mint: address(mint),
    tokenProgram: TOKEN_PROGRAM_ADDRESS,
  });
  return ata;
}

export interface TransferSpec {
  signature: string;
  mint: string;
  /** The wallet the tokens go to (its associated token account receives them). */
  recipient: string;
  /** Raw units moved. */
  amount: bigint;
  /** Raw balance of the recipient's token account before. */
  recipientBefore?: bigint;
  failed?: boolean;
  memo?: string;
  version?: 0 | 'legacy';
  decimals?: number;
}

const ui = (raw: bigint, decimals: number) => {
  const s = raw.toString().padStart(decimals + 1, '0');
  const whole = `${s.slice(0, -decimals)}.${s.slice(-decimals)}`.replace(/\.?0+$/, '');
  return { amount: raw.toString(), decimals, uiAmount: Number(whole), uiAmountString: whole };
};

/** A `transferChecked` from a fresh payer to `recipient`, as getTransaction(jsonParsed) returns it. */
export async function transferTransaction(spec: TransferSpec): Promise<unknown> {
  const decimals = spec.decimals ?? 6;
  const payer = await randomAddress();
  const payerAta = await ataOf(payer, spec.mint);
  const recipientAta = await ataOf(spec.recipient, spec.mint);
  const payerBefore = 500_000_000n;
  const recipientBefore = spec.recipientBefore ?? 0n;
  const moved = spec.failed ? 0n : spec.amount;
  const balance = (index: number, owner: string, raw: bigint) => ({
    accountIndex: index,
    mint: spec.mint,
    owner,
    programId: TOKEN_PROGRAM,
    uiTokenAmount: ui(raw, decimals),
  });
  const err = spec.failed ? { InstructionError: [0, { Custom: 1 }] } : null;
  const instructions: unknown[] = [
    {
      parsed: {
        info: {
          authority: payer,
          destination: recipientAta,
          mint: spec.mint,
          source: payerAta,
          tokenAmount: ui(spec.amount, decimals),
        },
        type: 'transferChecked',
      },
      program: 'spl-token',
      programId: TOKEN_PROGRAM,
      stackHeight: null,
    },
  ];
  const accountKeys = [
    { pubkey: payer, signer: true, source: 'transaction', writable: true },
    { pubkey: payerAta, signer: false, source: 'transaction', writable: true },
    { pubkey: recipientAta, signer: false, source: 'transaction', writable: true },
    { pubkey: spec.mint, signer: false, source: 'transaction', writable: false },
    { pubkey: TOKEN_PROGRAM, signer: false, source: 'transaction', writable: false },
  ];
  if (spec.memo !== undefined) {
    accountKeys.push({ pubkey: MEMO_PROGRAM, signer: false, source: 'transaction', writable: false });
    instructions.push({ parsed: spec.memo, program: 'spl-memo', programId: MEMO_PROGRAM, stackHeight: null });
  }
  const version = spec.version ?? 0;
  return {
    blockTime: 1_764_000_000,
    meta: {
      computeUnitsConsumed: 6_336,
      err,
      fee: 5_000,
      innerInstructions: [],
      logMessages: [
        `Program ${TOKEN_PROGRAM} invoke [1]`,
        'Program log: Instruction: TransferChecked',
        spec.failed ? `Program ${TOKEN_PROGRAM} failed: custom program error: 0x1` : `Program ${TOKEN_PROGRAM} success`,
      ],
      postBalances: [1_461_600_000, 2_039_280, 2_039_280, 1_461_600, 934_087_680],
      postTokenBalances: [balance(1, payer, payerBefore - moved), balance(2, spec.recipient, recipientBefore + moved)],
      preBalances: [1_461_605_000, 2_039_280, 2_039_280, 1_461_600, 934_087_680],
      preTokenBalances: [balance(1, payer, payerBefore), balance(2, spec.recipient, recipientBefore)],
      rewards: [],
      status: err ? { Err: err } : { Ok: null },
      ...(version === 0 ? { loadedAddresses: { readonly: [], writable: [] } } : {}),
    },
    slot: 384_123_456,
    transaction: {
      message: {
        accountKeys,
        ...(version === 0 ? { addressTableLookups: [] } : {}),
        instructions,
        recentBlockhash: getBase58Decoder().decode(randomBytes(32)),
      },
      signatures: [spec.signature],
    },
    version,
  };
}
