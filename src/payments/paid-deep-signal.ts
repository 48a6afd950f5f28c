import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { deepSignal, type HistoryReader } from '../core/deep-signal/index.js';
import { PROBLEM_CONTENT_TYPE, problemBody, statusTitle } from '../http/problem.js';
import type { Snapshot } from '../snapshot/snapshot.js';
import type { Executor } from '../store/schema.js';
import { countCreditsCharged } from '../metrics.js';
import { chargeOneCredit } from './ledger.js';

/**
 * A Deep Signal call paid with credits: look the startup up, charge one credit for a hit, answer. With an
 * Idempotency-Key (Stripe's semantics) the answer is recorded in the same transaction as the charge, so a retry
 * with the same key and body within IDEMPOTENCY_WINDOW_HOURS gets the first answer byte for byte and is not charged
 * again; the same key with another body is refused (422); a retry that arrives while the first is still running
 * waits for it (an advisory lock on the key), then replays it. Only answers that ran are recorded (200 and 402):
 * a request refused before it ran (bad body, bad key) records nothing.
 *
 * A miss is free and answers 200 `{found:false, charged:0}` whatever the balance, including 0: the spec's 402 is
 * "insufficient credits", and a miss needs none.
 */
export const IDEMPOTENCY_WINDOW_HOURS = 24;
/** How long a retry waits for a concurrent request with the same key before it gets 409. */
export const IDEMPOTENCY_WAIT_MS = 10_000;
export const DEEP_SIGNAL_PATH = '/api/agent/deep-signal';
const JSON_TYPE = 'application/json; charset=utf-8';

export interface PaidAnswer {
  status: 200 | 402 | 409 | 422;
  contentType: string;
  body: string;
  /** The balance to report in X-Credits-Balance. */
  balance: number;
  /** True when this is the recorded answer of an earlier request with the same Idempotency-Key. */
  replayed: boolean;
}

export interface PaidCall {
  db: Executor;
  snapshot: Snapshot;
  readHistory: HistoryReader;
  account: { id: string; balance: number };
  name: string;
  idempotencyKey?: string | undefined;
}

function problem(status: 402 | 409 | 422, detail: string, balance: number): PaidAnswer {
  return {
    status,
    contentType: PROBLEM_CONTENT_TYPE,
    body: JSON.stringify(problemBody(status, statusTitle(status), detail, DEEP_SIGNAL_PATH)),
    balance,
    replayed: false,
  };
}

const noCredit = () =>
  problem(402, 'No credit left on this key. Buy a credit pack; a miss (an untracked startup) is never charged.', 0);

/** Each payload is serialised once: payloads are shared and frozen (see deepSignal). */
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
  const result = await deepSignal(call.snapshot, call.readHistory, call.name);
  if (!result.found) {
    return {
      status: 200,
      contentType: JSON_TYPE,
      body: json(result.body),
      balance: call.account.balance,
      replayed: false,
    };
  }
  const charge = await chargeOneCredit(db, call.account.id, `deep-signal:${result.startup.login}`);
  if (!charge.charged) return noCredit();
  countCreditsCharged();
  return {
    status: 200,
    contentType: JSON_TYPE,
    body: json(result.body),
    balance: charge.balance,
    replayed: false,
  };
}

interface Recorded {
  request_hash: string;
  status_code: number;
  headers: Record<string, string>;
  body: string;
}

function replay(recorded: Recorded, hash: string): PaidAnswer {
  if (recorded.request_hash !== hash) {
    return problem(
      422,
      'This Idempotency-Key was already used with a different request body.',
      Number(recorded.headers['x-credits-balance'] ?? 0),
    );
  }
  return {
    status: recorded.status_code as PaidAnswer['status'],
    contentType: recorded.headers['content-type'] ?? JSON_TYPE,
    body: recorded.body,
    balance: Number(recorded.headers['x-credits-balance'] ?? 0),
    replayed: true,
  };
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
  const result = await deepSignal(call.snapshot, call.readHistory, call.name);
  let charged = false;
  try {
    const answer = await call.db.transaction().execute(async (trx) => {
      await sql`select set_config('lock_timeout', ${`${IDEMPOTENCY_WAIT_MS}ms`}, true)`.execute(trx);
      await sql`select pg_advisory_xact_lock(hashtextextended(${`${call.account.id}\n${key}`}, 0))`.execute(trx);
      const recorded = await findRecorded(trx, call.account.id, key);
      if (recorded) return replay(recorded, hash);
      let answer: PaidAnswer;
      if (!result.found) {
        answer = {
          status: 200,
          contentType: JSON_TYPE,
          body: json(result.body),
          balance: call.account.balance,
          replayed: false,
        };
      } else {
        const charge = await chargeOneCredit(trx, call.account.id, `deep-signal:${result.startup.login}`);
        charged = charge.charged;
        answer = charge.charged
          ? {
              status: 200,
              contentType: JSON_TYPE,
              body: json(result.body),
              balance: charge.balance,
              replayed: false,
            }
          : noCredit();
      }
      // An expired record of the same key is replaced: past the window the key is new again.
      await trx
        .deleteFrom('idempotency_requests')
        .where('account_id', '=', call.account.id)
        .where('key', '=', key)
        .execute();
      await trx
        .insertInto('idempotency_requests')
        .values({
          account_id: call.account.id,
          key,
          request_hash: hash,
          status_code: answer.status,
          headers: JSON.stringify({ 'content-type': answer.contentType, 'x-credits-balance': String(answer.balance) }),
          body: answer.body,
        })
        .execute();
      return answer;
    });
    // Counted once the charge has committed with its record.
    if (charged) countCreditsCharged();
    return answer;
  } catch (err) {
    if ((err as { code?: string }).code === '55P03') {
      return problem(
        409,
        'A request with this Idempotency-Key is still being processed; retry shortly.',
        call.account.balance,
      );
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
