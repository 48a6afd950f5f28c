import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../../src/config.js';
import { PgBossQueue } from '../../../src/pipeline/queue/pgboss.js';
import { createGitHubClient, prepareRun, type PipelineContext } from '../../../src/pipeline/run.js';
import type { WatchlistEntry } from '../../../src/domain/records.js';
import { migrateToLatest, openStore, type Store } from '../../../src/store/database.js';
import { listPeriods, periodStartups } from '../../../src/store/periods.js';
import { pipelineDb } from '../../../src/store/pipeline.js';
import { createTestStorage, postgresUrl, type TestStorage } from '../../helpers/database.js';
import { FakeGitHub } from '../../helpers/fake-github.js';
import { NOW, PERIOD, quietEntry, quietOrg } from '../fixtures.js';

const ORGS = 12;

describe(
  'pg-boss queue shared by several workers',
  { skip: postgresUrl ? false : 'needs DATABASE_URL (PostgreSQL)' },
  () => {
    let fake: FakeGitHub;
    let storage: TestStorage;
    const stores: Store[] = [];
    const queues: PgBossQueue[] = [];
    const contexts: PipelineContext[] = [];

    before(async () => {
      fake = await FakeGitHub.start({ orgs: Array.from({ length: ORGS }, (_, i) => quietOrg(`worker-org-${i}`)) });
      fake.delayMs = 5;
      storage = await createTestStorage({ contents: 'migrated' });
      const config = loadConfig({
        DATA_DIR: storage.dataDir,
        DATABASE_URL: storage.databaseUrl!,
        GITHUB_TOKEN: fake.token,
        GITHUB_API_URL: fake.url,
        GITHUB_QUERY_INTERVAL_MS: '0',
        GITHUB_ORGS_PER_QUERY: '2',
        LOG_LEVEL: 'silent',
      });
      // Two "machines": each its own connection pool, GitHub client and pg-boss instance.
      for (let i = 0; i < 2; i++) {
        const store = await openStore({ dataDir: config.database.dataDir, databaseUrl: config.database.url });
        await migrateToLatest(store.db);
        stores.push(store);
        contexts.push({ db: store.db, config, client: createGitHubClient(config.github), now: () => NOW });
      }
    });
    after(async () => {
      for (const q of queues) await q.stop();
      for (const s of stores) await s.close();
      await storage.cleanup();
      await fake.close();
    });

    test('two workers share one run: every organisation is collected once and the week is published once', async () => {
      const entries: WatchlistEntry[] = Array.from({ length: ORGS }, (_, i) => quietEntry(`worker-org-${i}`));
      const prepared = await prepareRun(contexts[0]!, { period: PERIOD, entries, dryRun: false, fullRefresh: false });
      const batches = [0, 0];
      for (let i = 0; i < 2; i++) {
        const queue = await PgBossQueue.start(contexts[i]!);
        queues.push(queue);
        await queue.work(1, { onBatch: ({ written }) => (batches[i]! += written) });
      }
      // Each GitHub answer takes a moment, as a real one does: otherwise the first worker can drain every batch
      // (it fetches again at once after a full batch) before the second worker's first poll (every 0.5 s).
      fake.delayMs = 150;
      let result: Awaited<ReturnType<PgBossQueue['execute']>>;
      try {
        result = await queues[0]!.execute(prepared.run.id, { pollMs: 50 });
      } finally {
        fake.delayMs = 0;
      }
      assert.equal(result.state, 'published');
      assert.equal(batches[0]! + batches[1]!, ORGS);
      assert.ok(batches[0]! > 0 && batches[1]! > 0, `work split ${batches.join('/')}`);
      assert.deepEqual(
        [...fake.orgReads.values()],
        Array.from({ length: ORGS }, () => 1),
      );
      assert.equal((await periodStartups(stores[0]!.db, PERIOD.slug)).length, ORGS);
      assert.equal((await listPeriods(stores[0]!.db)).length, 1);
      const run = await pipelineDb(stores[0]!.db)
        .selectFrom('pipeline_runs')
        .selectAll()
        .where('id', '=', prepared.run.id)
        .executeTakeFirstOrThrow();
      assert.equal(run.status, 'published');
    });
  },
);
