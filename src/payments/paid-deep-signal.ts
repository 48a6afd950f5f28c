import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { deepSignal } from '../core/deep-signal/index.js';
import {
  codeForStatus,
  ERROR_CODES,
  fail,
  ServiceError,
  succeed,
  type ErrorCode,
  type Outcome,
} from '../domain/errors.js';
import type { DeepSignal, DeepSignalMiss } from '../schemas/deep-signal.js';
import type { Snapshot } from '../snapshot/snapshot.js';
import type { Executor } from '../store/schema.js';
import { countCreditsCharged } from '../metrics.js';
import { chargeOneCredit } from './ledger.js';

/**
 * A Deep Signal call paid with credits: look the startup up, charge one credit for a hit, answer. With an
 * Idempotency-Key (Stripe's semantics) the answer is recorded in the same transaction as the charge, so a retry
 * with the same key and body within IDEMPOTENCY_WINDOW_HOURS gets the first answer again (the same value, so the
 * same bytes) and is not charged again; the same key with another body is refused (422); a retry that arrives while
 * the first is still running waits for it (an advisory lock on the key), then replays it. Only answers that ran are
 * recorded (a body, or no credit left): a request refused before it ran (bad body, bad key) records nothing.
 *
 * A miss is free and answers 200 `{found:false, charged:0}` whatever the balance, including 0: the spec's 402 is
 * "insufficient credits", and a miss needs none.
 */
export const IDEMPOTENCY_WINDOW_HOURS = 24;
/** How long a retry waits for a concurrent request with the same key before it gets 409. */
export const IDEMPOTENCY_WAIT_MS = 10_000;
export const DEEP_SIGNAL_PATH = '/api/agent/deep-signal';

export interface PaidAnswer {
  /**
   * The Deep Signal body (a hit, or the free miss `{found:false, charged:0}`), or the error in its place:
   * insufficient-credits (402), request-in-progress (409), idempotency-key-reused (422).
   */
  outcome: Outcome<DeepSignal | DeepSignalMiss>;
  /** The balance to report (X-Credits-Balance over HTTP). */
  balance: number;
  /** True when this is the recorded answer of an earlier request with the same Idempotency-Key. */
  replayed: boolean;
  /**
   * A held charge (only when the call asked for `holdSeconds` and was charged without an Idempotency-Key): the caller
   * must settle it, confirmHold once the answer is handed to the client's connection, releaseHold if it cannot be;
   * unsettled, it is refunded when it expires.
   */
  hold?: number;
}

export interface PaidCall {
  db: Executor;
  snapshot: Snapshot;
  account: { id: string; balance: number };
  name: string;
  idempotencyKey?: string | undefined;
  /**
   * Hold a charge made without an Idempotency-Key for this many seconds until the surface confirms its delivery
   * (see src/payments/ledger.ts). Without it the charge stands at once. With an Idempotency-Key the charge commits
   * with its recorded answer, so a client whose answer was lost learns it by retrying: no hold is needed.
   */
  holdSeconds?: number;
}

const refused = (error: ServiceError, balance: number): PaidAnswer => ({
  outcome: fail(error),
  balance,
  replayed: false,
});
const answered = (body: DeepSignal | DeepSignalMiss, balance: number): PaidAnswer => ({
  outcome: succeed(body),
  balance,
  replayed: false,
});

const noCredit = () => refused(new ServiceError('insufficient-credits'), 0);

/** Each payload is serialised once for its record: payloads are shared and frozen (see deepSignal). */
const serialised = new WeakMap<object, string>();
function json(body: object): string {
  let text = serialised.get(body);
  if (text === undefined) serialised.set(body, (text = JSON.stringify(body)));
  return text;
}

export function requestHash(name: string): string {
  return createHash('sha256')
    .update(`POST ${DEEP_SIGNAL_PATH}\n${JSON.stringify({ name })}`)
    .digest('hex');
}

export async function paidDeepSignal(call: PaidCall): Promise<PaidAnswer> {
  return call.idempotencyKey === undefined ? answerOnce(call) : answerIdempotently(call, call.idempotencyKey);
}

async function answerOnce(call: PaidCall, db: Executor = call.db): Promise<PaidAnswer> {
  const result = await deepSignal(call.snapshot, call.name);
  if (!result.found) return answered(result.body, call.account.balance);
  const charge = await chargeOneCredit(
    db,
    call.account.id,
    `deep-signal:${result.startup.login}`,
    call.holdSeconds ? { holdSeconds: call.holdSeconds } : {},
  );
  if (!charge.charged) return noCredit();
  countCreditsCharged();
  const answer = answered(result.body, charge.balance);
  return charge.hold === undefined ? answer : { ...answer, hold: charge.hold };
}

