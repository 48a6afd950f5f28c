import type { SignalType, Stage } from '../schemas/enums.js';
import { NO_CLEAR_SIGNAL_SUMMARY } from '../domain/signal-label.js';
import { STAGE_ESTIMATED, STAGE_FROM_WATCHLIST } from '../domain/stage-source.js';
import { flooredPercentChange, signedPercent } from './accelerate.js';
import {
  DEPLOY_DAYS_CHANGE_FLOOR,
  DEPLOY_SPIKE_MIN_CHANGE_PCT,
  DEPLOY_SPIKE_MIN_DAYS,
  CONTRIBUTOR_CHANGE_FLOOR,
  EVIDENCE_V2_RULE,
  EVIDENCE_V4_RULE,
  EVIDENCE_V5_RULE,
  HIRING_BURST_MIN_NEW_REGULARS,
  HIRING_BURST_MIN_NEW_SHARE_PCT,
  FRAMEWORK_MIGRATION_MIN_SHIFT_PCT,
  FRAMEWORK_MIGRATION_NOISE_PCT,
  HIRING_BURST_MIN_GROWTH_PCT,
  HIRING_BURST_MIN_NEW_CONTRIBUTORS,
  INFRA_BUILDOUT_MIN_CHANGE_PCT,
  INFRA_BUILDOUT_MIN_COMMITS,
  INFRA_BUILDOUT_MIN_NEW_REPOS,
  INFRA_COMMIT_CHANGE_FLOOR,
  INFRA_PATHS_FILES_FLOOR,
  INFRA_PATHS_MIN_CHANGE_PCT,
  INFRA_PATHS_MIN_CHURN,
  INFRA_PATHS_MIN_FILES,
  INFRA_PATHS_MIN_SHARE_PCT,
  WEAK_MIN_SCORE,
  MIGRATION_MIN_FILES_MOVED,
  LEGACY_RULE,
  LEGACY_SIGNAL_RULE,
  SIGNAL_RULE,
  SIGNAL_TIE_ORDER,
  STAGE_BY_CONTRIBUTORS,
  WINDOW_DAYS,
} from '../domain/rules.js';
import type {
  Acceleration,
  Classification,
  EvidenceMetrics,
  OrgMetrics,
  SignalEvidence,
  SignalStrength,
  WatchlistEntry,
} from '../domain/records.js';

/**
 * The rule of weeks collected before evidence existed (`activity-v1`), kept so that such weeks, when rebuilt, keep
 * the type they were published with. The first rule that holds:
 * 1. Engineering hiring burst: contributors grew at least 25% and by at least 2 people.
 * 2. Infrastructure buildout: at least 3 repositories created in the last 30 days.
 * 3. Framework migration: a repository created in the last 30 days in a language no older repository uses.
 * 4. Deploy frequency spike: otherwise.
 */
export function legacySignal(metrics: OrgMetrics, acceleration: Acceleration): SignalType {
  const newPeople = metrics.contributorsCurrent - metrics.contributorsPrior;
  if (
    acceleration.contributorChangePct >= LEGACY_RULE.hiringMinGrowthPct &&
    newPeople >= LEGACY_RULE.hiringMinNewContributors
  ) {
    return 'Engineering hiring burst';
  }
  if (metrics.newRepos30d >= LEGACY_RULE.infraMinNewRepos) return 'Infrastructure buildout';
  if (metrics.newLanguages.length >= LEGACY_RULE.migrationMinNewLanguageRepos) return 'Framework migration';
  return 'Deploy frequency spike';
}

const round2 = (n: number) => {
  const r = Math.round(n * 100) / 100;
  return r === 0 ? 0 : r;
};

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export interface SignalScores {
  scores: Record<SignalType, number>;
  reasons: Record<SignalType, string>;
}

