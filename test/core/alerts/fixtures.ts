import { parsePeriodSlug } from '../../../src/domain/periods.js';
import { isFinding, signalLabel } from '../../../src/domain/signal-label.js';
import { recordMetrics, type RankedPeriod } from '../../../src/domain/records.js';
import type { DemoDataset } from '../../../src/pipeline/demo/generate.js';
import type { PeriodState, StartupState } from '../../../src/core/alerts/rules.js';
import { generatedDemo } from '../../helpers/demo.js';

/** Consecutive generated periods (the demo generator, pushed through the real pipeline stages), ending 2026-w10. */
export function generatedPeriods(periods = 2, startups = 60): DemoDataset {
  return generatedDemo({ seed: 'alerts-test', startups, periods, endPeriod: parsePeriodSlug('2026-w10') });
}

/** A generated period as the rules read it. */
export function stateOf(slug: string, name: string, ranked: RankedPeriod): PeriodState {
  const startups = new Map<string, StartupState>();
  for (const s of ranked.startups) {
    startups.set(s.login.toLowerCase(), {
      login: s.login,
      name: s.startup.name,
      sector: s.sector,
      rank: s.rankOverall,
      signalType: s.startup.signalType,
      finding: isFinding(signalLabel(s.startup.signalType, recordMetrics(s))),
      commitVelocityChange: s.startup.commitVelocityChange,
      contributorGrowth: s.startup.contributorGrowth,
    });
  }
  return { slug, name, startups };
}

/** The periods of a generated dataset as rule inputs, oldest first. */
export function states(dataset: DemoDataset): PeriodState[] {
  return dataset.periods.map((p) => stateOf(p.period.slug, p.period.name, p.ranked));
}

/** A copy of a period with one startup's state changed. */
export function withChange(period: PeriodState, login: string, change: Partial<StartupState>): PeriodState {
  const startups = new Map(period.startups);
  startups.set(login, { ...startups.get(login)!, ...change });
  return { ...period, startups };
}
