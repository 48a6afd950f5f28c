import { COMMIT_CHANGE_FLOOR, CONTRIBUTOR_CHANGE_FLOOR } from '../domain/rules.js';
import type { Acceleration, OrgMetrics } from '../domain/records.js';

/**
 * Percent change of `current` over `prior`, with the prior value never taken below `floor`, so that a window that
 * grew from almost nothing cannot report thousands of percent. Rounded half away from zero to a whole percent.
 */
export function flooredPercentChange(current: number, prior: number, floor: number): number {
  const base = Math.max(prior, floor);
  const pct = ((current - prior) / base) * 100;
  const rounded = Math.sign(pct) * Math.round(Math.abs(pct));
  return rounded === 0 ? 0 : rounded;
}

/** `+42%`, `-7%`, and `+0%` for no change. */
export function signedPercent(pct: number): string {
  return `${pct < 0 ? '-' : '+'}${Math.abs(pct)}%`;
}

/** Stage 4, accelerate: commit and contributor change versus the prior 14-day window. */
export function accelerate(metrics: OrgMetrics): Acceleration {
  const commitChangePct = flooredPercentChange(metrics.commitsCurrent, metrics.commitsPrior, COMMIT_CHANGE_FLOOR);
  const contributorChangePct = flooredPercentChange(
    metrics.contributorsCurrent,
    metrics.contributorsPrior,
    CONTRIBUTOR_CHANGE_FLOOR,
  );
  return {
    commitChangePct,
    contributorChangePct,
    commitVelocityChange: signedPercent(commitChangePct),
    contributorGrowth: signedPercent(contributorChangePct),
  };
}
