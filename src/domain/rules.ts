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
/**
 * Evidence needed to be ranked across sectors (trending), beside the activity floor: the strength of the evidence for
 * the startup's signal type must be one of these. A type given without any evidence (strength none: the tie order
 * of rule evidence-v2, or the fallback type of rule activity-v1) is never ranked across sectors, so never trends;
 * the startup keeps its place in its sector's list.
 */
export const RANKED_STRENGTHS = ['strong', 'weak'] as const;

/**
 * Classification (rule `evidence-v2`). Each signal type has its own evidence and a score: the evidence as a fraction
 * of the type's threshold, so 1 means "the rule holds"; a score below 0 means the evidence points the other way. The
 * type with the highest score wins; ties (including no evidence at all) go in SIGNAL_TIE_ORDER.
 */
export const SIGNAL_RULE = 'evidence-v3';
/** The rule of weeks whose stored activity has no look-back of authors (version 2 activity). */
export const EVIDENCE_V2_RULE = 'evidence-v2';
/** The rule of weeks published before evidence was collected (commit windows and new repositories only). */
export const LEGACY_SIGNAL_RULE = 'activity-v1';

/** Engineering hiring burst (evidence-v2): new human contributors (no commit in the prior window) and contributor growth. */
export const HIRING_BURST_MIN_GROWTH_PCT = 25;
export const HIRING_BURST_MIN_NEW_CONTRIBUTORS = 2;

/**
 * A new contributor (evidence-v3) has no commit in the organisation in the prior window nor in the NEW_CONTRIBUTOR_
 * LOOKBACK_DAYS before the current window: someone back after a pause is a returning contributor, counted apart.
 * Twelve months, because a team's members are rarely absent for a year, while holidays, parental leave and work on
 * private repositories often keep them away for weeks.
 */
export const NEW_CONTRIBUTOR_LOOKBACK_DAYS = 365;
/**
 * A new person contributes repeatedly (a regular, as a new team member would) with at least this many commits on at
 * least this many different days of the current window; fewer is a drive-by contribution (a fix, a translation),
 * counted and shown apart.
 */
export const NEW_REGULAR_MIN_COMMITS = 3;
export const NEW_REGULAR_MIN_DAYS = 3;
/**
 * Engineering hiring burst (evidence-v3): at least this many new regulars, and at least this share of the people of
 * the prior window (floored at CONTRIBUTOR_CHANGE_FLOOR), so a large team needs more newcomers than a small one.
 */
export const HIRING_BURST_MIN_NEW_REGULARS = 2;
export const HIRING_BURST_MIN_NEW_SHARE_PCT = 25;

/** Deploy frequency spike: deploy days (a repository with a release, tag or deployment on a UTC day). */
export const DEPLOY_SPIKE_MIN_DAYS = 4;
export const DEPLOY_SPIKE_MIN_CHANGE_PCT = 100;
/** The prior window's deploy days are never taken as less than this when computing a percent change. */
export const DEPLOY_DAYS_CHANGE_FLOOR = 2;

/** Infrastructure buildout: new infrastructure repositories, or commits to infrastructure repositories rising. */
export const INFRA_BUILDOUT_MIN_NEW_REPOS = 2;
export const INFRA_BUILDOUT_MIN_COMMITS = 20;
export const INFRA_BUILDOUT_MIN_CHANGE_PCT = 100;
/** The prior window's infrastructure commits are never taken as less than this when computing a percent change. */
export const INFRA_COMMIT_CHANGE_FLOOR = 10;
/** Primary languages (or byte share of the repository's languages, at least half) that make a repository infrastructure. */
export const INFRA_LANGUAGES: readonly string[] = ['HCL', 'Dockerfile', 'Nix', 'Jsonnet', 'Bicep', 'CUE', 'Puppet'];
/** Repository topics that make a repository infrastructure. */
export const INFRA_TOPICS: readonly string[] = [
  'terraform',
  'kubernetes',
  'k8s',
  'helm',
  'helm-chart',
  'helm-charts',
  'infrastructure',
  'infrastructure-as-code',
  'iac',
  'gitops',
  'ansible',
  'pulumi',
  'devops',
  'kustomize',
  'argocd',
];
/** Files at the root of the default branch that make a repository infrastructure (a `.tf` file counts too). */
export const INFRA_ROOT_FILES: readonly string[] = [
  'Chart.yaml',
  'helmfile.yaml',
  'kustomization.yaml',
  'Pulumi.yaml',
  'terragrunt.hcl',
  'ansible.cfg',
];

/** Framework migration: the share of commits that moved between languages or dependency ecosystems. */
export const FRAMEWORK_MIGRATION_MIN_SHIFT_PCT = 30;
/** Shifts up to this many points are the ordinary wobble of a team's commits between repositories: no evidence. */
export const FRAMEWORK_MIGRATION_NOISE_PCT = 15;
/** Both windows need at least this many commits (to repositories with a known language) to compare their mix. */
export const FRAMEWORK_MIGRATION_MIN_COMMITS = 20;
/** Dependency manifests at the root of the default branch, by ecosystem. */
export const MANIFEST_ECOSYSTEMS: Readonly<Record<string, string>> = {
  'package.json': 'npm',
  'go.mod': 'Go modules',
  'Cargo.toml': 'Cargo',
  'pyproject.toml': 'Python',
  'requirements.txt': 'Python',
  'setup.py': 'Python',
  Pipfile: 'Python',
  Gemfile: 'RubyGems',
  'pom.xml': 'Maven',
  'build.gradle': 'Gradle',
  'build.gradle.kts': 'Gradle',
  'composer.json': 'Composer',
  'mix.exs': 'Hex',
  'Package.swift': 'SwiftPM',
  'pubspec.yaml': 'pub',
  'build.zig': 'Zig',
  'CMakeLists.txt': 'CMake',
  'foundry.toml': 'Foundry',
};

/** Order of the types when their scores are equal, and the type given when no type has any evidence. */
export const SIGNAL_TIE_ORDER = [
  'Framework migration',
  'Infrastructure buildout',
  'Engineering hiring burst',
  'Deploy frequency spike',
] as const;

/** The rule `activity-v1`, kept to recompute weeks whose stored activity carries no evidence. */
export const LEGACY_RULE = {
  hiringMinGrowthPct: 25,
  hiringMinNewContributors: 2,
  infraMinNewRepos: 3,
  migrationMinNewLanguageRepos: 1,
} as const;

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
