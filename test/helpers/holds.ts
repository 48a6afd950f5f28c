import { openHolds } from '../../src/payments/ledger.js';
import type { Executor } from '../../src/store/schema.js';

/**
 * The account's open credit holds once the service has settled them: a hold is confirmed after the response has
 * been handed to the connection, a moment after the client has read it, so this waits up to two seconds for none.
 */
export async function openHoldsSettled(db: Executor, accountId: string): Promise<number> {
  let open = await openHolds(db, accountId);
  for (let i = 0; open > 0 && i < 100; i++) {
    await new Promise((r) => setTimeout(r, 20));
    open = await openHolds(db, accountId);
  }
  return open;
}
