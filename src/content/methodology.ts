import {
  BOT_LOGIN_PATTERN,
  COMMIT_CHANGE_FLOOR,
  COMPOSITE_WEIGHTS,
  CONTRIBUTOR_CHANGE_FLOOR,
  DEPLOY_DAYS_CHANGE_FLOOR,
  DEPLOY_SPIKE_MIN_CHANGE_PCT,
  DEPLOY_SPIKE_MIN_DAYS,
  FRAMEWORK_MIGRATION_MIN_COMMITS,
  FRAMEWORK_MIGRATION_MIN_SHIFT_PCT,
  FRAMEWORK_MIGRATION_NOISE_PCT,
  HIRING_BURST_MIN_GROWTH_PCT,
  HIRING_BURST_MIN_NEW_CONTRIBUTORS,
  INFRA_BUILDOUT_MIN_CHANGE_PCT,
  INFRA_BUILDOUT_MIN_COMMITS,
  INFRA_BUILDOUT_MIN_NEW_REPOS,
  INFRA_COMMIT_CHANGE_FLOOR,
  INFRA_LANGUAGES,
  INFRA_ROOT_FILES,
  INFRA_TOPICS,
  LEGACY_RULE,
  LEGACY_SIGNAL_RULE,
  LOOKBACK_DAYS,
  MANIFEST_ECOSYSTEMS,
  MIN_COMMITS_FOR_RANKING,
  MIN_CONTRIBUTORS_FOR_RANKING,
  NEW_REPO_DAYS,
  RANKED_STRENGTHS,
  SIGNAL_RULE,
  SIGNAL_TIE_ORDER,
  STAGE_BY_CONTRIBUTORS,
  TRENDING_SIZE,
  WINDOW_DAYS,
} from '../domain/rules.js';

/**
 * The methodology, as data: one entry per pipeline stage, in order, each saying what the code in src/pipeline does.
 * The numbers are interpolated from src/pipeline/rules.ts, so the text cannot drift from the code. This is the single
 * source of docs/methodology.md and of GET /api/v1/methodology.json.
 */
export interface MethodologyStep {
  name: 'collect' | 'filter' | 'normalise' | 'accelerate' | 'classify' | 'rank';
  title: string;
  text: string;
  /** Formulas in plain notation, where the stage computes something. */
  formulas: string[];
  /** Source file(s) implementing the stage. */
  code: string[];
}

const stageBands = STAGE_BY_CONTRIBUTORS.map((b, i) => {
  const low = i === 0 ? 0 : STAGE_BY_CONTRIBUTORS[i - 1]!.max + 1;
  return b.max === Infinity ? `${low} or more → ${b.stage}` : `${low}–${b.max} → ${b.stage}`;
}).join('; ');

const manifests = Object.entries(
  Object.entries(MANIFEST_ECOSYSTEMS).reduce<Record<string, string[]>>((acc, [file, eco]) => {
    (acc[eco] ??= []).push(file);
    return acc;
  }, {}),
)
  .map(([eco, files]) => `${files.join(', ')} → ${eco}`)
  .join('; ');

export const methodologyIntro = `Each week (an ISO 8601 week, Monday to Sunday UTC, slug like 2026-w47) the pipeline turns public GitHub activity of every tracked organisation into one published period. Windows end at the close of the period's Sunday: the current window is the last ${WINDOW_DAYS} days, the prior window the ${WINDOW_DAYS} days before it. Every period is stored, so history stays available.`;

