import { lastCompletePeriod, type PeriodRef } from '../../src/domain/periods.js';
import { datasetSnapshot } from '../../src/snapshot/generated.js';
import type { Snapshot } from '../../src/snapshot/snapshot.js';
import { generatedDemo } from '../helpers/demo.js';

export const BASE = 'https://signals.test';

/**
 * A snapshot of the synthetic demo dataset built in memory by the real generator and stages (no database), for unit
 * tests of everything computed from a snapshot.
 */
export function demoSnapshot(
  options: { startups?: number; periods?: number; seed?: string; endPeriod?: PeriodRef; synthetic?: boolean } = {},
): Snapshot {
  const dataset = generatedDemo({
    seed: options.seed ?? 'core-tests',
    startups: options.startups ?? 315,
    periods: options.periods ?? 2,
    endPeriod: options.endPeriod ?? lastCompletePeriod(new Date('2026-11-20T00:00:00Z')),
  });
  return datasetSnapshot(dataset, {
    baseUrl: BASE,
    hashPrefix: 'hash',
    dataset: options.synthetic === false ? 'github' : 'synthetic-demo',
  }).snapshot;
}
