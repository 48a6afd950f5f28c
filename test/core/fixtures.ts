import { lastCompletePeriod, type PeriodRef } from '../../src/core/periods.js';
import { generateDemoDataset, DEMO_DATASET_NAME } from '../../src/pipeline/demo/generate.js';
import { buildSnapshot, type PeriodInfo, type Snapshot } from '../../src/snapshot/snapshot.js';
import { recordMetrics } from '../../src/pipeline/rank.js';

export const BASE = 'https://signals.test';

/**
 * A snapshot of the synthetic demo dataset built in memory by the real generator and stages (no database), for unit
 * tests of everything computed from a snapshot.
 */
export function demoSnapshot(
  options: { startups?: number; periods?: number; seed?: string; endPeriod?: PeriodRef; synthetic?: boolean } = {},
): Snapshot {
  const dataset = generateDemoDataset({
    seed: options.seed ?? 'core-tests',
    startups: options.startups ?? 315,
    periods: options.periods ?? 2,
    endPeriod: options.endPeriod ?? lastCompletePeriod(new Date('2026-11-20T00:00:00Z')),
  });
  const infos: PeriodInfo[] = dataset.periods.map(({ period, ranked }, i) => ({
    slug: period.slug,
    name: period.name,
    dataset: options.synthetic === false ? 'github' : 'synthetic-demo',
    datasetName: DEMO_DATASET_NAME,
    publishedAt: new Date(Date.UTC(2026, 0, 5 + 7 * i, 6)),
    contentHash: `hash-${i}`,
    startupsTracked: ranked.startups.length,
  }));
  const latest = dataset.periods.at(-1)!;
  return buildSnapshot({
    baseUrl: BASE,
    period: infos.at(-1)!,
    periods: infos,
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
}
