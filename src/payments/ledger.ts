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
 * Held charges (a crash must not charge calls nobody saw). A charge can be HELD: the credit is taken and
 * its ledger row written as above (so exactly-once under concurrency is unchanged), and in the same statement a row
 * of `credit_holds` records that its answer has not been delivered yet, until `expires_at`. The surface then
 * settles it: `confirmHold` once the answer was handed to the client's connection (the hold is deleted, the charge
 * stands), `releaseHold` when the connection closed first (the hold is deleted and a `refund` row gives the credit
 * back). A hold nobody settles, because the instance died between the charge and the answer, expires and
 * `refundExpiredHolds` (a background job on every instance) refunds it. Confirm, release and expiry each delete the
 * hold row, so exactly one of them takes effect. The ledger stays append-only: a refund is a row of +1.
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

export type ChargeOutcome =
  | {
      charged: true;
      balance: number;
      /** Set for a held charge: the ledger id of the charge, to pass to confirmHold or releaseHold. */
      hold?: number;
    }
  | { charged: false; balance: number };

interface ChargeRequest {
  accountId: string;
  reference: string | null;
  /** Hold the charge for this many seconds (see above); null charges outright. */
  holdSeconds: number | null;
}
type BatchOutcome = ChargeOutcome | { missing: true };

/**
 * Takes one credit from each requested account that has one, in ONE statement: the requests may name the same
 * account several times (the first ones, in order, are served while its balance lasts). The accounts are locked
 * in id order (no deadlock between concurrent batches), each balance drops by what it can pay, and one ledger row
 * is appended per credit taken, with the balance right after it.
 */