/**
 * Each type's evidence as a fraction of its threshold (1 = its rule holds; below 0 = the evidence points the other
 * way), with the sentence that says what was measured. The thresholds are in domain/rules.ts, the rule in words in
 * the methodology (content/methodology.ts):
 * - Deploy frequency spike: min(deploy days / DEPLOY_SPIKE_MIN_DAYS, change against the usual fortnight /
 *   DEPLOY_SPIKE_MIN_CHANGE_PCT), 0 when no person committed in the window;
 * - Engineering hiring burst: min(new regulars / HIRING_BURST_MIN_NEW_REGULARS, their share of the prior window's
 *   people / HIRING_BURST_MIN_NEW_SHARE_PCT); without a look-back (evidence-v2), new contributors and growth;
 * - Infrastructure buildout: the largest of new infrastructure repositories, commits to infrastructure repositories
 *   rising, and infrastructure files inside repositories (files, lines, their share of the lines, their change);
 * - Framework migration: the largest of the commit mix's shift between languages or ecosystems, files moved between
 *   languages, and a framework or build tool replaced.
 */
export function scoreSignals(metrics: OrgMetrics, acceleration: Acceleration, e: EvidenceMetrics): SignalScores {
  const deployChange = flooredPercentChange(
    e.deployDaysCurrent,
    e.deployDaysBaseline ?? e.deployDaysPrior,
    DEPLOY_DAYS_CHANGE_FLOOR,
  );
  // Releases of a fortnight in which no person committed are automation's (a generator's bot tagging its own
  // commits), not the team shipping more: they count for nothing.
  const automated = metrics.commitsCurrent === 0 && e.deployDaysCurrent > 0;
  const deploy = Math.min(
    automated ? 0 : e.deployDaysCurrent / DEPLOY_SPIKE_MIN_DAYS,
    deployChange / DEPLOY_SPIKE_MIN_CHANGE_PCT,
  );
  const hiring =
    e.newRegularContributors === undefined
      ? Math.min(
          e.newContributors / HIRING_BURST_MIN_NEW_CONTRIBUTORS,
          acceleration.contributorChangePct / HIRING_BURST_MIN_GROWTH_PCT,
        )
      : Math.min(
          e.newRegularContributors / HIRING_BURST_MIN_NEW_REGULARS,
          (100 * e.newRegularContributors) /
            Math.max(metrics.contributorsPrior, CONTRIBUTOR_CHANGE_FLOOR) /
            HIRING_BURST_MIN_NEW_SHARE_PCT,
        );
  const infraChange = flooredPercentChange(e.infraCommitsCurrent, e.infraCommitsPrior, INFRA_COMMIT_CHANGE_FLOOR);
  const infraPathChange =
    e.infraFilesCurrent === undefined
      ? 0
      : flooredPercentChange(e.infraFilesCurrent, e.infraFilesPrior ?? 0, INFRA_PATHS_FILES_FLOOR);
  // Files changed in a fortnight in which no person committed are automation's (dependency bumps of workflow files).
  const infraInside =
    e.infraFilesCurrent === undefined || metrics.commitsCurrent === 0
      ? 0
      : Math.min(
          e.infraFilesCurrent / INFRA_PATHS_MIN_FILES,
          (e.infraChurnCurrent ?? 0) / INFRA_PATHS_MIN_CHURN,
          infraPathChange / INFRA_PATHS_MIN_CHANGE_PCT,
          (100 * (e.infraChurnCurrent ?? 0)) / Math.max(e.churnCurrent ?? 0, 1) / INFRA_PATHS_MIN_SHARE_PCT,
        );
  const infra = Math.max(
    e.newInfraRepos.length / INFRA_BUILDOUT_MIN_NEW_REPOS,
    Math.min(e.infraCommitsCurrent / INFRA_BUILDOUT_MIN_COMMITS, infraChange / INFRA_BUILDOUT_MIN_CHANGE_PCT),
    infraInside,
  );
  const shift = Math.max(e.languageShiftPct ?? 0, e.ecosystemShiftPct ?? 0);
  const migration = Math.max(
    0,
    (shift - FRAMEWORK_MIGRATION_NOISE_PCT) / (FRAMEWORK_MIGRATION_MIN_SHIFT_PCT - FRAMEWORK_MIGRATION_NOISE_PCT),
    (e.languageMove?.files ?? 0) / MIGRATION_MIN_FILES_MOVED,
    e.frameworkSwaps?.length ? 1 : 0,
  );

  const deployKinds = `${plural(e.releasesCurrent, 'release')}, ${plural(e.tagsCurrent, 'other tag')}, ${plural(e.deploymentsCurrent, 'deployment')}`;
  const incomplete = e.deployIncompleteRepos.length
    ? `; ${plural(e.deployIncompleteRepos.length, 'repository', 'repositories')} left out, their events reaching past one page`
    : '';
  const young = e.deployNewRepos?.length
    ? `; left out, releasing for too short a time to have a rhythm: ${e.deployNewRepos.map((r) => `${r.repo} (since ${r.since})`).join(', ')}`
    : '';
  const weeks = ((e.deployBaselineWindows ?? 1) * WINDOW_DAYS) / 7;
  const span = e.deployBaselinePaused
    ? `the ${weeks} weeks before the last fortnight (a pause without commits, left out)`
    : `the ${weeks} weeks before`;
  const usual =
    e.deployDaysBaseline === undefined
      ? against(e.deployDaysPrior, signedPercent(deployChange))
      : e.deployDaysBaseline === 0
        ? `against none in ${span}`
        : `against ${e.deployDaysBaseline} a fortnight on average in ${span}${e.deployBaselinePaused ? '' : `, ${e.deployDaysPrior} in the last fortnight`} (${signedPercent(deployChange)})`;
  const moved = (label: string, pct: number | null, rising: string | null) =>
    pct === null
      ? `too few commits to compare the ${label} mix`
      : `${label} mix moved ${plural(pct, 'point')}${rising && pct > 0 ? ` towards ${rising}` : ''}`;
  return {
    scores: {
      'Engineering hiring burst': round2(hiring),
      'Infrastructure buildout': round2(infra),
      'Framework migration': round2(migration),
      'Deploy frequency spike': round2(deploy),
    },
    reasons: {
      'Engineering hiring burst': hiringReason(metrics, acceleration, e),
      'Infrastructure buildout': `${plural(e.newInfraRepos.length, 'new infrastructure repository', 'new infrastructure repositories')}${e.newInfraRepos.length ? ` (${e.newInfraRepos.join(', ')})` : ''}; ${plural(e.infraCommitsCurrent, 'commit')} to infrastructure repositories ${against(e.infraCommitsPrior, signedPercent(infraChange))}${e.infraFilesCurrent === undefined ? '' : `; ${plural(e.infraFilesCurrent, 'infrastructure file')} changed inside repositories (${plural(e.infraChurnCurrent ?? 0, 'line')}, ${Math.round((100 * (e.infraChurnCurrent ?? 0)) / Math.max(e.churnCurrent ?? 0, 1))}% of the lines changed) against ${e.infraFilesPrior ?? 0}`}`,
      'Framework migration': `${moved('language', e.languageShiftPct, e.risingLanguage)}; ${moved('dependency ecosystem', e.ecosystemShiftPct, e.risingEcosystem)}${e.languageMove ? `; ${plural(e.languageMove.files, 'file')} moved from ${e.languageMove.from} to ${e.languageMove.to}` : ''}${e.frameworkSwaps?.length ? `; ${e.frameworkSwaps.map((w) => `${w.kind} ${w.from} replaced by ${w.to}`).join(', ')}` : ''}`,
      'Deploy frequency spike': `${plural(e.deployDaysCurrent, 'deploy day')} in the last ${WINDOW_DAYS} days (${deployKinds}) ${usual}${e.prereleasesCurrent ? `; ${plural(e.prereleasesCurrent, 'pre-release')} (release candidates, betas) not counted` : ''}${incomplete}${young}${automated ? `; no commit by a person in the last ${WINDOW_DAYS} days, so these are automation's releases` : ''}`,
    },
  };
}

