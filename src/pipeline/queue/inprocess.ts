import pLimit from 'p-limit';
import { pendingLogins } from '../../store/pipeline.js';
import { sleep } from '../../github/client.js';
import { processBatch, settleRun, type PipelineContext, type SettleResult } from '../run.js';

/**
 * The embedded-mode queue: the per-organisation jobs of a run are its pending rows, worked through in this process
 * in batches (one GraphQL query's worth of organisations each), several batches at once. Progress lives in the
 * database, so a killed process leaves exactly the unfinished organisations pending for the next `pipeline run`.
 */

export interface ExecuteOptions {
  /** Stop taking new batches (the batches in flight finish and are recorded). */
  signal?: AbortSignal | undefined;
}

export function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Delay before another pass over failed organisations: 30 backoff units, then 60, … */
export function retryDelayMs(ctx: PipelineContext, attempt: number): number {
  return ctx.config.github.retryBaseMs * 30 * (attempt - 1);
}

/** Runs a run to its end in this process. Returns the settled state, or `collecting` when stopped by the signal. */
export async function executeInProcess(
  ctx: PipelineContext,
  runId: number,
  options: ExecuteOptions = {},
): Promise<SettleResult> {
  const limit = pLimit(ctx.config.pipeline.concurrency);
  for (;;) {
    if (options.signal?.aborted) return { state: 'collecting' };
    const pending = await pendingLogins(ctx.db, runId);
    const batches = chunk(pending, ctx.config.github.orgsPerQuery);
    const results = await Promise.allSettled(
      batches.map((batch) =>
        limit(async () => {
          if (options.signal?.aborted) return;
          await processBatch(ctx, runId, batch);
        }),
      ),
    );
    const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failure) {
      limit.clearQueue();
      throw failure.reason;
    }
    if (options.signal?.aborted) return { state: 'collecting' };
    const settled = await settleRun(ctx, runId);
    if (settled.state === 'collecting') continue;
    if (settled.state === 'retry') {
      await sleep(retryDelayMs(ctx, settled.attempt));
      continue;
    }
    return settled;
  }
}
