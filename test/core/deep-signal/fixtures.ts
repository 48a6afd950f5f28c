import { lastCompletePeriod } from '../../../src/domain/periods.js';
import { datasetSnapshot } from '../../../src/snapshot/generated.js';
import type { PeriodInfo, Snapshot } from '../../../src/snapshot/snapshot.js';
import { generatedDemo } from '../../helpers/demo.js';
import { BASE } from '../fixtures.js';

/**
 * Several weeks of the synthetic demo dataset from the real generator and stages: the newest as a snapshot whose
 * history (its source, built in memory) is every generated week, as `loadStartupHistory` reads it back after
 * `publishPeriod` (test/store/history.test.ts checks that round trip on a real store).
 */
export function demoWeeks(options: { startups?: number; periods?: number } = {}): {
  snapshot: Snapshot;
  periods: PeriodInfo[];
} {
  const dataset = generatedDemo({
    seed: 'deep-signal-tests',
    startups: options.startups ?? 315,
    periods: options.periods ?? 6,
    endPeriod: lastCompletePeriod(new Date('2026-11-20T00:00:00Z')),
  });
  return datasetSnapshot(dataset, { baseUrl: BASE, hashPrefix: 'hash' });
}