/**
 * "against 12 (+40%)"; against nothing before, no percent: a change over zero has none (the floored change the
 * scores use is not one a reader could check against the two counts).
 */
function against(prior: number, change: string): string {
  if (prior === 0) return `against none in the prior ${WINDOW_DAYS} days`;
  return `against ${prior}${change ? ` (${change})` : ''}`;
}

function hiringReason(metrics: OrgMetrics, acceleration: Acceleration, e: EvidenceMetrics): string {
  const team = `${metrics.contributorsCurrent} contributors ${against(metrics.contributorsPrior, acceleration.contributorGrowth)}`;
  if (e.newRegularContributors === undefined) {
    return `${plural(e.newContributors, 'new contributor')} (${e.departedContributors} left); ${team}`;
  }
  const outside = e.outsideContributors ?? 0;
  const driveBy = e.newContributors - e.newRegularContributors - outside;
  const apart = [
    ...(e.outsideContributors === undefined ? [] : [`${outside} from outside the organisation's own addresses`]),
    `${driveBy} with one-off contributions`,
    `${plural(e.returningContributors ?? 0, 'returning contributor')}`,
    ...(e.automationCommits ? [`${plural(e.automationCommits, 'automation commit')}`] : []),
  ].join(', ');
  const months = Math.round((e.lookbackDays ?? 365) / 30.4);
  const since =
    e.joinDays === undefined
      ? `no commit in the previous ${months} months`
      : `joined in the last ${e.joinDays / 7} weeks, no commit in the ${months} months before`;
  return `${plural(e.newRegularContributors, 'new person', 'new people')} committing repeatedly (${since}); apart: ${apart}; ${team}`;
}

