import { sql } from 'kysely';
import type { Executor } from './keys.js';

/**
 * The credit ledger. Every change of a balance is ONE SQL statement that updates the account and appends its
 * ledger row together (a data-modifying CTE), so the two can never disagree and no application code reads a balance
 * and writes it back. A charge only happens `WHERE balance >= 1`: PostgreSQL re-checks that condition on the newest
 * row version when concurrent charges queue on the same account, so N credits pay for exactly N calls, on one
 * instance or many, and the CHECK (balance >= 0) constraint backs it up. Credits never expire.
 *
 * Every function takes an executor: the database or a Kysely transaction (`db.transaction().execute(trx => …)`),
 * so a payment rail can record its proof (a Solana signature, a Stripe event) and grant in one transaction.
 */

export class AccountNotFoundError extends Error {
  constructor(readonly accountId: string) {
    super(`no account ${accountId}`);
    this.name = 'AccountNotFoundError';
  }
}

export const MAX_GRANT = 1_000_000;

export interface CreditState {
  balance: number;
  purchased: number;
  consumed: number;
  lastConsumedAt: Date | null;
}

export type ChargeOutcome = { charged: true; balance: number } | { charged: false; balance: number };

/**
 * Takes one credit from the account if it has one: one statement. `balance` is the balance after the charge, or the
 * unchanged balance (0) when there was no credit to take. `reference` says what was bought (e.g. `deep-signal:acme`).
 */
export async function chargeOneCredit(
  db: Executor,
  accountId: string,
  reference: string | null = null,
): Promise<ChargeOutcome> {
  const { rows } = await sql<{ charged_balance: number | null; current_balance: number | null }>`
    with charged as (
      update accounts
         set balance = balance - 1, consumed = consumed + 1, last_consumed_at = now()
       where id = ${accountId} and balance >= 1
      returning id, balance
    ), entry as (
      insert into credit_ledger (account_id, kind, delta, balance_after, reason, reference)
      select id, 'charge', -1, balance, 'deep-signal', ${reference} from charged
      returning id
    )
    select (select balance from charged) as charged_balance,
           (select balance from accounts where id = ${accountId}) as current_balance`.execute(db);
  const row = rows[0];
  if (!row || row.current_balance === null) throw new AccountNotFoundError(accountId);
  return row.charged_balance !== null
    ? { charged: true, balance: row.charged_balance }
    : // Not charged means the newest row version had no credit: 0. (current_balance comes from the statement's
      // snapshot, which may predate a concurrent charge; it only tells that the account exists.)
      { charged: false, balance: 0 };
}

/**
 * Adds credits to an account: one statement (balance and purchased up, one ledger row). Returns the new balance.
 * A grant's `reference` (an external payment id) is unique per `reason`: granting twice for one payment fails with
 * a unique violation, so a retried delivery can never double a pack.
 */
export async function grantCredits(
  db: Executor,
  accountId: string,
  credits: number,
  reason: string,
  reference: string | null = null,
): Promise<number> {
  if (!Number.isInteger(credits) || credits < 1 || credits > MAX_GRANT) {
    throw new RangeError(`credits must be a whole number from 1 to ${MAX_GRANT}`);
  }
  const { rows } = await sql<{ balance: number }>`
    with granted as (
      update accounts
         set balance = balance + ${credits}, purchased = purchased + ${credits}
       where id = ${accountId}
      returning id, balance
    ), entry as (
      insert into credit_ledger (account_id, kind, delta, balance_after, reason, reference)
      select id, 'grant', ${credits}, balance, ${reason}, ${reference} from granted
      returning id
    )
    select balance from granted`.execute(db);
  if (!rows[0]) throw new AccountNotFoundError(accountId);
  return rows[0].balance;
}

export async function creditState(db: Executor, accountId: string): Promise<CreditState | undefined> {
  const row = await db
    .selectFrom('accounts')
    .select(['balance', 'purchased', 'consumed', 'last_consumed_at'])
    .where('id', '=', accountId)
    .executeTakeFirst();
  return (
    row && {
      balance: row.balance,
      purchased: row.purchased,
      consumed: row.consumed,
      lastConsumedAt: row.last_consumed_at,
    }
  );
}

export interface LedgerTotals {
  granted: number;
  charged: number;
  charges: number;
  entries: number;
}

/** Sums of an account's ledger: granted − charged must equal the balance, charges the consumed count. */
export async function ledgerTotals(db: Executor, accountId: string): Promise<LedgerTotals> {
  const row = await db
    .selectFrom('credit_ledger')
    .select([
      sql<number>`coalesce(sum(delta) filter (where kind = 'grant'), 0)::int`.as('granted'),
      sql<number>`coalesce(-sum(delta) filter (where kind = 'charge'), 0)::int`.as('charged'),
      sql<number>`count(*) filter (where kind = 'charge')::int`.as('charges'),
      sql<number>`count(*)::int`.as('entries'),
    ])
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return row;
}
