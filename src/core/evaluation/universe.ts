import { parsePeriodSlug } from '../periods.js';
import { DEMO_DATASET_NAME, generateDemoDataset } from '../../pipeline/demo/generate.js';
import { buildSnapshot, type PeriodInfo, type Snapshot } from '../../snapshot/snapshot.js';
import { recordMetrics } from '../../pipeline/rank.js';

/** The seed `npm start` serves by default (DEMO_SEED): the evaluation sets are labelled against its startups. */
export const EVALUATION_SEED = 'signal-service-demo';
export const EVALUATION_BASE = 'https://signals.evaluation.example';

/**
 * The snapshot the labelled evaluation sets are written against: the default demo dataset (315 fictional startups,
 * names fixed by the seed) for a fixed period, built in memory through the real pipeline stages. Together with the
 * diligence corpus it is the universe of names /api/diligence.json resolves against.
 */
export function evaluationSnapshot(periods = 2): Snapshot {
  const dataset = generateDemoDataset({
    seed: EVALUATION_SEED,
    startups: 315,
    periods,
    endPeriod: parsePeriodSlug('2026-w46'),
  });
  const infos: PeriodInfo[] = dataset.periods.map(({ period, ranked }, i) => ({
    slug: period.slug,
    name: period.name,
    dataset: 'synthetic-demo',
    datasetName: DEMO_DATASET_NAME,
    publishedAt: new Date(Date.UTC(2026, 0, 5 + 7 * i, 6)),
    contentHash: `evaluation-${i}`,
    startupsTracked: ranked.startups.length,
  }));
  const latest = dataset.periods.at(-1)!;
  return buildSnapshot({
    baseUrl: EVALUATION_BASE,
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
