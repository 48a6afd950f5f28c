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
 * A type's evidence is weak from this fraction of its threshold, strong from 1; below it, the activity does not show
 * the type and the record says "no clear signal". Three quarters: most of the way, since a label the activity does
 * not show is worse than none (half of a deploy spike's threshold is two tag days in a fortnight, an ordinary rhythm).
 */
export const WEAK_MIN_SCORE = 0.75;

/**
 * Classification (rule `evidence-v2`). Each signal type has its own evidence and a score: the evidence as a fraction
 * of the type's threshold, so 1 means "the rule holds"; a score below 0 means the evidence points the other way. The
 * type with the highest score wins; ties (including no evidence at all) go in SIGNAL_TIE_ORDER.
 */
export const SIGNAL_RULE = 'evidence-v6';
/** The rule of weeks collected without the kinds of the authors' addresses (no team domain, nobody set apart as outside help). */
export const EVIDENCE_V5_RULE = 'evidence-v5';
/** The rule of weeks whose look-back did not ask who joined in the last NEW_CONTRIBUTOR_JOIN_DAYS (new = first commit in the two windows). */
export const EVIDENCE_V4_RULE = 'evidence-v4';
/** The rule of weeks whose stored activity has no look-back of authors (version 2 activity). */
export const EVIDENCE_V2_RULE = 'evidence-v2';
/** The rule of weeks published before evidence was collected (commit windows and new repositories only). */
export const LEGACY_SIGNAL_RULE = 'activity-v1';

/** Engineering hiring burst (evidence-v2): new human contributors (no commit in the prior window) and contributor growth. */
export const HIRING_BURST_MIN_GROWTH_PCT = 25;
export const HIRING_BURST_MIN_NEW_CONTRIBUTORS = 2;

/**
 * A new contributor (evidence-v4) first committed in the organisation in the current or the prior window, with no
 * commit in the NEW_CONTRIBUTOR_LOOKBACK_DAYS before: someone back after a pause is a returning contributor, counted
 * apart; in an organisation with no commit by anyone before the two windows, nobody is new (its founders start it).
 * Twelve months, because a team's members are rarely absent for a year, while holidays, parental leave and work on
 * private repositories often keep them away for weeks.
 */
export const NEW_CONTRIBUTOR_LOOKBACK_DAYS = 365;
/**
 * A new contributor (evidence-v5) joined in the last NEW_CONTRIBUTOR_JOIN_DAYS before the period's end: no commit in
 * the organisation in the NEW_CONTRIBUTOR_LOOKBACK_DAYS before them. Eight weeks, because a new engineer's first weeks
 * are onboarding and small changes, and the work that shows a team growing (several commits on several days) often
 * comes a month or two in, which counting only the first commits of the last four weeks calls a known member's. Not
 * longer: thirteen weeks also counted people who had been working for months, already regular in the prior window.
 */
export const NEW_CONTRIBUTOR_JOIN_DAYS = 56;
/**
 * A new person contributes repeatedly (a regular, as a new team member would) with at least this many commits on at
 * least this many different days of the current window; fewer is a drive-by contribution (a fix, a translation),
 * counted and shown apart.
 */
export const NEW_REGULAR_MIN_COMMITS = 3;
export const NEW_REGULAR_MIN_DAYS = 3;
/**
 * Evidence-v6: a domain is the organisation's own when at least this many of its members (people with a commit in the
 * look-back year) committed from it in the collected days; public mail providers never are. A new person whose
 * addresses are all elsewhere (a personal address, another company's) while the team commits from its own is outside
 * help — a community pull request — counted and shown apart, not a hire. Two, because one member's own domain (a
 * personal one) says nothing about the team's.
 */
export const TEAM_DOMAIN_MIN_MEMBERS = 2;
/**
 * Engineering hiring burst (evidence-v3): at least this many new regulars, and at least this share of the people of
 * the prior window (floored at CONTRIBUTOR_CHANGE_FLOOR), so a large team needs more newcomers than a small one.
 */
export const HIRING_BURST_MIN_NEW_REGULARS = 2;
export const HIRING_BURST_MIN_NEW_SHARE_PCT = 25;

/** Deploy frequency spike: deploy days (a repository with a release, tag or deployment on a UTC day). */
export const DEPLOY_SPIKE_MIN_DAYS = 4;
export const DEPLOY_SPIKE_MIN_CHANGE_PCT = 100;
/** The usual fortnight's deploy days are never taken as less than this when computing a percent change. */
export const DEPLOY_DAYS_CHANGE_FLOOR = 2;
/**
 * Deploy frequency spike (evidence-v4): the current window is compared with the usual fortnight, the mean deploy days
 * of the windows in the twelve weeks before it (six, the prior window included), not with the prior window alone: a
 * fortnight of holidays before the team's ordinary rhythm is no spike.
 */
export const DEPLOY_BASELINE_WINDOWS = 6;
/**
 * A repository whose first release, tag or deployment ever came inside the prior window (or later) has no rhythm to
 * compare with: the fortnight before holds the start of its releasing (a team that just began tagging, or a release
 * tool just set up to tag every merge), not a rhythm. Its events are shown, not compared. One window before the
 * current one: a repository tagging for a month or more is compared, its earlier weeks counting as none.
 */
export const DEPLOY_RHYTHM_MIN_DAYS = WINDOW_DAYS;
/**
 * A pre-release (a release candidate, beta, alpha, preview, canary, next or dev build: `v9.0.0-rc.1`, `4.0.0-v4-beta.6`,
 * `1.2.0rc1`) is a version on its way to a release, cut for testers, often one per merged change before a major
 * version: it is not the team shipping to its users more often, and is not a deploy.
 */
export const PRERELEASE_VERSION: RegExp =
  /\d+\.\d+(?:\.\d+)?(?:-(?:[0-9a-z-]*[-.])?(?:alpha|beta|rc|pre|preview|canary|next|dev)(?![a-z])|(?:a|b|rc)\d+$)/i;
/** A tag or release of version 0.0.0 marks a package created (a monorepo's placeholder), not a release. */
export const PLACEHOLDER_VERSION: RegExp = /(^|[^0-9.])v?0\.0\.0$/i;

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

/**
 * Work inside repositories (evidence-v3), read from the files each window changed on the default branch. A path is
 * infrastructure when it is deployment, cloud, container, CI/CD or infrastructure-as-code configuration, wherever it
 * sits in the repository (a Helm chart below the root, CI inside an application's repository).
 */
export const INFRA_PATH_PATTERNS: readonly RegExp[] = [
  /(^|\/)\.github\/workflows\//,
  /(^|\/)\.github\/actions\//,
  /(^|\/)\.circleci\//,
  /(^|\/)\.buildkite\//,
  /(^|\/)\.gitlab-ci\.ya?ml$/,
  /(^|\/)Jenkinsfile[^/]*$/,
  /(^|\/)azure-pipelines\.ya?ml$/,
  /(^|\/)(Dockerfile|Containerfile)[^/]*$/,
  /(^|\/)[^/]*\.dockerfile$/i,
  /(^|\/)(docker-)?compose[^/]*\.ya?ml$/,
  /\.(tf|tfvars|hcl)$/,
  /(^|\/)(Chart|helmfile|kustomization|skaffold)\.ya?ml$/,
  /(^|\/)(helm|k8s|kubernetes|terraform|pulumi|ansible|kustomize|infra|infrastructure|devops)\//i,
  // A deploy folder holds deployment configuration, or a product's own feature of that name (a CLI's deployments
  // command, a workflow engine's worker deployments): only its configuration and scripts count, not program source.
  /(^|\/)(deploy|deployment|deployments)\/(?:[^/]+\/)*[^/]+\.(ya?ml|json|toml|sh|bash|tpl|conf|ini|env|j2|tf|hcl)$/i,
  /(^|\/)charts\/[^/]+\/(templates\/|values[^/]*\.ya?ml$|Chart\.ya?ml$)/,
  /(^|\/)(cdk|serverless|fly|render|app|cloudbuild|Pulumi)\.(json|ya?ml|toml)$/,
  /(^|\/)(netlify\.toml|vercel\.json|Procfile|nixpacks\.toml|railway\.json)$/,
];
/**
 * Infrastructure buildout inside repositories: at least INFRA_PATHS_MIN_FILES infrastructure files changed in the
 * current window with INFRA_PATHS_MIN_CHURN lines added or removed in them, and at least twice as many files as in
 * the prior window (floored at INFRA_PATHS_FILES_FLOOR): a surge, not the usual upkeep (a version bump in a few
 * workflow files changes a line each).
 */
export const INFRA_PATHS_MIN_FILES = 5;
export const INFRA_PATHS_MIN_CHURN = 150;
export const INFRA_PATHS_MIN_CHANGE_PCT = 100;
export const INFRA_PATHS_FILES_FLOOR = 2;
/** …and infrastructure files hold at least this share of all lines the window changed: a tenth of the work. */
export const INFRA_PATHS_MIN_SHARE_PCT = 10;

/** Languages by file extension, to see code move from one language to another in the files a window changed. */
export const LANGUAGE_BY_EXTENSION: Readonly<Record<string, string>> = {
  js: 'JavaScript',
  jsx: 'JavaScript',
  mjs: 'JavaScript',
  cjs: 'JavaScript',
  ts: 'TypeScript',
  tsx: 'TypeScript',
  mts: 'TypeScript',
  cts: 'TypeScript',
  coffee: 'CoffeeScript',
  py: 'Python',
  rb: 'Ruby',
  go: 'Go',
  rs: 'Rust',
  java: 'Java',
  kt: 'Kotlin',
  scala: 'Scala',
  swift: 'Swift',
  m: 'Objective-C',
  c: 'C',
  cc: 'C++',
  cpp: 'C++',
  cxx: 'C++',
  cs: 'C#',
  php: 'PHP',
  ex: 'Elixir',
  exs: 'Elixir',
  dart: 'Dart',
  vue: 'Vue',
  svelte: 'Svelte',
  lua: 'Lua',
  zig: 'Zig',
};
/**
 * Framework migration inside repositories: at least this many files moved from one language to another in the
 * current window (renamed to another language's extension, or removed in one language and added in the other). Fifty:
 * a component's twenty files converted in one commit (JavaScript to TypeScript, say) is routine upkeep; a migration
 * moves a good part of the code.
 */
export const MIGRATION_MIN_FILES_MOVED = 50;
/**
 * Configuration files that name a framework or a build tool, by kind: a window that removes one and adds another of
 * the same kind replaced the one by the other (a web framework, bundler or build system migration). Swapping a
 * package manager or a test runner changes how code is installed or checked, not the code: it is not listed.
 */
export const FRAMEWORK_CONFIGS: readonly { kind: string; name: string; file: RegExp }[] = [
  { kind: 'web framework', name: 'Next.js', file: /(^|\/)next\.config\.(js|mjs|cjs|ts)$/ },
  { kind: 'web framework', name: 'React Router', file: /(^|\/)react-router\.config\.(js|ts)$/ },
  { kind: 'web framework', name: 'Remix', file: /(^|\/)remix\.config\.(js|mjs|cjs|ts)$/ },
  { kind: 'web framework', name: 'Nuxt', file: /(^|\/)nuxt\.config\.(js|ts)$/ },
  { kind: 'web framework', name: 'SvelteKit', file: /(^|\/)svelte\.config\.(js|ts)$/ },
  { kind: 'web framework', name: 'Astro', file: /(^|\/)astro\.config\.(mjs|js|ts)$/ },
  { kind: 'web framework', name: 'Angular', file: /(^|\/)angular\.json$/ },
  { kind: 'web framework', name: 'Gatsby', file: /(^|\/)gatsby-config\.(js|ts)$/ },
  { kind: 'bundler', name: 'webpack', file: /(^|\/)webpack\.config\.(js|cjs|mjs|ts)$/ },
  { kind: 'bundler', name: 'Vite', file: /(^|\/)vite\.config\.(js|mjs|cjs|ts|mts)$/ },
  { kind: 'bundler', name: 'Rollup', file: /(^|\/)rollup\.config\.(js|mjs|cjs|ts)$/ },
  { kind: 'bundler', name: 'Parcel', file: /(^|\/)\.parcelrc$/ },
  { kind: 'build system', name: 'Bazel WORKSPACE', file: /(^|\/)WORKSPACE(\.bazel)?$/ },
  { kind: 'build system', name: 'Bazel modules', file: /(^|\/)MODULE\.bazel$/ },
];
