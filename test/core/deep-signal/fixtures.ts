import { lastCompletePeriod } from '../../../src/core/periods.js';
import type { HistoryReader } from '../../../src/core/deep-signal/index.js';
import { DEMO_DATASET_NAME, generateDemoDataset } from '../../../src/pipeline/demo/generate.js';
import { buildSnapshot, type PeriodInfo, type Snapshot } from '../../../src/snapshot/snapshot.js';
import type { StartupPeriodRow } from '../../../src/store/history.js';
import { BASE } from '../fixtures.js';
import { recordMetrics } from '../../../src/pipeline/rank.js';

/**
 * Several weeks of the synthetic demo dataset from the real generator and stages: the newest as a snapshot, and every
 * week's rows as the stored history a HistoryReader would return (what `loadStartupHistory` reads back after
 * `publishPeriod`; test/store/history.test.ts checks that round trip on a real store).
 */
export function demoWeeks(options: { startups?: number; periods?: number } = {}): {
  snapshot: Snapshot;
  readHistory: HistoryReader;
  periods: PeriodInfo[];
} {
  const dataset = generateDemoDataset({
    seed: 'deep-signal-tests',
    startups: options.startups ?? 315,
    periods: options.periods ?? 6,
    endPeriod: lastCompletePeriod(new Date('2026-11-20T00:00:00Z')),
  });
  const periods: PeriodInfo[] = dataset.periods.map(({ period, ranked }, i) => ({
    slug: period.slug,
    name: period.name,
    dataset: 'synthetic-demo',
    datasetName: DEMO_DATASET_NAME,
    publishedAt: new Date(Date.UTC(2026, 0, 5 + 7 * i, 6)),
    contentHash: `hash-${i}`,
    startupsTracked: ranked.startups.length,
  }));
  const byLogin = new Map<string, StartupPeriodRow[]>();
  for (const { period, ranked } of dataset.periods) {
    for (const s of ranked.startups) {
      const list = byLogin.get(s.login) ?? [];
      list.push({
        period: period.slug,
        periodName: period.name,
        sector: s.sector,
        rankOverall: s.rankOverall,
        rankInSector: s.rankInSector,
        compositeScore: s.scores.composite,
        startup: s.startup,
      });
      byLogin.set(s.login, list);
    }
  }
  const latest = dataset.periods.at(-1)!;
  const snapshot = buildSnapshot({
    baseUrl: BASE,
    period: periods.at(-1)!,
    periods,
    startups: latest.ranked.startups.map((s) => ({
      login: s.login,
      sector: s.sector,
      startup: s.startup,
      scores: s.scores,
      eligible: s.eligible,
      rankOverall: s.rankOverall,
      rankInSector: s.rankInSector,
      metrics: recordMetrics(s),
    })),
  });
  return { snapshot, periods, readHistory: async (_s, login) => byLogin.get(login) ?? [] };
}