async function chargeBatch(db: Executor, requests: readonly ChargeRequest[]): Promise<BatchOutcome[]> {
  const { rows } = await sql<{ ord: string; found: boolean; charged: boolean; balance: number; hold: string | null }>`
    with req as (
      select r.account_id, r.reference, r.hold_s, r.ord,
             row_number() over (partition by r.account_id order by r.ord) as n
        from unnest(${requests.map((r) => r.accountId)}::text[], ${requests.map((r) => r.reference)}::text[],
                    ${requests.map((r) => r.holdSeconds)}::int[])
             with ordinality as r(account_id, reference, hold_s, ord)
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
      returning id, account_id, balance_after
    ), matched as (
      -- A charge's balance_after is unique within its account in this statement: it names the request.
      select req.ord, req.hold_s, req.reference, e.id as ledger_id, e.account_id
        from req join taken t on t.id = req.account_id
        join entry e on e.account_id = req.account_id and e.balance_after = t.before - req.n
    ), held as (
      insert into credit_holds (ledger_id, account_id, reference, expires_at)
      select ledger_id, account_id, reference, now() + make_interval(secs => hold_s)
        from matched where hold_s is not null
      returning ledger_id
    )
    select req.ord, t.id is not null as found, req.n <= coalesce(t.t, 0) as charged,
           (case when req.n <= coalesce(t.t, 0) then t.before - req.n else 0 end)::int as balance,
           (case when req.hold_s is not null then m.ledger_id end)::text as hold
      from req left join taken t on t.id = req.account_id
      left join matched m on m.ord = req.ord
     order by req.ord`.execute(db);
  return rows.map((row) =>
    !row.found
      ? { missing: true as const }
      : row.charged
        ? row.hold !== null
          ? { charged: true as const, balance: row.balance, hold: Number(row.hold) }
          : { charged: true as const, balance: row.balance }
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
 * `deep-signal:acme`). With `holdSeconds` the charge is held (see above) and `hold` names it: settle it with
 * confirmHold or releaseHold, or it is refunded once it expires. Inside a transaction the statement runs in it, alone.
 */
export async function chargeOneCredit(
  db: Executor,
  accountId: string,
  reference: string | null = null,
  options: { holdSeconds?: number } = {},
): Promise<ChargeOutcome> {
  const request = { accountId, reference, holdSeconds: options.holdSeconds ?? null };
  const outcome = db.isTransaction ? (await chargeBatch(db, [request]))[0]! : await chargesOf(db).submit(request);
  if ('missing' in outcome) throw new AccountNotFoundError(accountId);
  return outcome;
}

/** Deletes the holds of a batch of delivered charges, in one statement; answers whether each hold was still there. */
async function confirmBatch(db: Executor, holds: readonly number[]): Promise<boolean[]> {
  const { rows } = await sql<{ ledger_id: string }>`
    delete from credit_holds where ledger_id = any(${holds.map(String)}::bigint[]) returning ledger_id`.execute(db);
  const confirmed = new Set(rows.map((r) => Number(r.ledger_id)));
  return holds.map((h) => confirmed.has(h));
}
const confirmsOf = coalescerPer(confirmBatch);

/**
 * Deletes the chosen holds (the given ones, or every expired one) and gives their credits back: balance up and
 * consumed down by the number of holds per account, one `refund` ledger row of +1 per hold (reason `undelivered`,
 * the charge's reference). Accounts are locked in id order like charges; expired holds another instance is already
 * refunding are skipped (SKIP LOCKED), so sweeps on several instances never refund one hold twice nor wait on each
 * other. Answers how many holds were refunded.
 */
async function refundHolds(db: Executor, which: { holds: readonly number[] } | { expired: true }): Promise<number> {
  const picked =
    'holds' in which
      ? sql`select ledger_id from credit_holds where ledger_id = any(${which.holds.map(String)}::bigint[])
             order by ledger_id for update`
      : sql`select ledger_id from credit_holds where expires_at < now()
             order by ledger_id limit 10000 for update skip locked`;
  const { rows } = await sql<{ refunded: number }>`
    with picked as (${picked}), gone as (
      delete from credit_holds h using picked p where h.ledger_id = p.ledger_id
      returning h.ledger_id, h.account_id, h.reference
    ), per as (
      select account_id, count(*)::int as k from gone group by account_id
    ), locked as (
      select id, balance from accounts where id in (select account_id from per) order by id for update
    ), refunded as (
      update accounts a set balance = a.balance + per.k, consumed = a.consumed - per.k
        from per where a.id = per.account_id
      returning a.id
    ), entry as (
      insert into credit_ledger (account_id, kind, delta, balance_after, reason, reference)
      select g.account_id, 'refund', 1,
             l.balance + row_number() over (partition by g.account_id order by g.ledger_id), 'undelivered', g.reference
        from gone g join locked l on l.id = g.account_id
       order by g.ledger_id
      returning id
    )
    select count(*)::int as refunded from gone`.execute(db);
  return rows[0]?.refunded ?? 0;
}
const releasesOf = coalescerPer((db: Executor, holds: number[]) =>
  refundHolds(db, { holds }).then(() => holds.map(() => undefined)),
);

/**
 * The held charge's answer reached the client's connection: the charge stands. Group-committed. Resolves true when
 * the hold was confirmed, false when it had already been refunded (it expired first: the call was free).
 */
export function confirmHold(db: Executor, hold: number): Promise<boolean> {
  return confirmsOf(db).submit(hold);
}

/** The held charge's answer could not be delivered: its credit is given back now. Group-committed. */
export function releaseHold(db: Executor, hold: number): Promise<void> {
  return releasesOf(db).submit(hold);
}

/** Refunds every expired hold (the background job; safe on several instances at once). Answers how many. */
export function refundExpiredHolds(db: Executor): Promise<number> {
  return refundHolds(db, { expired: true });
}

/** Holds not settled yet for an account (tests and operations). */
export async function openHolds(db: Executor, accountId: string): Promise<number> {
  const row = await db
    .selectFrom('credit_holds')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return row.n;
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

/**
 * Sums of an account's ledger: granted − charged must equal the balance, charges the consumed count (refunds count
 * against both: `charged` and `charges` are net of them).
 */
export async function ledgerTotals(db: Executor, accountId: string): Promise<LedgerTotals> {
  const row = await db
    .selectFrom('credit_ledger')
    .select([
      sql<number>`coalesce(sum(delta) filter (where kind = 'grant'), 0)::int`.as('granted'),
      sql<number>`coalesce(-sum(delta) filter (where kind in ('charge', 'refund')), 0)::int`.as('charged'),
      sql<number>`(count(*) filter (where kind = 'charge') - count(*) filter (where kind = 'refund'))::int`.as(
        'charges',
      ),
      sql<number>`count(*)::int`.as('entries'),
    ])
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return row;
}
