import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { countCreditsCharged, countPayment, renderMetrics, watchPipelineMetrics } from '../src/metrics.js';
import { migrateToLatest, openStore, type Store } from '../src/store/database.js';
import { createRun, pipelineFigures, saveOutcomes } from '../src/store/pipeline.js';
import { createTestStorage, type TestStorage } from './helpers/database.js';
import { metricValue } from './helpers/metrics.js';

describe('metrics other parts of the service count', () => {
  test('credits charged add up, and a miss (0) adds nothing', async () => {
    const before = await metricValue('credits_charged_total');
    countCreditsCharged();
    countCreditsCharged(2);
    countCreditsCharged(0);
    assert.equal(await metricValue('credits_charged_total'), before + 3);
  });

  test('payments are counted by method and outcome', async () => {
    const settled = 'payments_total{method="x402",outcome="settled"';
    const refused = 'payments_total{method="solana",outcome="refused"';
    const [s0, r0] = [await metricValue(settled), await metricValue(refused)];
    countPayment('x402', 'settled');
    countPayment('solana', 'refused');
    countPayment('solana', 'refused');
    assert.equal(await metricValue(settled), s0 + 1);
    assert.equal(await metricValue(refused), r0 + 2);
  });

  test('the text is Prometheus exposition format', async () => {
    const { contentType, body } = await renderMetrics();
    assert.match(contentType, /^text\/plain; version=0\.0\.4/);
    assert.match(body, /^# TYPE credits_charged_total counter$/m);
    assert.match(body, /^# TYPE http_request_duration_seconds histogram$/m);
  });
});

describe('pipeline figures come from the database the pipeline writes to', () => {
  let storage: TestStorage;
  let store: Store;
  before(async () => {
    storage = await createTestStorage({ contents: 'migrated' });
    store = await openStore({ dataDir: storage.dataDir, databaseUrl: storage.databaseUrl });
    await migrateToLatest(store.db);
  });
  after(async () => {
    await store.close();
    await storage.cleanup();
  });

  test('runs by status and the GitHub requests they spent, as another process recorded them', async () => {
    const newRun = (periodSlug: string) =>
      createRun(store.db, { periodSlug, dryRun: false, fullRefresh: false, collectFrom: '2026-01-01', orgs: [] });
    const first = await newRun('2026-w40');
    await newRun('2026-w41');
    await saveOutcomes(store.db, first.id, [], { requests: 12, notModified: 5, rateRemaining: 4000 });
    watchPipelineMetrics(() => pipelineFigures(store.db));
    assert.equal(await metricValue('pipeline_runs{status="collecting"'), 2);
    assert.equal(await metricValue('pipeline_runs{status="published"'), 0);
    assert.equal(await metricValue('github_requests_total{result="sent"'), 12);
    assert.equal(await metricValue('github_requests_total{result="not_modified"'), 5);
  });

  test('a database that does not answer keeps the last figures instead of failing the scrape', async () => {
    watchPipelineMetrics(() => pipelineFigures(store.db));
    const sent = await metricValue('github_requests_total{result="sent"');
    watchPipelineMetrics(() => Promise.reject(new Error('connection refused')));
    const { body } = await renderMetrics();
    assert.match(body, /^# TYPE pipeline_runs gauge$/m);
    assert.equal(await metricValue('github_requests_total{result="sent"'), sent);
  });
});
