import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { countPayment } from '../../metrics.js';
import type { Database } from '../../store/schema.js';
import type { AuthorizationChain } from './chain.js';
import { transactionOf } from './pay-per-call.js';
import { abandonedReservations, markChecked, markSettled, releaseAuthorization } from './records.js';

/**
 * The background half of x402 reconciliation: a reservation left `pending` by a crash, a timeout or a lost
 * facilitator answer, and not taken up again by a retry, is settled against the token contract:
 * - the nonce is used → the transfer happened: the row becomes `settled` (with the transaction when its
 *   AuthorizationUsed event is found) and not delivered, so a retry with the same payment header gets its answer
 *   without paying again; counted as `reconciled-paid` and logged;
 * - unused, and its validBefore passed (with a margin for a lagging RPC node) → it never happened and no longer can:
 *   the row is dropped (`reconciled-expired`);
 * - unused and still valid → it may yet be settled by whoever holds it: checked again on the next pass.
 * Every instance may run it: each step is a conditional update of one row.
 */
export const EXPIRY_MARGIN_SECONDS = 120;

export interface ReconcileResult {
  paid: number;
  expired: number;
  open: number;
}

export async function reconcilePending(
  deps: { db: Kysely<Database>; chain: AuthorizationChain; log?: Logger | undefined; nowSeconds?: () => number },
  limit = 100,
): Promise<ReconcileResult> {
  const result: ReconcileResult = { paid: 0, expired: 0, open: 0 };
  const now = deps.nowSeconds?.() ?? Math.floor(Date.now() / 1000);
  for (const row of await abandonedReservations(deps.db, limit)) {
    let used: boolean;
    try {
      used = await deps.chain.authorizationUsed(row.asset, row.payer, row.nonce);
    } catch (err) {
      deps.log?.warn({ err, id: row.id }, 'x402 reconciliation: the token contract could not be asked');
      await markChecked(deps.db, row.id);
      result.open++;
      continue;
    }
    if (used) {
      const txHash = await transactionOf(deps, row);
      await markSettled(deps.db, row.id, txHash, false);
      countPayment('x402', 'reconciled-paid');
      deps.log?.warn(
        { id: row.id, txHash, network: row.network, payer: row.payer, startup: row.startup },
        'x402 payment found settled after its request was lost; its answer is given to a retry with the same payment',
      );
      result.paid++;
    } else if (row.valid_before !== null && BigInt(row.valid_before) + BigInt(EXPIRY_MARGIN_SECONDS) < BigInt(now)) {
      await releaseAuthorization(deps.db, row.id);
      countPayment('x402', 'reconciled-expired');
      deps.log?.info({ id: row.id, network: row.network }, 'x402 reservation expired unsettled; dropped');
      result.expired++;
    } else {
      await markChecked(deps.db, row.id);
      result.open++;
    }
  }
  return result;
}

/** Runs reconcilePending every `intervalMs` (never two passes at once); returns the function that stops it. */
export function startX402Reconciler(options: {
  db: Kysely<Database>;
  chain: AuthorizationChain;
  log: Logger;
  intervalMs: number;
}): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    reconcilePending(options)
      .catch((err) => options.log.warn({ err }, 'x402 reconciliation pass failed'))
      .finally(() => {
        running = false;
      });
  }, options.intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
