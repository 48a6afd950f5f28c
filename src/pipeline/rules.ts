/**
 * Every number the methodology names lives here, so the code and docs/methodology.md cannot drift apart.
 * Windows are in whole UTC days and end at the close of the period's Sunday.
 */
export const WINDOW_DAYS = 14;
export const LOOKBACK_DAYS = 2 * WINDOW_DAYS;
export const NEW_REPO_DAYS = 30;

/** The prior-window commit count is never taken as less than this when computing a percent change. */
export const COMMIT_CHANGE_FLOOR = 20;
/** The prior-window contributor count is never taken as less than this when computing a percent change. */
export const CONTRIBUTOR_CHANGE_FLOOR = 3;

/** Minimum activity to be ranked across sectors (trending): commits in the current window and human authors. */
export const MIN_COMMITS_FOR_RANKING = 20;
export const MIN_CONTRIBUTORS_FOR_RANKING = 2;
export const TRENDING_SIZE = 20;

/** Classification thresholds, tried in this order; the first rule that holds names the signal. */
export const HIRING_BURST_MIN_GROWTH_PCT = 25;
export const HIRING_BURST_MIN_NEW_CONTRIBUTORS = 2;
export const INFRA_BUILDOUT_MIN_NEW_REPOS = 3;
export const FRAMEWORK_MIGRATION_MIN_NEW_LANGUAGE_REPOS = 1;

/** Stage estimate from unique human authors over 28 days, when the watchlist does not say. */
export const STAGE_BY_CONTRIBUTORS = [
  { max: 3, stage: 'Pre-seed' },
  { max: 10, stage: 'Seed' },
  { max: 40, stage: 'Series A/B' },
  { max: Infinity, stage: 'Growth' },
] as const;

/** Composite score weights (sum to 1). */
export const COMPOSITE_WEIGHTS = { growth: 0.5, velocity: 0.3, novelty: 0.2 } as const;

/** Authors treated as bots: GitHub App accounts and well-known automation. */
export const BOT_LOGIN_PATTERN =
  /(\[bot\]$|-bot$|^bot-|^dependabot|^renovate|^github-actions|^greenkeeper|^snyk-bot|^codecov|^mergify|^imgbot|^allcontributors|^pre-commit-ci|^semantic-release-bot)/i;
