import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { openStore, migrateToLatest } from '../../../src/store/database.js';
import { migration } from '../../../src/store/migrations/0010_collection.js';
import { pipelineDb } from '../../../src/store/pipeline.js';
import { storeSource } from '../../../src/snapshot/load.js';
import { createTestStorage } from '../../helpers/database.js';

describe('migration 0010_collection', () => {
  test('older real weeks read as unknown, demo weeks as complete, and partial stored activity keeps its note', async () => {
    const storage = await createTestStorage();
    const store = await openStore({ dataDir: storage.dataDir, databaseUrl: storage.databaseUrl, poolSize: 1 });
    try {
      await migrateToLatest(store.db);
      // The state before the migration: its columns gone.
      await migration.down!(store.db);
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
      const startup = {
        name: 'Org',
        description: '',
        stage: 'Seed',
        geography: 'Germany',
        commitVelocity14d: 5,
        commitVelocityChange: '+0%',
        contributors: 2,
        contributorGrowth: '+0%',
        newRepos: 0,
        signalType: 'Deploy frequency spike',
        githubUrl: 'https://github.com/org',
        websiteUrl: 'https://org.example/',
        linkedinUrl: 'https://www.linkedin.com/company/org',
      };
      const record = (slug: string, login: string) => ({
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
        startup: JSON.stringify(startup),
        metrics: JSON.stringify({ signalEvidence: { rule: 'activity-v1' } }),
      });
      await store.db
        .insertInto('periods')
        .values([period('2026-w10', 'github', 10), period('2026-w09', 'synthetic-demo', 9)])
        .execute();
      await store.db
        .insertInto('period_startups')
        .values([record('2026-w10', 'old-org'), record('2026-w09', 'demo-org')])
        .execute();
      const p = pipelineDb(store.db);
      const activity = JSON.stringify({ profile: {}, repos: [], commits: [] });
      await p
        .insertInto('github_activity')
        .values([
          { digest: 'd-partial', login: 'old-org', activity },
          { digest: 'd-whole', login: 'other-org', activity },
        ])
        .execute();
      const run = await p
        .insertInto('pipeline_runs')
        .values({
          period_slug: '2026-w10',
          status: 'published',
          dry_run: false,
          full_refresh: false,
          collect_from: '2026-02-02',
          total_orgs: 2,
          rate_remaining: null,
          message: null,
          finished_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const orgRow = (login: string, status: 'partial' | 'collected', message: string | null, digest: string) => ({
        run_id: run.id,
        login,
        entry: JSON.stringify({ login, displayName: login, sector: 'robotics' }),
        status,
        message,
        activity_digest: digest,
        covers_from: '2026-02-02',
        covers_until: new Date('2026-03-09T06:00:00Z'),
      });
      await p
        .insertInto('pipeline_run_orgs')
        .values([
          orgRow(
            'old-org',
            'partial',
            "1 repository was missing from GitHub's answer (null nodes) and not counted",
            'd-partial',
          ),
          orgRow('other-org', 'collected', null, 'd-whole'),
        ])
        .execute();

      await migration.up(store.db);

      const rows = await store.db
        .selectFrom('period_startups')
        .select(['org_login', 'collection', 'collection_note'])
        .orderBy('org_login')
        .execute();
      assert.deepEqual(rows, [
        { org_login: 'demo-org', collection: 'complete', collection_note: null },
        { org_login: 'old-org', collection: null, collection_note: null },
      ]);
      const notes = await p
        .selectFrom('github_activity')
        .select(['digest', 'collection_note'])
        .orderBy('digest')
        .execute();
      assert.deepEqual(notes, [
        {
          digest: 'd-partial',
          collection_note: "1 repository was missing from GitHub's answer (null nodes) and not counted",
        },
        { digest: 'd-whole', collection_note: null },
      ]);

      // As the dataset export reads them: the real week before the migration is unknown, the demo week complete.
      const lines = [];
      for await (const page of storeSource(store.db).datasetPages(['2026-w09', '2026-w10'])) lines.push(...page);
      assert.deepEqual(
        lines.map((l) => [l.org, l.collection, l.collectionNote]),
        [
          ['demo-org', 'complete', null],
          ['old-org', 'unknown', null],
        ],
      );
    } finally {
      await store.close();
      await storage.cleanup();
    }
  });
});