export const methodologySteps: readonly MethodologyStep[] = [
  {
    name: 'collect',
    title: 'Collect public activity',
    text: `For each organisation on the watchlist (a file its user owns: login, display name, sector, and when known stage, website and LinkedIn page), the collector first asks GitHub for the organisation's most recently pushed public repository with the ETag it stored last time; a 304 answer, which costs no quota, means nothing was pushed, created or changed since, and the stored activity is used again. Otherwise GraphQL queries, each covering several organisations, read the profile (name, location, website), the public repositories that are not forks (creation date, primary language, last push) and, per repository, the default-branch commits of the last ${LOOKBACK_DAYS + 7} days (the ${LOOKBACK_DAYS}-day look-back plus one week, so the week before can be rebuilt too): commit date and author. The same queries read, for every repository pushed in that span, the evidence behind the signal types: its latest releases, tags and deployments (one page of each, newest first; when a page is full and still inside the span, the repository's events are marked as whole only from its oldest one), its languages by bytes of code, its topics, and the names at the root of its default branch that are dependency manifests or infrastructure files. These fields add no request. An author is their GitHub login; without a linked account, the login inside GitHub's no-reply address (how automation such as dependabot[bot] appears), else a hash of the e-mail address, which is never stored. Commits count on the UTC day of their commit date. Further pages of repositories and commits are read in batched queries. When a repository has more commits in that span than the page budget (by default 30 pages of 100), its oldest days are counted from GitHub's daily commit statistics, which exclude merge commits and name no authors: they count under one unattributed author, and the organisation is reported as partial. When GitHub answers part of a query (a node it could not resolve comes back null, with an error beside the data), what it answered is kept and what was missing is noted in one line; the organisation is published with the week, and each of its records says so: collection partial, with that line as collectionNote (a record of a complete collection says complete; weeks published before this was recorded say unknown). The next run reads a partial organisation again rather than reusing its activity. Rate limits are honoured (waiting for the reset time or Retry-After), server errors are retried with backoff, and an organisation GitHub does not know (404) is left out and reported. The probe does not see a deployment or a release made without a push. The raw activity behind every published week is stored, evidence included, so a past week can be recomputed without asking GitHub again, and a week is published in one transaction only when no organisation is left failing. Collection is the only stage that does I/O; the synthetic demo dataset replaces it with generated activity and runs the same later stages.`,
    formulas: [],
    code: ['src/pipeline/collect/', 'src/pipeline/run.ts'],
  },
  {
    name: 'filter',
    title: 'Filter to human work on original repositories',
    text: `Keep public repositories that are not forks; drop commits to forks, commits outside the ${LOOKBACK_DAYS}-day look-back, and commits by automation: authors matching ${BOT_LOGIN_PATTERN.source} (GitHub App accounts end in [bot]; Dependabot, Renovate, GitHub Actions and similar).`,
    formulas: [],
    code: ['src/pipeline/filter.ts'],
  },
  {
    name: 'normalise',
    title: 'Normalise into window counts',
    text: `Count commits and unique human authors in the current and prior ${WINDOW_DAYS}-day windows, unique authors over both windows, and repositories created in the last ${NEW_REPO_DAYS} days. Note which languages of those new repositories no older repository of the organisation uses. From the evidence, count each window's deploy days, the contributors who arrived and left between the windows, infrastructure repositories and the commits they received, and how far each window's commits are spread over languages and dependency ecosystems (the classify step says how each is used). Turn the free-text location into a country where it can be recognised (a city, a country name or a US state), "Remote" for remote-only text, the tidied text otherwise, and "Unknown" when empty.`,
    formulas: [
      `commitVelocity14d = Σ commits in the current ${WINDOW_DAYS}-day window`,
      `contributors = |unique human authors in the current window|`,
      `newRepos = |non-fork repositories created in the last ${NEW_REPO_DAYS} days|`,
    ],
    code: ['src/pipeline/normalise.ts', 'src/pipeline/evidence.ts', 'src/pipeline/geography.ts'],
  },
  {
    name: 'accelerate',
    title: 'Measure acceleration against the prior window',
    text: `Compare each current-window count with the prior window. The prior value is never taken below a floor (${COMMIT_CHANGE_FLOOR} commits, ${CONTRIBUTOR_CHANGE_FLOOR} contributors), so a window that grew from almost nothing cannot report +999%-style changes. Percentages are rounded half away from zero to whole numbers and printed signed: +42%, -7%, +0%.`,
    formulas: [
      `commitVelocityChange = (current − prior) / max(prior, ${COMMIT_CHANGE_FLOOR}) × 100`,
      `contributorGrowth = (contributors − priorContributors) / max(priorContributors, ${CONTRIBUTOR_CHANGE_FLOOR}) × 100`,
    ],
    code: ['src/pipeline/accelerate.ts'],
  },
  {
    name: 'classify',
    title: 'Classify the signal and the stage',
    text: `The signal type goes to the strongest evidence (rule ${SIGNAL_RULE}). Each type's evidence gets a score, the evidence as a fraction of the type's threshold: 1 means the type's rule holds, below 0 means the evidence points the other way, so no type is given against its own evidence. Deploy frequency spike: deploy days, a repository with a release, a tag (other than a release's own) or a deployment on a UTC day, in the current window against the prior one; it holds with at least ${DEPLOY_SPIKE_MIN_DAYS} deploy days and a change of at least +${DEPLOY_SPIKE_MIN_CHANGE_PCT}%, the prior count taken as at least ${DEPLOY_DAYS_CHANGE_FLOOR}; a repository whose events are not whole back to the prior window is left out, and fewer deploy days score below 0. Engineering hiring burst: at least ${HIRING_BURST_MIN_NEW_CONTRIBUTORS} new contributors (human authors of the current window with no commit in the prior one; the look-back sees ${LOOKBACK_DAYS} days, so someone back after a longer absence counts as new) and contributor growth of at least +${HIRING_BURST_MIN_GROWTH_PCT}%. Infrastructure buildout: at least ${INFRA_BUILDOUT_MIN_NEW_REPOS} infrastructure repositories created in the last ${NEW_REPO_DAYS} days, or at least ${INFRA_BUILDOUT_MIN_COMMITS} commits to infrastructure repositories with a change of at least +${INFRA_BUILDOUT_MIN_CHANGE_PCT}% (the prior count taken as at least ${INFRA_COMMIT_CHANGE_FLOOR}); a repository is infrastructure when its primary language, or at least half its code, is one of ${INFRA_LANGUAGES.join(', ')}, when a topic is one of ${INFRA_TOPICS.join(', ')}, or when its root holds a .tf file or one of ${INFRA_ROOT_FILES.join(', ')}. Framework migration: each window's commits are spread over their repositories' languages (by bytes of code) and, separately, over the dependency ecosystems their root manifests declare (${manifests}); the shift is half the sum of the differences between the two windows' shares, in percentage points: the share of the commits that moved. It holds at ${FRAMEWORK_MIGRATION_MIN_SHIFT_PCT} points; up to ${FRAMEWORK_MIGRATION_NOISE_PCT} points is the ordinary wobble of a team's work between repositories and counts as no evidence, and a window with fewer than ${FRAMEWORK_MIGRATION_MIN_COMMITS} such commits is not compared. The highest score names the type. Equal scores, and the case where no type has any evidence, go in this order: ${SIGNAL_TIE_ORDER.join(', ')}; the first is the type no published number can contradict. The assignment is strong when the winning score is at least 1, weak when it is between 0 and 1, and none when no type scores above 0; the strength, every type's score and a sentence per type saying what was measured are stored with the record (signalEvidence). Every published record that carries a signal type carries its label beside it: signalStrength (strong, weak or none) and signalEvidence, one line giving the type, its strength and what was measured for it, or, for none, that no type had any evidence and the tie order chose it. The label is in the JSON lines dataset and the CSV (as fields and the last two columns), in Deep Signal, in the agent tools' results (beside the Startup objects, whose fields stay those of the interface) and on the site, wherever the type is shown. Weeks whose stored activity was collected before this evidence existed keep the rule they were published with (${LEGACY_SIGNAL_RULE}): the first of hiring burst (growth of at least +${LEGACY_RULE.hiringMinGrowthPct}% and at least ${LEGACY_RULE.hiringMinNewContributors} more people), infrastructure buildout (at least ${LEGACY_RULE.infraMinNewRepos} new repositories), framework migration (a new repository in a language no older repository uses) and otherwise deploy frequency spike; their records say so. Their label is read from the stored numbers: strong when the numbers show the type's rule holding; deploy frequency spike, the type left when no rule held, has nothing measured for it and is labelled none. The stage comes from the watchlist when it is known; otherwise it is estimated from unique human authors over ${LOOKBACK_DAYS} days: ${stageBands}.`,
    formulas: [
      `deploySpike = min(deployDays / ${DEPLOY_SPIKE_MIN_DAYS}, (deployDays − priorDeployDays) / max(priorDeployDays, ${DEPLOY_DAYS_CHANGE_FLOOR}) × 100 / ${DEPLOY_SPIKE_MIN_CHANGE_PCT})`,
      `hiringBurst = min(newContributors / ${HIRING_BURST_MIN_NEW_CONTRIBUTORS}, contributorGrowth / ${HIRING_BURST_MIN_GROWTH_PCT})`,
      `infrastructureBuildout = max(newInfrastructureRepos / ${INFRA_BUILDOUT_MIN_NEW_REPOS}, min(infraCommits / ${INFRA_BUILDOUT_MIN_COMMITS}, (infraCommits − priorInfraCommits) / max(priorInfraCommits, ${INFRA_COMMIT_CHANGE_FLOOR}) × 100 / ${INFRA_BUILDOUT_MIN_CHANGE_PCT}))`,
      `shift = ½ × Σ |share(x, current) − share(x, prior)| × 100, over languages x (and, separately, ecosystems)`,
      `frameworkMigration = max(0, (shift − ${FRAMEWORK_MIGRATION_NOISE_PCT}) / (${FRAMEWORK_MIGRATION_MIN_SHIFT_PCT} − ${FRAMEWORK_MIGRATION_NOISE_PCT}))`,
    ],
    code: ['src/pipeline/classify.ts'],
  },
  {
    name: 'rank',
    title: 'Score and rank',
    text: `Within the period, each startup gets percentile scores (0–100, ties sharing the mid-point) for velocity (commitVelocity14d), growth (commit change after the floor) and novelty (newRepos), and a composite of them. Startups with at least ${MIN_COMMITS_FOR_RANKING} commits and ${MIN_CONTRIBUTORS_FOR_RANKING} human authors in the current window, and with evidence for their signal type (strength ${RANKED_STRENGTHS.join(' or ')}), are ranked across sectors; the top ${TRENDING_SIZE} are trending. A startup whose type was given without any evidence (strength none) is never ranked across sectors, so the trending list holds no type that only the tie order chose. Each sector lists all its startups in the same order (those above the activity floor first, with or without evidence). Ties break on commits, then commit change, then organisation login. An organisation belongs to exactly one sector.`,
    formulas: [
      `composite = ${COMPOSITE_WEIGHTS.growth} × growth + ${COMPOSITE_WEIGHTS.velocity} × velocity + ${COMPOSITE_WEIGHTS.novelty} × novelty`,
      'percentile(x) = 100 × (count below x + count equal to x / 2) / count',
    ],
    code: ['src/pipeline/rank.ts'],
  },
];
