import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { parsePeriodSlug } from '../../src/domain/periods.js';
import { sql } from 'kysely';
import { migrateToLatest, openStore, type Store } from '../../src/store/database.js';
import { migrationProvider } from '../../src/store/migrations/index.js';
import {
  iterateAllPeriodStartups,
  latestPeriod,
  listPeriods,
  periodStartups,
  publishPeriod,
} from '../../src/store/periods.js';
import { createTestStorage, type TestStorage } from '../helpers/database.js';
import { generatedDemo } from '../helpers/demo.js';

const modes = [
  { forceEmbedded: true, name: 'embedded' },
  ...(process.env.DATABASE_URL ? [{ forceEmbedded: false, name: 'postgres' }] : []),
];

for (const mode of modes) {
  describe(`period store (${mode.name})`, () => {
    let storage: TestStorage;
    let store: Store;
    const dataset = generatedDemo({
      seed: 'store-test',
      startups: 45,
      periods: 3,
      endPeriod: parsePeriodSlug('2026-w02'),
    });
    const publish = (i: number, publishedAt = new Date('2026-01-20T06:00:00Z')) =>
      publishPeriod(store.db, { ...dataset.periods[i]!, dataset: 'synthetic-demo', datasetName: 'test', publishedAt });

    before(async () => {
      storage = await createTestStorage({ forceEmbedded: mode.forceEmbedded, contents: 'migrated' });
      store = await openStore({ dataDir: storage.dataDir, databaseUrl: storage.databaseUrl });
      await migrateToLatest(store.db);
    });
    after(async () => {
      await store.close();
      await storage.cleanup();
    });

    test('migrating a migrated store again applies nothing and records every migration once', async () => {
      const recorded = () => sql<{ name: string }>`select name from kysely_migration order by name`.execute(store.db);
      const before = (await recorded()).rows;
      await migrateToLatest(store.db);
      assert.deepEqual((await recorded()).rows, before);
      assert.deepEqual(
        before.map((r) => r.name),
        Object.keys(await migrationProvider.getMigrations()).sort(),
      );
    });

    test('a published period stores every startup in ranking order', async () => {
      const row = await publish(2);
      assert.equal(row.slug, '2026-w02');
      assert.equal(row.name, 'Week 2, 2026');
      assert.equal(row.startups_tracked, 45);
      const rows = await periodStartups(store.db, '2026-w02');
      assert.deepEqual(
        rows.map((r) => r.position),
        Array.from({ length: 45 }, (_, i) => i + 1),
      );
      assert.deepEqual(
        rows.map((r) => r.org_login),
        dataset.periods[2]!.ranked.startups.map((s) => s.login),
      );
    });

    test('every period is kept and the latest is the newest ISO week, not the last published', async () => {
      await publish(0);
      await publish(1);
      assert.deepEqual(
        (await listPeriods(store.db)).map((p) => p.slug),
        ['2025-w52', '2026-w01', '2026-w02'],
      );
      assert.equal((await latestPeriod(store.db))!.slug, '2026-w02');
    });

    test('republishing a period replaces it whole', async () => {
      const smaller = generatedDemo({
        seed: 'other',
        startups: 15,
        periods: 1,
        endPeriod: parsePeriodSlug('2026-w01'),
      });
      await publishPeriod(store.db, {
        ...smaller.periods[0]!,
        dataset: 'synthetic-demo',
        datasetName: 'test',
        publishedAt: new Date(),
      });
      const rows = await periodStartups(store.db, '2026-w01');
      assert.equal(rows.length, 15);
      assert.ok(rows.every((r) => smaller.entries.some((e) => e.login === r.org_login)));
    });

    test('a failed publication leaves the previous period intact', async () => {
      const before = await periodStartups(store.db, '2026-w02');
      const broken = {
        ...dataset.periods[2]!.ranked,
        startups: [...dataset.periods[2]!.ranked.startups, dataset.periods[2]!.ranked.startups[0]!],
      };
      await assert.rejects(
        publishPeriod(store.db, {
          period: dataset.periods[2]!.period,
          ranked: broken,
          dataset: 'synthetic-demo',
          datasetName: 'x',
          publishedAt: new Date(),
        }),
      );
      const afterRows = await periodStartups(store.db, '2026-w02');
      assert.deepEqual(
        afterRows.map((r) => r.org_login),
        before.map((r) => r.org_login),
      );
    });

    test('iterating all periods yields every row once, oldest period first, in pages', async () => {
      const seen: string[] = [];
      for await (const { period, rows } of iterateAllPeriodStartups(store.db, 7)) {
        assert.ok(rows.length <= 7);
        for (const r of rows) seen.push(`${period.slug}/${r.org_login}`);
      }
      assert.equal(seen.length, 45 + 15 + 45);
      assert.equal(new Set(seen).size, seen.length);
      assert.ok(seen[0]!.startsWith('2025-w52/'));
      assert.ok(seen.at(-1)!.startsWith('2026-w02/'));
    });
  });
}
