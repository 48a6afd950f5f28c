import {
  BOT_LOGIN_PATTERN,
  COMMIT_CHANGE_FLOOR,
  COMPOSITE_WEIGHTS,
  CONTRIBUTOR_CHANGE_FLOOR,
  HIRING_BURST_MIN_GROWTH_PCT,
  HIRING_BURST_MIN_NEW_CONTRIBUTORS,
  INFRA_BUILDOUT_MIN_NEW_REPOS,
  LOOKBACK_DAYS,
  MIN_COMMITS_FOR_RANKING,
  MIN_CONTRIBUTORS_FOR_RANKING,
  NEW_REPO_DAYS,
  STAGE_BY_CONTRIBUTORS,
  TRENDING_SIZE,
  WINDOW_DAYS,
} from '../pipeline/rules.js';

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

export const methodologyIntro = `Each week (an ISO 8601 week, Monday to Sunday UTC, slug like 2026-w47) the pipeline turns public GitHub activity of every tracked organisation into one published period. Windows end at the close of the period's Sunday: the current window is the last ${WINDOW_DAYS} days, the prior window the ${WINDOW_DAYS} days before it. Every period is stored, so history stays available.`;

export const methodologySteps: readonly MethodologyStep[] = [
  {
    name: 'collect',
    title: 'Collect public activity',
    text: `For each organisation on the watchlist (a file its user owns: login, display name, sector, and when known stage, website and LinkedIn page), the collector first asks GitHub for the organisation's most recently pushed public repository with the ETag it stored last time; a 304 answer, which costs no quota, means nothing was pushed, created or changed since, and the stored activity is used again. Otherwise GraphQL queries, each covering several organisations, read the profile (name, location, website), the public repositories that are not forks (creation date, primary language, last push) and, per repository, the default-branch commits of the last ${LOOKBACK_DAYS + 7} days (the ${LOOKBACK_DAYS}-day look-back plus one week, so the week before can be rebuilt too): commit date and author. An author is their GitHub login; without a linked account, the login inside GitHub's no-reply address (how automation such as dependabot[bot] appears), else a hash of the e-mail address, which is never stored. Commits count on the UTC day of their commit date. Further pages of repositories and commits are read in batched queries. When a repository has more commits in that span than the page budget (by default 30 pages of 100), its oldest days are counted from GitHub's daily commit statistics, which exclude merge commits and name no authors: they count under one unattributed author, and the organisation is reported as partial. Rate limits are honoured (waiting for the reset time or Retry-After), server errors are retried with backoff, and an organisation GitHub does not know (404) is left out and reported. The raw activity behind every published week is stored, so a past week can be recomputed without asking GitHub again, and a week is published in one transaction only when no organisation is left failing. Collection is the only stage that does I/O; the synthetic demo dataset replaces it with generated activity and runs the same later stages.`,
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
    text: `Count commits and unique human authors in the current and prior ${WINDOW_DAYS}-day windows, unique authors over both windows, and repositories created in the last ${NEW_REPO_DAYS} days. Note which languages of those new repositories no older repository of the organisation uses. Turn the free-text location into a country where it can be recognised (a city, a country name or a US state), "Remote" for remote-only text, the tidied text otherwise, and "Unknown" when empty.`,
    formulas: [
      `commitVelocity14d = Σ commits in the current ${WINDOW_DAYS}-day window`,
      `contributors = |unique human authors in the current window|`,
      `newRepos = |non-fork repositories created in the last ${NEW_REPO_DAYS} days|`,
    ],
    code: ['src/pipeline/normalise.ts', 'src/pipeline/geography.ts'],
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
    text: `The signal type is the first rule that holds: Engineering hiring burst when contributor growth is at least +${HIRING_BURST_MIN_GROWTH_PCT}% and at least ${HIRING_BURST_MIN_NEW_CONTRIBUTORS} more people committed than in the prior window; Infrastructure buildout when at least ${INFRA_BUILDOUT_MIN_NEW_REPOS} repositories were created in the last ${NEW_REPO_DAYS} days; Framework migration when a repository created in the last ${NEW_REPO_DAYS} days uses a language no older repository uses; Deploy frequency spike otherwise (the activity comes from the same people in the same repositories). The stage comes from the watchlist when it is known; otherwise it is estimated from unique human authors over ${LOOKBACK_DAYS} days: ${stageBands}.`,
    formulas: [],
    code: ['src/pipeline/classify.ts'],
  },
  {
    name: 'rank',
    title: 'Score and rank',
    text: `Within the period, each startup gets percentile scores (0–100, ties sharing the mid-point) for velocity (commitVelocity14d), growth (commit change after the floor) and novelty (newRepos), and a composite of them. Startups with at least ${MIN_COMMITS_FOR_RANKING} commits and ${MIN_CONTRIBUTORS_FOR_RANKING} human authors in the current window are ranked across sectors; the top ${TRENDING_SIZE} are trending. Each sector lists all its startups in the same order (ranked ones first). Ties break on commits, then commit change, then organisation login. An organisation belongs to exactly one sector.`,
    formulas: [
      `composite = ${COMPOSITE_WEIGHTS.growth} × growth + ${COMPOSITE_WEIGHTS.velocity} × velocity + ${COMPOSITE_WEIGHTS.novelty} × novelty`,
      'percentile(x) = 100 × (count below x + count equal to x / 2) / count',
    ],
    code: ['src/pipeline/rank.ts'],
  },
];
