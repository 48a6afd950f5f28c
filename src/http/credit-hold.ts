import type { ServerResponse } from 'node:http';
import { confirmHold, releaseHold } from '../payments/ledger.js';
import type { Executor } from '../store/schema.js';

/**
 * A held charge (src/payments/ledger.ts) stands once its answer has been handed to the connection ('finish'); a
 * connection that closes before that gives the credit back at once. Either way failures are left to the hold's expiry
 * (refunded by the background job), so a lost confirmation makes the call free, never charged unseen. Every HTTP
 * surface that charges a credit (the Deep Signal route, /api/agent/call, MCP over HTTP) settles its holds here.
 */
export function settleOnDelivery(db: Executor, res: ServerResponse, hold: number): void {
  const settle = (delivered: boolean) => {
    res.off('finish', onFinish);
    res.off('close', onClose);
    void (delivered ? confirmHold(db, hold) : releaseHold(db, hold)).catch(() => {});
  };
  const onFinish = () => settle(true);
  const onClose = () => settle(res.writableFinished);
  res.once('finish', onFinish);
  res.once('close', onClose);
}
