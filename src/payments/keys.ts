import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { coalescerPer } from '../store/coalesce.js';
import { inTransaction } from '../store/periods.js';
import type { AccountRow, Executor } from '../store/schema.js';
import { grantCredits } from './ledger.js';

/**
 * Credit-pack keys. A key is `sigsk_` followed by 32 random bytes in base64url (43 characters): 256 bits, so a
 * plain SHA-256 of it is a safe thing to store and to look it up by (a slow password hash protects guessable
 * secrets; this one cannot be guessed). Only the hash and a short fingerprint (the first 12 hex digits of that hash)
 * are stored; the key itself is shown once, when it is created, and never logged.
 *
 * Every function takes an executor: the database, or a transaction when the caller needs several writes to commit
 * together (a Stripe webhook creates a key, grants its pack and marks the event handled in one transaction).
 */
export const KEY_PREFIX = 'sigsk_';
const KEY_BYTES = 32;
const KEY_PATTERN = /^sigsk_[A-Za-z0-9_-]{43}$/;
const FINGERPRINT_DIGITS = 12;

export interface CreatedKey {
  id: string;
  accountId: string;
  /** The secret itself: show it once, never store or log it. */
  key: string;
  fingerprint: string;
}

export interface KeyAccount extends AccountRow {
  keyId: string;
}

export interface KeyListing {
  id: string;
  accountId: string;
  fingerprint: string;
  label: string | null;
  email: string | null;
  createdAt: Date;
  revokedAt: Date | null;
  balance: number;
  purchased: number;
  consumed: number;
}

export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function fingerprintOf(key: string): string {
  return hashKey(key).slice(0, FINGERPRINT_DIGITS);
}

/** True when the text has the shape of a key (checked before any database look-up). */
export function looksLikeKey(text: string): boolean {
  return KEY_PATTERN.test(text);
}

export function generateKey(): string {
  return `${KEY_PREFIX}${randomBytes(KEY_BYTES).toString('base64url')}`;
}

const newId = (prefix: string) => `${prefix}_${randomBytes(10).toString('hex')}`;

export async function createAccount(db: Executor, input: { email?: string | null } = {}): Promise<string> {
  const id = newId('acct');
  await db
    .insertInto('accounts')
    .values({ id, email: input.email ?? null })
    .execute();
  return id;
}

/** A new key for an existing account. */
export async function createKey(
  db: Executor,
  accountId: string,
  input: { label?: string | null } = {},
): Promise<CreatedKey> {
  const key = generateKey();
  const id = newId('key');
  const fingerprint = fingerprintOf(key);
  await db
    .insertInto('api_keys')
    .values({ id, account_id: accountId, key_hash: hashKey(key), fingerprint, label: input.label ?? null })
    .execute();
  return { id, accountId, key, fingerprint };
}

export interface IssueKeyInput {
  credits: number;
  email?: string | null;
  label?: string | null;
  /** Why the credits were granted (`cli`, `stripe-checkout`, …) and the external reference, for the ledger. */
  reason: string;
  reference?: string | null;
}

/**
 * A new account with a new key and its opening credits, in one transaction (the caller's, when it passes one).
 * `credits` may be 0 (a key to top up later).
 */
export async function issueKey(db: Executor, input: IssueKeyInput): Promise<CreatedKey & { balance: number }> {
  return inTransaction(db, async (trx) => {
    const accountId = await createAccount(trx, { email: input.email ?? null });
    const created = await createKey(trx, accountId, { label: input.label ?? null });
    const balance =
      input.credits > 0 ? await grantCredits(trx, accountId, input.credits, input.reason, input.reference ?? null) : 0;
    return { ...created, balance };
  });
}

/** Key look-ups by hash, from many requests at once: one statement for all that queued while others ran. */
async function accountsByHash(db: Executor, hashes: readonly string[]): Promise<(KeyAccount | undefined)[]> {
  const rows = await db
    .selectFrom('api_keys')
    .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
    .selectAll('accounts')
    .select(['api_keys.id as keyId', 'api_keys.key_hash'])
    .where('api_keys.key_hash', 'in', [...new Set(hashes)])
    .where('api_keys.revoked_at', 'is', null)
    .execute();
  const byHash = new Map(rows.map(({ key_hash, ...account }) => [key_hash, account]));
  return hashes.map((hash) => byHash.get(hash));
}

const lookupsOf = coalescerPer(accountsByHash);

/** The account a presented key opens, or undefined for a malformed, unknown or revoked key. */
export async function findAccountByKey(db: Executor, presented: string): Promise<KeyAccount | undefined> {
  if (!looksLikeKey(presented)) return undefined;
  const hash = hashKey(presented);
  return db.isTransaction ? (await accountsByHash(db, [hash]))[0] : lookupsOf(db).submit(hash);
}

export type RevokeOutcome = 'revoked' | 'already-revoked' | 'unknown';

export async function revokeKey(db: Executor, keyId: string): Promise<RevokeOutcome> {
  const updated = await db
    .updateTable('api_keys')
    .set({ revoked_at: sql<Date>`now()` })
    .where('id', '=', keyId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) > 0) return 'revoked';
  const exists = await db.selectFrom('api_keys').select('id').where('id', '=', keyId).executeTakeFirst();
  return exists ? 'already-revoked' : 'unknown';
}

export async function findKey(
  db: Executor,
  keyId: string,
): Promise<{ id: string; accountId: string; revokedAt: Date | null } | undefined> {
  return db
    .selectFrom('api_keys')
    .select(['id', 'account_id as accountId', 'revoked_at as revokedAt'])
    .where('id', '=', keyId)
    .executeTakeFirst();
}

/** Every key, newest first, with its account's credit state; no secret (there is none to show). */
export async function listKeys(db: Executor): Promise<KeyListing[]> {
  return db
    .selectFrom('api_keys')
    .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
    .select([
      'api_keys.id',
      'api_keys.account_id as accountId',
      'api_keys.fingerprint',
      'api_keys.label',
      'accounts.email',
      'api_keys.created_at as createdAt',
      'api_keys.revoked_at as revokedAt',
      'accounts.balance',
      'accounts.purchased',
      'accounts.consumed',
    ])
    .orderBy('api_keys.created_at', 'desc')
    .orderBy('api_keys.id')
    .execute();
}
