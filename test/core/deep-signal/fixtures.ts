import { lastCompletePeriod } from '../../../src/domain/periods.js';
import type { HistoryReader } from '../../../src/core/deep-signal/index.js';
import { generateDemoDataset } from '../../../src/pipeline/demo/generate.js';
import { datasetSnapshot } from '../../../src/pipeline/demo/snapshot.js';
import type { PeriodInfo, Snapshot } from '../../../src/snapshot/snapshot.js';
import type { StartupPeriodRow } from '../../../src/store/history.js';
import { BASE } from '../fixtures.js';

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
  const { snapshot, periods } = datasetSnapshot(dataset, { baseUrl: BASE, hashPrefix: 'hash' });
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
  return { snapshot, periods, readHistory: async (_s, login) => byLogin.get(login) ?? [] };
}