interface Recorded {
  request_hash: string;
  status_code: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * A record holds the answer as it was given: a body (status 200) as its JSON, an error as `{code, detail}` with its
 * status. Records written before errors were values hold a problem body instead; its `detail` is read the same way.
 */
function recordOf(answer: PaidAnswer): { status_code: number; body: string } {
  if (answer.outcome.ok) return { status_code: 200, body: json(answer.outcome.value) };
  const { code, detail, status } = answer.outcome.error;
  return { status_code: status, body: JSON.stringify({ code, detail }) };
}

function recordedError(recorded: Recorded): ServiceError {
  const { code, detail } = JSON.parse(recorded.body) as { code?: string; detail?: string };
  const known = code !== undefined && code in ERROR_CODES ? (code as ErrorCode) : undefined;
  const fallback = recorded.status_code === 402 ? 'insufficient-credits' : codeForStatus(recorded.status_code);
  return ServiceError.relay(known ?? fallback, detail);
}

function replay(recorded: Recorded, hash: string): PaidAnswer {
  const balance = Number(recorded.headers['x-credits-balance'] ?? 0);
  if (recorded.request_hash !== hash) {
    return refused(new ServiceError('idempotency-key-reused'), balance);
  }
  const outcome: PaidAnswer['outcome'] =
    recorded.status_code === 200
      ? succeed(JSON.parse(recorded.body) as DeepSignal | DeepSignalMiss)
      : fail(recordedError(recorded));
  return { outcome, balance, replayed: true };
}

async function findRecorded(db: Executor, accountId: string, key: string): Promise<Recorded | undefined> {
  return db
    .selectFrom('idempotency_requests')
    .select(['request_hash', 'status_code', 'headers', 'body'])
    .where('account_id', '=', accountId)
    .where('key', '=', key)
    .where('created_at', '>', sql<Date>`now() - make_interval(hours => ${IDEMPOTENCY_WINDOW_HOURS})`)
    .executeTakeFirst();
}

async function answerIdempotently(call: PaidCall, key: string): Promise<PaidAnswer> {
  const hash = requestHash(call.name);
  const earlier = await findRecorded(call.db, call.account.id, key);
  if (earlier) return replay(earlier, hash);
  // Build the payload before the transaction (reading history outside it keeps the transaction to a few statements).
  const result = await deepSignal(call.snapshot, call.name);
  let charged = false;
  try {
    const answer = await call.db.transaction().execute(async (trx) => {
      await sql`select set_config('lock_timeout', ${`${IDEMPOTENCY_WAIT_MS}ms`}, true)`.execute(trx);
      await sql`select pg_advisory_xact_lock(hashtextextended(${`${call.account.id}\n${key}`}, 0))`.execute(trx);
      const recorded = await findRecorded(trx, call.account.id, key);
      if (recorded) return replay(recorded, hash);
      let answer: PaidAnswer;
      if (!result.found) {
        answer = answered(result.body, call.account.balance);
      } else {
        const charge = await chargeOneCredit(trx, call.account.id, `deep-signal:${result.startup.login}`);
        charged = charge.charged;
        answer = charge.charged ? answered(result.body, charge.balance) : noCredit();
      }
      // An expired record of the same key is replaced: past the window the key is new again.
      await trx
        .deleteFrom('idempotency_requests')
        .where('account_id', '=', call.account.id)
        .where('key', '=', key)
        .execute();
      const record = recordOf(answer);
      await trx
        .insertInto('idempotency_requests')
        .values({
          account_id: call.account.id,
          key,
          request_hash: hash,
          status_code: record.status_code,
          headers: JSON.stringify({ 'x-credits-balance': String(answer.balance) }),
          body: record.body,
        })
        .execute();
      return answer;
    });
    // Counted once the charge has committed with its record.
    if (charged) countCreditsCharged();
    return answer;
  } catch (err) {
    if ((err as { code?: string }).code === '55P03') {
      return refused(new ServiceError('request-in-progress'), call.account.balance);
    }
    throw err;
  }
}

/** Drops Idempotency-Key records past their window (run now and then; an expired record is never replayed anyway). */
export async function purgeExpiredIdempotency(db: Executor): Promise<number> {
  const result = await db
    .deleteFrom('idempotency_requests')
    .where('created_at', '<=', sql<Date>`now() - make_interval(hours => ${IDEMPOTENCY_WINDOW_HOURS})`)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
