import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createGitHubClient, prepareRun, type PipelineContext } from '../../src/pipeline/run.js';
import { executeRun } from '../../src/pipeline/queue/index.js';
import { openStore, type Store } from '../../src/store/database.js';
import { FakeGitHub } from '../helpers/fake-github.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { launchEntry, launchOrg, NOW, PERIOD, quietEntry, quietOrg } from './fixtures.js';

describe('publishing to a running server', () => {
  let fake: FakeGitHub;
  let svc: TestService;
  let store: Store;

  before(async () => {
    fake = await FakeGitHub.start({ orgs: [launchOrg(), quietOrg()] });
    svc = await startTestService({ GITHUB_TOKEN: fake.token, GITHUB_API_URL: fake.url, GITHUB_QUERY_INTERVAL_MS: '0' });
    // A second connection, as the CLI would open it: the embedded database is reached through the server's socket.
    store = await openStore({ dataDir: svc.config.database.dataDir, databaseUrl: svc.config.database.url });
  });
  after(async () => {
    await store.close();
    await svc.close();
    await fake.close();
  });

  test('the server serves a newly published week without a restart, and the demo data is gone', async () => {
    const before = (await (await svc.get('/api/signals.json')).json()) as { meta: { period: { slug: string } } };
    assert.notEqual(before.meta.period.slug, '2026-w10');

    const ctx: PipelineContext = {
      db: store.db,
      config: svc.config,
      client: createGitHubClient(svc.config.github),
      now: () => NOW,
    };
    const prepared = await prepareRun(ctx, {
      period: PERIOD,
      entries: [launchEntry, quietEntry()],
      dryRun: false,
      fullRefresh: false,
    });
    assert.equal((await executeRun(ctx, prepared.run.id)).state, 'published');

    let body: { meta: { period: { slug: string }; totalStartups: number }; trending: { name: string }[] } | undefined;
    for (let i = 0; i < 100; i++) {
      body = (await (await svc.get('/api/signals.json')).json()) as typeof body;
      if (body!.meta.period.slug === '2026-w10') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(body!.meta.period.slug, '2026-w10');
    assert.equal(body!.meta.totalStartups, 2);
    assert.deepEqual(
      body!.trending.map((s) => s.name),
      ['Launch Co'],
    );
  });

  test('once a real week is published, the pages no longer carry the synthetic-data banner', async () => {
    // Follows the test above, which published 2026-w10 from the (fake) GitHub API in place of the demo.
    const meta = (await (await svc.get('/api/signals.json')).json()) as { meta: { period: { slug: string } } };
    assert.equal(meta.meta.period.slug, '2026-w10');
    for (const path of ['/', '/sectors/data-infrastructure', '/periods']) {
      const body = await (await svc.get(path)).text();
      assert.doesNotMatch(body, /Synthetic demo data\./, path);
    }
  });
});
