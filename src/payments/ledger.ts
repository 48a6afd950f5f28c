import { sql } from 'kysely';
import { coalescerPer } from '../store/coalesce.js';
import type { Executor } from '../store/schema.js';

/**
 * The credit ledger. Every change of a balance is ONE SQL statement that updates the account and appends its
 * ledger row together (a data-modifying CTE), so the two can never disagree and no application code reads a balance
 * and writes it back. A charge locks the account row (`FOR UPDATE`, which waits for and then reads the newest row
 * version when concurrent charges queue on the same account) and takes at most its balance, so N credits pay for
 * exactly N calls, on one instance or many, and the CHECK (balance >= 0) constraint backs it up. Charges are
 * group-committed (several calls in one statement under load). Credits never expire.
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

interface ChargeRequest {
  accountId: string;
  reference: string | null;
}
type BatchOutcome = ChargeOutcome | { missing: true };

/**
 * Takes one credit from each requested account that has one, in ONE statement: the requests may name the same
 * account several times (the first ones, in order, are served while its balance lasts). The accounts are locked
 * in id order (no deadlock between concurrent batches), each balance drops by what it can pay, and one ledger row
 * is appended per credit taken, with the balance right after it.
 */
async function chargeBatch(db: Executor, requests: readonly ChargeRequest[]): Promise<BatchOutcome[]> {
  const { rows } = await sql<{ ord: string; found: boolean; charged: boolean; balance: number }>`
    with req as (
      select r.account_id, r.reference, r.ord,
             row_number() over (partition by r.account_id order by r.ord) as n
        from unnest(${requests.map((r) => r.accountId)}::text[], ${requests.map((r) => r.reference)}::text[])
             with ordinality as r(account_id, reference, ord)
    ), wanted as (
      select account_id, count(*) as k from req group by account_id
    ), locked as (
      select id, balance from accounts where id in (select account_id from wanted) order by id for update
    ), taken as (
      select l.id, l.balance as before, least(w.k, l.balance) as t from locked l join wanted w on w.account_id = l.id
    ), charged as (
      update accounts a
         set balance = a.balance - t.t, consumed = a.consumed + t.t, last_consumed_at = now()
        from taken t
       where a.id = t.id and t.t > 0
      returning a.id
    ), entry as (
      insert into credit_ledger (account_id, kind, delta, balance_after, reason, reference)
      select req.account_id, 'charge', -1, t.before - req.n, 'deep-signal', req.reference
        from req join taken t on t.id = req.account_id
       where req.n <= t.t
       order by req.ord
      returning id
    )
    select req.ord, t.id is not null as found, req.n <= coalesce(t.t, 0) as charged,
           (case when req.n <= coalesce(t.t, 0) then t.before - req.n else 0 end)::int as balance
      from req left join taken t on t.id = req.account_id
     order by req.ord`.execute(db);
  return rows.map((row) =>
    !row.found
      ? { missing: true as const }
      : row.charged
        ? { charged: true as const, balance: row.balance }
        : // Not charged means the newest row version had no credit left: 0.
          { charged: false as const, balance: 0 },
  );
}

/**
 * Charges from the root database handle are group-committed: calls that arrive while a batch runs go together in
 * the next one (one statement, one commit), a few batches at a time. At low load a call runs alone and at once.
 */
const chargesOf = coalescerPer(chargeBatch);

/**
 * Takes one credit from the account if it has one, in one atomic statement (see chargeBatch). `balance` is the
 * balance after the charge, or 0 when there was no credit to take. `reference` says what was bought (e.g.
 * `deep-signal:acme`). Inside a transaction the statement runs in it, alone.
 */
export async function chargeOneCredit(
  db: Executor,
  accountId: string,
  reference: string | null = null,
): Promise<ChargeOutcome> {
  const request = { accountId, reference };
  const outcome = db.isTransaction ? (await chargeBatch(db, [request]))[0]! : await chargesOf(db).submit(request);
  if ('missing' in outcome) throw new AccountNotFoundError(accountId);
  return outcome;
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
