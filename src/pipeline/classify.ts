import type { SignalType, Stage } from '../schemas/enums.js';
import {
  FRAMEWORK_MIGRATION_MIN_NEW_LANGUAGE_REPOS,
  HIRING_BURST_MIN_GROWTH_PCT,
  HIRING_BURST_MIN_NEW_CONTRIBUTORS,
  INFRA_BUILDOUT_MIN_NEW_REPOS,
  STAGE_BY_CONTRIBUTORS,
} from './rules.js';
import type { Acceleration, Classification, OrgMetrics, WatchlistEntry } from './types.js';

/**
 * The signal type: the first of these rules that holds.
 * 1. Engineering hiring burst: contributors grew at least 25% and by at least 2 people.
 * 2. Infrastructure buildout: at least 3 repositories created in the last 30 days.
 * 3. Framework migration: a repository created in the last 30 days in a language no older repository uses.
 * 4. Deploy frequency spike: otherwise (activity is carried by the same people in the same repositories).
 */
export function classifySignal(metrics: OrgMetrics, acceleration: Acceleration): SignalType {
  const newPeople = metrics.contributorsCurrent - metrics.contributorsPrior;
  if (
    acceleration.contributorChangePct >= HIRING_BURST_MIN_GROWTH_PCT &&
    newPeople >= HIRING_BURST_MIN_NEW_CONTRIBUTORS
  ) {
    return 'Engineering hiring burst';
  }
  if (metrics.newRepos30d >= INFRA_BUILDOUT_MIN_NEW_REPOS) return 'Infrastructure buildout';
  if (metrics.newLanguages.length >= FRAMEWORK_MIGRATION_MIN_NEW_LANGUAGE_REPOS) return 'Framework migration';
  return 'Deploy frequency spike';
}

/** Stage: the watchlist's when it says; otherwise estimated from unique human authors over 28 days. */
export function estimateStage(metrics: OrgMetrics): Stage {
  return STAGE_BY_CONTRIBUTORS.find((band) => metrics.contributors28d <= band.max)!.stage;
}

/** Stage 5, classify. */
export function classify(entry: WatchlistEntry, metrics: OrgMetrics, acceleration: Acceleration): Classification {
  return {
    signalType: classifySignal(metrics, acceleration),
    stage: entry.stage ?? estimateStage(metrics),
    stageSource: entry.stage ? 'watchlist' : 'estimated',
  };
}