/** The strongest evidence wins; equal scores go in SIGNAL_TIE_ORDER. */
export function strongestSignal(scores: Record<SignalType, number>): { type: SignalType; strength: SignalStrength } {
  let best: SignalType = SIGNAL_TIE_ORDER[0];
  for (const type of SIGNAL_TIE_ORDER) if (scores[type] > scores[best]) best = type;
  const score = scores[best];
  return { type: best, strength: score >= 1 ? 'strong' : score >= WEAK_MIN_SCORE ? 'weak' : 'none' };
}

/** The signal type and the evidence behind it: rule evidence-v2 when the activity carries evidence, else the legacy rule. */
export function classifyWithEvidence(
  metrics: OrgMetrics,
  acceleration: Acceleration,
): { signalType: SignalType; evidence: SignalEvidence } {
  if (!metrics.evidence) {
    return { signalType: legacySignal(metrics, acceleration), evidence: { rule: LEGACY_SIGNAL_RULE } };
  }
  const { scores, reasons } = scoreSignals(metrics, acceleration, metrics.evidence);
  const { type, strength } = strongestSignal(scores);
  const summary = strength === 'none' ? NO_CLEAR_SIGNAL_SUMMARY : `${type} (${strength} evidence): ${reasons[type]}`;
  const rule =
    metrics.evidence.newRegularContributors === undefined
      ? EVIDENCE_V2_RULE
      : metrics.evidence.joinDays === undefined
        ? EVIDENCE_V4_RULE
        : metrics.evidence.outsideContributors === undefined
          ? EVIDENCE_V5_RULE
          : SIGNAL_RULE;
  return { signalType: type, evidence: { rule, strength, scores, reasons, summary } };
}

/** Stage: the watchlist's when it says; otherwise estimated from unique human authors over 28 days. */
export function estimateStage(metrics: OrgMetrics): Stage {
  return STAGE_BY_CONTRIBUTORS.find((band) => metrics.contributors28d <= band.max)!.stage;
}

/** Stage 5, classify. */
export function classify(entry: WatchlistEntry, metrics: OrgMetrics, acceleration: Acceleration): Classification {
  const { signalType, evidence } = classifyWithEvidence(metrics, acceleration);
  return {
    signalType,
    stage: entry.stage ?? estimateStage(metrics),
    stageSource: entry.stage ? (entry.stageSource ?? STAGE_FROM_WATCHLIST) : STAGE_ESTIMATED,
    evidence,
  };
}
