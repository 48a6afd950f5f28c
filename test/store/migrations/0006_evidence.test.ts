import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { openStore, migrateToLatest } from '../../../src/store/database.js';
import { migration } from '../../../src/store/migrations/0006_evidence.js';
import { createTestStorage } from '../../helpers/database.js';

describe('migration 0006_evidence', () => {
  test('marks records published before it with the older rule and removes the synthetic demo weeks', async () => {
    const storage = await createTestStorage();
    const store = await openStore({ dataDir: storage.dataDir, databaseUrl: storage.databaseUrl, poolSize: 1 });
    try {
      await migrateToLatest(store.db);
      const period = (slug: string, dataset: string, week: number) => ({
        slug,
        iso_year: 2026,
        iso_week: week,
        name: `Week ${week}, 2026`,
        starts_on: '2026-03-02',
        ends_on: '2026-03-08',
        dataset,
        dataset_name: dataset,
        startups_tracked: 1,
        content_hash: 'h',
        published_at: new Date('2026-03-09T06:00:00Z'),
      });
      const record = (slug: string, login: string, metrics: object) => ({
        period_slug: slug,
        org_login: login,
        position: 1,
        sector: 'robotics',
        rank_overall: 1,
        rank_in_sector: 1,
        eligible: true,
        score_velocity: 50,
        score_growth: 50,
        score_novelty: 50,
        score_composite: 50,
        startup: JSON.stringify({ signalType: 'Deploy frequency spike' }),
        metrics: JSON.stringify(metrics),
      });
      await store.db
        .insertInto('periods')
        .values([period('2026-w10', 'github', 10), period('2026-w09', 'synthetic-demo', 9)])
        .execute();
      await store.db
        .insertInto('period_startups')
        .values([
          record('2026-w10', 'old-org', { commitsCurrent: 5 }),
          record('2026-w09', 'demo-org', { commitsCurrent: 7 }),
        ])
        .execute();
      await migration.up(store.db);
      const rows = await store.db.selectFrom('period_startups').selectAll().execute();
      assert.deepEqual(
        rows.map((r) => [r.org_login, r.metrics, (r.startup as { signalType: string }).signalType]),
        [['old-org', { commitsCurrent: 5, signalEvidence: { rule: 'activity-v1' } }, 'Deploy frequency spike']],
      );
      assert.deepEqual(
        (await store.db.selectFrom('periods').select('slug').execute()).map((p) => p.slug),
        ['2026-w10'],
      );
    } finally {
      await store.close();
      await storage.cleanup();
    }
  });
});
