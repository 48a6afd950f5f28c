import PgBoss from 'pg-boss';
import { getRun, pendingLogins } from '../../store/pipeline.js';
import { GitHubAuthError } from '../../github/client.js';
import { processBatch, settleRun, type PipelineContext, type SettleResult } from '../run.js';
import { retryDelayMs } from './inprocess.js';

/**
 * The PostgreSQL queue: one pg-boss job per organisation and run, so worker processes on any number of machines
 * (`signal-service pipeline worker`) share a run. A worker takes a batch of jobs at once (one GraphQL query's worth
 * of organisations), collects them, and then settles the run; settling happens under a row lock, so exactly one
 * worker publishes. Outcomes are written only over pending rows: an organisation queued twice (a resumed run) is
 * still counted once.
 */

export const QUEUE = 'signal-service-collect';

function abortableSleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

interface JobData {
  runId: number;
  login: string;
}

export interface WorkerHooks {
  onBatch?: (info: { runId: number; orgs: number; written: number }) => void;
  onError?: (err: unknown) => void;
}

export class PgBossQueue {
  private workerIds: string[] = [];

  private constructor(
    private readonly ctx: PipelineContext,
    readonly boss: PgBoss,
  ) {}

  static async start(ctx: PipelineContext, onError?: (err: unknown) => void): Promise<PgBossQueue> {
    if (!ctx.config.database.url) throw new Error('the pg-boss queue needs DATABASE_URL (PostgreSQL)');
    const boss = new PgBoss({
      connectionString: ctx.config.database.url,
      schema: 'pgboss',
      max: 4,
      schedule: false,
      application_name: 'signal-service-pipeline',
    });
    boss.on('error', (err) => onError?.(err));
    await boss.start();
    if (!(await boss.getQueue(QUEUE))) {
      await boss.createQueue(QUEUE, {
        name: QUEUE,
        // Standard policy: a resumed run queues its pending organisations again even while jobs of a killed worker
        // still look active (they expire later and find their organisation done). Duplicates cost no request:
        // a job first checks that its organisation is still pending.
        policy: 'standard',
        retryLimit: 2,
        retryDelay: 30,
        retryBackoff: true,
        // A batch may wait for a rate-limit window (up to an hour) before it finishes.
        expireInSeconds: 2 * 3600,
      });
    }
    return new PgBossQueue(ctx, boss);
  }

  /** Queues one job per organisation; `delaySeconds` defers them (a retry pass). */
  async enqueue(runId: number, logins: readonly string[], delaySeconds = 0): Promise<void> {
    const startAfter = delaySeconds > 0 ? new Date(Date.now() + delaySeconds * 1000) : undefined;
    for (let i = 0; i < logins.length; i += 1000) {
      await this.boss.insert(
        logins.slice(i, i + 1000).map((login) => ({
          name: QUEUE,
          data: { runId, login } satisfies JobData,
          singletonKey: `${runId}:${login}`,
          ...(startAfter ? { startAfter } : {}),
        })),
      );
    }
  }

  /** Starts `concurrency` polling workers in this process. */
  async work(concurrency: number, hooks: WorkerHooks = {}): Promise<void> {
    const batchSize = this.ctx.config.github.orgsPerQuery;
    for (let i = 0; i < concurrency; i++) {
      let id = '';
      id = await this.boss.work<JobData>(QUEUE, { batchSize, pollingIntervalSeconds: 0.5 }, async (jobs) => {
        // A full batch suggests more are waiting: fetch again at once instead of sleeping a polling interval.
        if (jobs.length === batchSize && id) this.boss.notifyWorker(id);
        const byRun = new Map<number, string[]>();
        for (const job of jobs) byRun.set(job.data.runId, [...(byRun.get(job.data.runId) ?? []), job.data.login]);
        for (const [runId, logins] of byRun) {
          try {
            const written = await processBatch(this.ctx, runId, logins);
            hooks.onBatch?.({ runId, orgs: logins.length, written });
          } catch (err) {
            // A bad token stops the run (recorded by processBatch); retrying the job would not help.
            if (err instanceof GitHubAuthError) {
              hooks.onError?.(err);
              continue;
            }
            throw err;
          }
          const settled = await settleRun(this.ctx, runId);
          if (settled.state === 'retry') {
            await this.enqueue(runId, settled.logins, retryDelayMs(this.ctx, settled.attempt) / 1000);
          }
        }
      });
      this.workerIds.push(id);
    }
  }

  /**
   * Runs a run to its end with the workers of this process and any other worker process: queues its pending
   * organisations, then waits until the run leaves `collecting`.
   */
  async execute(
    runId: number,
    options: { signal?: AbortSignal | undefined; pollMs?: number } = {},
  ): Promise<SettleResult> {
    await this.enqueue(runId, await pendingLogins(this.ctx.db, runId));
    for (;;) {
      if (options.signal?.aborted) return { state: 'collecting' };
      const run = await getRun(this.ctx.db, runId);
      if (!run) throw new Error(`run ${runId} disappeared`);
      if (run.status !== 'collecting') return { state: run.status, run };
      // A run whose organisations are all settled but that nobody settled (its last worker died) is settled here.
      if ((await pendingLogins(this.ctx.db, runId)).length === 0) {
        const settled = await settleRun(this.ctx, runId);
        if (settled.state === 'retry')
          await this.enqueue(runId, settled.logins, retryDelayMs(this.ctx, settled.attempt) / 1000);
        else if (settled.state !== 'collecting') return settled;
      }
      await abortableSleep(options.pollMs ?? 500, options.signal);
    }
  }

  async stop(): Promise<void> {
    for (const id of this.workerIds) await this.boss.offWork({ id }).catch(() => {});
    this.workerIds = [];
    await this.boss.stop({ graceful: true, wait: true, timeout: 30_000 });
  }
}
