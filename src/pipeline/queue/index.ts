import type { SettleResult, PipelineContext } from '../run.js';
import { executeInProcess } from './inprocess.js';
import { PgBossQueue } from './pgboss.js';

export { executeInProcess } from './inprocess.js';
export { PgBossQueue } from './pgboss.js';

/**
 * Runs a prepared run to its end with the queue that fits the store: in this process for the embedded database,
 * pg-boss (shared with any `pipeline worker`) for PostgreSQL.
 */
export async function executeRun(
  ctx: PipelineContext,
  runId: number,
  options: { signal?: AbortSignal | undefined; onError?: (err: unknown) => void } = {},
): Promise<SettleResult> {
  if (!ctx.config.database.url) return executeInProcess(ctx, runId, options);
  const queue = await PgBossQueue.start(ctx, options.onError);
  let authError: unknown;
  try {
    await queue.work(ctx.config.pipeline.concurrency, {
      onError: (err) => {
        authError ??= err;
        options.onError?.(err);
      },
    });
    const result = await queue.execute(runId, options);
    if (authError && result.state === 'incomplete') throw authError;
    return result;
  } finally {
    await queue.stop();
  }
}
