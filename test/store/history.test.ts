import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { parsePeriodSlug } from '../../src/domain/periods.js';
import { loadSnapshot } from '../../src/snapshot/load.js';
import { migrateToLatest, openStore, type Store } from '../../src/store/database.js';
import { signalLabel } from '../../src/domain/signal-label.js';
import { DatasetRecord } from '../../src/schemas/signals.js';
import { datasetLines, startupHistory, startupSeries } from '../../src/snapshot/history.js';
import { loadStartupHistory } from '../../src/store/history.js';
import { publishPeriod } from '../../src/store/periods.js';
import { loadSeries } from '../../src/store/series.js';
import { createTestStorage, type TestStorage } from '../helpers/database.js';
import { generatedDemo } from '../helpers/demo.js';

const modes = [
  { forceEmbedded: true, name: 'embedded' },
  ...(process.env.DATABASE_URL ? [{ forceEmbedded: false, name: 'postgres' }] : []),
];

for (const mode of modes) {
  describe(`startup history (${mode.name})`, () => {
    let storage: TestStorage;
    let store: Store;
    const dataset = generatedDemo({
      seed: 'history-test',
      startups: 30,
      periods: 4,
      endPeriod: parsePeriodSlug('2026-w03'),
    });
    const publish = (i: number) =>
      publishPeriod(store.db, {
        ...dataset.periods[i]!,
        dataset: 'synthetic-demo',
        datasetName: 'test',
        publishedAt: new Date('2026-01-20T06:00:00Z'),
      });
    const login = dataset.periods[0]!.ranked.startups[7]!.login;

    before(async () => {
      storage = await createTestStorage({ forceEmbedded: mode.forceEmbedded, contents: 'migrated' });
      store = await openStore({ dataDir: storage.dataDir, databaseUrl: storage.databaseUrl });
      await migrateToLatest(store.db);
      // Published out of order: history is ordered by ISO week, not by publication.
      await publish(2);
      await publish(0);
      await publish(1);
    });
    after(async () => {
      await store.close();
      await storage.cleanup();
    });

    test('every stored period of one startup, oldest first, with its published figures', async () => {
      const rows = await loadStartupHistory(store.db, login);
      assert.deepEqual(
        rows.map((r) => r.period),
        dataset.periods.slice(0, 3).map((p) => p.period.slug),
      );
      rows.forEach((row, i) => {
        const published = dataset.periods[i]!.ranked.startups.find((s) => s.login === login)!;
        assert.equal(row.periodName, dataset.periods[i]!.period.name);
        assert.equal(row.rankInSector, published.rankInSector);
        assert.equal(row.compositeScore, published.scores.composite);
        assert.deepEqual(row.startup, published.startup);
      });
    });

    test("each stored period of a startup carries that week's signal strength and evidence", async () => {
      const rows = await loadStartupHistory(store.db, login);
      rows.forEach((row, i) => {
        const published = dataset.periods[i]!.ranked.startups.find((s) => s.login === login)!;
        assert.deepEqual(row.label, {
          signalStrength: published.signalEvidence.strength,
          signalEvidence: published.signalEvidence.summary,
          signalFinding:
            published.signalEvidence.strength === 'none' ? 'No clear signal this week' : published.startup.signalType,
        });
      });
    });

    test('every dataset record read from the store carries its signal strength and evidence', async () => {
      const snapshot = (await loadSnapshot(store.db, 'https://signals.test'))!;
      let lines = 0;
      for await (const chunk of datasetLines(snapshot)) {
        for (const line of chunk.trimEnd().split('\n')) {
          const record = DatasetRecord.parse(JSON.parse(line));
          const published = dataset.periods
            .find((p) => p.period.slug === record.period)!
            .ranked.startups.find((s) => s.login === record.org)!;
          assert.deepEqual(
            {
              signalStrength: record.signalStrength,
              signalEvidence: record.signalEvidence,
              signalFinding: record.signalFinding,
            },
            signalLabel(published.startup.signalType, { signalEvidence: published.signalEvidence }),
          );
          lines++;
        }
      }
      assert.equal(lines, 3 * dataset.entries.length);
    });

    test("every startup's chart series lists its stored periods oldest first, with the published figures", async () => {
      const series = await loadSeries(store.db);
      assert.equal(series.size, dataset.entries.length);
      const published = dataset.periods.slice(0, 3).map((p) => p.ranked.startups.find((s) => s.login === login)!);
      assert.deepEqual(series.get(login.toLowerCase()), {
        periods: dataset.periods.slice(0, 3).map((p) => p.period.slug),
        commits: published.map((s) => s.startup.commitVelocity14d),
        contributors: published.map((s) => s.startup.contributors),
        ranks: published.map((s) => s.rankOverall),
      });
    });

    test('the chart series read in pages smaller than a period are the series read in one page per period', async () => {
      const paged = await loadSeries(store.db, 7);
      const whole = await loadSeries(store.db, 1_000);
      assert.equal(paged.size, whole.size);
      for (const entry of dataset.entries) {
        const key = entry.login.toLowerCase();
        assert.ok(paged.get(key)?.periods.length);
        assert.deepEqual(paged.get(key), whole.get(key));
      }
    });

    test('an unknown login has no history', async () => {
      assert.deepEqual(await loadStartupHistory(store.db, 'no-such-org'), []);
    });

    test('as of a snapshot, a period published after it is not included', async () => {
      const snapshot = (await loadSnapshot(store.db, 'https://signals.test'))!;
      await publish(3);
      const rows = await startupHistory(snapshot, login);
      assert.deepEqual(
        rows.map((r) => r.period),
        snapshot.periods.map((p) => p.slug),
      );
      assert.equal((await loadStartupHistory(store.db, login)).length, 4);
      const series = await startupSeries(snapshot);
      assert.deepEqual(
        series.get(login.toLowerCase())?.periods,
        snapshot.periods.map((p) => p.slug),
      );
    });
  });
}
