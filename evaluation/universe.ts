import { parsePeriodSlug } from '../src/domain/periods.js';
import { generateDemoDataset } from '../src/pipeline/demo/generate.js';
import { datasetSnapshot } from '../src/snapshot/generated.js';
import type { Snapshot } from '../src/snapshot/snapshot.js';

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
  return datasetSnapshot(dataset, { baseUrl: EVALUATION_BASE, hashPrefix: 'evaluation' }).snapshot;
}
