import {
  BOT_LOGIN_PATTERN,
  COMMIT_CHANGE_FLOOR,
  COMPOSITE_WEIGHTS,
  CONTRIBUTOR_CHANGE_FLOOR,
  DEPLOY_BASELINE_WINDOWS,
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
  NEW_CONTRIBUTOR_JOIN_DAYS,
  NEW_CONTRIBUTOR_LOOKBACK_DAYS,
  NEW_REGULAR_MIN_COMMITS,
  NEW_REGULAR_MIN_DAYS,
  TEAM_DOMAIN_MIN_MEMBERS,
  HIRING_BURST_MIN_NEW_REGULARS,
  HIRING_BURST_MIN_NEW_SHARE_PCT,
  INFRA_PATHS_MIN_FILES,
  INFRA_PATHS_MIN_CHURN,
  INFRA_PATHS_MIN_CHANGE_PCT,
  INFRA_PATHS_FILES_FLOOR,
  INFRA_PATHS_MIN_SHARE_PCT,
  MIGRATION_MIN_FILES_MOVED,
  FRAMEWORK_CONFIGS,
  WEAK_MIN_SCORE,
  EVIDENCE_V2_RULE,
  EVIDENCE_V4_RULE,
  EVIDENCE_V5_RULE,
} from '../domain/rules.js';
import { AUTOMATION_IDENTITIES } from '../domain/automation.js';

/**
 * The methodology, as data: one entry per pipeline stage, in order, each saying what the code in src/pipeline does.
 * The numbers are interpolated from src/domain/rules.ts, so the text cannot drift from the code. This is the single
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
    text: `For each organisation on the watchlist (a file its user owns: login, display name, sector, and when known stage, website and LinkedIn page), the collector first asks GitHub for the organisation's most recently pushed public repository with the ETag it stored last time; a 304 answer, which costs no quota, means nothing was pushed, created or changed since, and the stored activity is used again. Otherwise GraphQL queries, each covering several organisations, read the profile (name, location, website), the public repositories that are not forks (creation date, primary language, last push) and, per repository, the default-branch commits of the last ${LOOKBACK_DAYS + 7} days (the ${LOOKBACK_DAYS}-day look-back plus one week, so the week before can be rebuilt too): commit date and author. The same queries read, for every repository pushed in that span, the evidence behind the signal types: its latest releases, tags and deployments (one page of each, newest first; when a page is full and still inside the span, the repository's events are marked as whole only from its oldest one), its languages by bytes of code, its topics, and the names at the root of its default branch that are dependency manifests or infrastructure files. These fields add no request. An author is their GitHub login; without a linked account, the login inside GitHub's no-reply address (how automation such as dependabot[bot] appears), else a hash of the e-mail address, which is never stored. Commits count on the UTC day of their commit date. Further pages of repositories and commits are read in batched queries. When a repository has more commits in that span than the page budget (by default 30 pages of 100), its oldest days are counted from GitHub's daily commit statistics, which exclude merge commits and name no authors: they count under one unattributed author, and the organisation is reported as partial. When GitHub answers part of a query (a node it could not resolve comes back null, with an error beside the data), what it answered is kept and what was missing is noted in one line; the organisation is published with the week, and each of its records says so: collection partial, with that line as collectionNote (a record of a complete collection says complete; weeks published before this was recorded say unknown). The next run reads a partial organisation again rather than reusing its activity. Rate limits are honoured (waiting for the reset time or Retry-After), server errors are retried with backoff, and an organisation GitHub does not know (404) is left out and reported. The probe does not see a deployment or a release made without a push. The raw activity behind every published week is stored, evidence included, so a past week can be recomputed without asking GitHub again, and a week is published in one transaction only when no organisation is left failing. Collection is the only stage that does I/O; the synthetic demo dataset replaces it with generated activity and runs the same later stages. Point in time: a week's record holds what could be seen at the period's end, whenever it is collected. Commits are read up to the end, on each default branch as its tip stood then: for a repository pushed since, that tip comes from the repository's list of pushes (GET /repos/{owner}/{repo}/activity, read back to the end) and the history is read from it, so a branch merged later, with commit dates inside the window, does not rewrite a published week (when the list does not reach back that far, the branch is read as it is now up to the end, and the record's collection note says so). Releases, tags and deployments are paged newest first until the window's start is reached (further pages of 100, at most 10 a list), and nothing dated after the end is kept, so a busy releasing repository is no longer left out for filling one page. Merge commits are recorded as such. For every author of the collected commits, the newest earlier commit in the organisation in the ${NEW_CONTRIBUTOR_LOOKBACK_DAYS + WINDOW_DAYS} days before the collected span is read, and in the same query the newest in the ${NEW_CONTRIBUTOR_LOOKBACK_DAYS} days before the last ${NEW_CONTRIBUTOR_JOIN_DAYS / 7} weeks of the period (by the addresses on their commits, which are used for the query and never stored): the look-back that tells a new contributor (joined lately) from a returning one. For every repository with commits in the windows, the branch's tips at the windows' bounds are read from the same list of pushes and the two tips of each window are compared (GET /repos/{owner}/{repo}/compare/{base}...{head}, up to 300 files): the files each window changed. An organisation pushed since the period's end keeps no probe ETag, since a later 304 cannot vouch for activity read up to the end only; one not pushed since covers up to the collection. Commit dates are committer dates: for the squash and rebase merges of GitHub's merge button the committer date is when the work landed on the branch, and it is the date GitHub's history filters on; the author date can be weeks older for rebased work. A past week can also be rebuilt from git clones of the organisations' repositories instead of the API (the git source, which needs no token): there the default branch's tip at the period's end is the newest commit of its first-parent chain committed by then, since git keeps no record of pushes (a branch merged later comes in through a merge commit dated when it was merged; a branch fast-forwarded onto the default branch with old dates cannot be told apart), and the commits, merges, look-back, tags and the files each window changed (all of them, not 300) are read from that tip as above. Git does not see releases, deployments, topics, the profile, forks, GitHub accounts (an author is the login in a GitHub no-reply address, else a hash of the e-mail address, so one person with two addresses counts twice), or repositories without a clone; a repository's first commit stands in for its creation date, and its files by extension for its languages by bytes. A record built this way says so (source git, with what it could not see).`,
    formulas: [],
    code: ['src/pipeline/collect/', 'src/pipeline/run.ts'],
  },
  {
    name: 'filter',
    title: 'Filter to human work on original repositories',
    text: `Keep public repositories that are not forks; drop commits to forks, commits outside the ${LOOKBACK_DAYS}-day look-back, and commits by automation and AI agents: authors matching ${BOT_LOGIN_PATTERN.source} (GitHub App accounts end in [bot]; Dependabot, Renovate, GitHub Actions, and agents that work through an App such as Devin), and the identities of a maintained list of AI coding agents that commit under their own name or address, each with the public page that shows it: ${AUTOMATION_IDENTITIES.map((a) => `${a.agent} (${a.source})`).join('; ')}. Their commits are counted apart (automation commits) and never make anyone a contributor. Merge commits (more than one parent) are dropped from people's counts: a merge records that work landed, and the work is counted in the commits it brings in (a squash merge is one commit and counts once).`,
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
    text: `The signal type goes to the strongest evidence (rule ${SIGNAL_RULE}). Each type's evidence gets a score, the evidence as a fraction of the type's threshold: 1 means the type's rule holds, below 0 means the evidence points the other way, so no type is given against its own evidence. Deploy frequency spike: deploy days, a repository with a release, a tag (other than a release's own) or a deployment on a UTC day, in the current window against the usual fortnight: the mean deploy days of the ${DEPLOY_BASELINE_WINDOWS} windows of ${WINDOW_DAYS} days before it (${(DEPLOY_BASELINE_WINDOWS * WINDOW_DAYS) / 7} weeks, the prior window included), so that a quiet fortnight before the team's ordinary rhythm is no spike; a prior window without a single commit by a person is a pause (holidays) and is left out of the mean. It holds with at least ${DEPLOY_SPIKE_MIN_DAYS} deploy days and a change of at least +${DEPLOY_SPIKE_MIN_CHANGE_PCT}%, the usual count taken as at least ${DEPLOY_DAYS_CHANGE_FLOOR}. A tag or release of version 0.0.0 marks a package created (a monorepo's placeholder) and is not a deploy; nor is a pre-release (a release candidate, beta, alpha, preview, canary, next or dev version such as v9.0.0-rc.1), a version on its way cut for testers, often one per merged change before a major version: pre-releases are counted and shown apart. A repository whose first release, tag or deployment ever came inside the prior window or later has no rhythm to compare with (a team that just began tagging, a release tool just set up to tag every merge): its events are shown apart, not compared; one releasing for a month or more is compared, its earlier weeks counting as none. A repository whose events are not whole back to the prior window is left out; the mean uses the windows its events are whole for. Fewer deploy days score below 0, and releases of a fortnight in which no person committed are automation's (a generator's bot tagging its own commits) and count for nothing. Weeks whose stored activity holds events for the collected days only compare with the prior window alone. Engineering hiring burst: a new contributor is a person who joined the organisation in the last ${NEW_CONTRIBUTOR_JOIN_DAYS / 7} weeks, with no commit in it in the ${NEW_CONTRIBUTOR_LOOKBACK_DAYS} days before (a team's members are rarely away for a year, while holidays and work on private repositories keep them away for weeks; a new engineer's first weeks are onboarding and small changes, and the work that shows a team growing often comes a month or two in, so someone who joined six weeks ago and now commits on several days is as new as someone who joined last week; a longer span would count people who have been working for months); someone absent from the prior window who committed before is a returning contributor, counted and shown apart, and an author the look-back has no answer for is not counted as new. In an organisation with no commit by anyone before those ${NEW_CONTRIBUTOR_JOIN_DAYS / 7} weeks, new means a first commit in the current or the prior window, and the people of the prior window founded it and are not new when nobody committed before the two windows; those arriving after them are. Weeks collected before the look-back asked who joined lately (rule ${EVIDENCE_V4_RULE}) count as new those whose first commit in ${NEW_CONTRIBUTOR_LOOKBACK_DAYS} days came in the current or the prior window. A new person is a regular with at least ${NEW_REGULAR_MIN_COMMITS} commits on at least ${NEW_REGULAR_MIN_DAYS} different days of the current window; fewer is a one-off contribution (a fix, a translation), counted and shown apart. Outside help is set apart too: the organisation's own addresses are the e-mail domains at least ${TEAM_DOMAIN_MIN_MEMBERS} of its members (people with a commit in the look-back) committed from in the collected days, never a public mail provider's; when it has one, a new person whose addresses are all elsewhere (a personal address, another company's) is outside help, such as a community pull request, counted and shown apart and not as a new regular, while a new person on GitHub's no-reply address, which hides where they work, is counted as any other. Only the kind of each address is stored (GitHub's no-reply address, a public mail provider, or a hash of the domain), never an address or a domain. Weeks collected without the kinds of the addresses (rule ${EVIDENCE_V5_RULE}) set nobody apart. The rule holds with at least ${HIRING_BURST_MIN_NEW_REGULARS} new regulars making up at least ${HIRING_BURST_MIN_NEW_SHARE_PCT}% of the prior window's people (taken as at least ${CONTRIBUTOR_CHANGE_FLOOR}). Infrastructure buildout: at least ${INFRA_BUILDOUT_MIN_NEW_REPOS} infrastructure repositories created in the last ${NEW_REPO_DAYS} days, or at least ${INFRA_BUILDOUT_MIN_COMMITS} commits to infrastructure repositories with a change of at least +${INFRA_BUILDOUT_MIN_CHANGE_PCT}% (the prior count taken as at least ${INFRA_COMMIT_CHANGE_FLOOR}); a repository is infrastructure when its primary language, or at least half its code, is one of ${INFRA_LANGUAGES.join(', ')}, when a topic is one of ${INFRA_TOPICS.join(', ')}, or when its root holds a .tf file or one of ${INFRA_ROOT_FILES.join(', ')}. It also holds for infrastructure work inside any repository, read from the files the window changed: at least ${INFRA_PATHS_MIN_FILES} infrastructure files (CI and deployment configuration, Dockerfiles and compose files, Terraform, Helm charts, Kubernetes manifests and folders such as infra/, and the configuration and scripts in deploy/ folders, wherever they sit: program source in a deploy folder is often a product's own feature of that name, a CLI's deployments command or a workflow engine's worker deployments) with at least ${INFRA_PATHS_MIN_CHURN} lines changed in them, at least ${INFRA_PATHS_MIN_SHARE_PCT}% of all lines the window changed, and a change of at least +${INFRA_PATHS_MIN_CHANGE_PCT}% in infrastructure files against the prior window (taken as at least ${INFRA_PATHS_FILES_FLOOR}): a surge, not upkeep. Files changed in a fortnight in which no person committed are automation's (dependency bumps of workflow files) and count for nothing. Framework migration: each window's commits are spread over their repositories' languages (by bytes of code) and, separately, over the dependency ecosystems their root manifests declare (${manifests}); the shift is half the sum of the differences between the two windows' shares, in percentage points: the share of the commits that moved. It holds at ${FRAMEWORK_MIGRATION_MIN_SHIFT_PCT} points; up to ${FRAMEWORK_MIGRATION_NOISE_PCT} points is the ordinary wobble of a team's work between repositories and counts as no evidence, and a window with fewer than ${FRAMEWORK_MIGRATION_MIN_COMMITS} such commits is not compared. Inside repositories, from the files the window changed: at least ${MIGRATION_MIN_FILES_MOVED} files moved from one language to another (renamed to another language's extension, or removed and added again at the same path with another extension), or a ${[...new Set(FRAMEWORK_CONFIGS.map((f) => f.kind))].join(', ')} replaced by another (its configuration file removed and another's added: ${FRAMEWORK_CONFIGS.map((f) => f.name).join(', ')}), so a one-repository organisation can show a migration too. The highest score names the type. Equal scores, and the case where no type has any evidence, go in this order: ${SIGNAL_TIE_ORDER.join(', ')}; the first is the type no published number can contradict. The assignment is strong when the winning score is at least 1, weak from ${WEAK_MIN_SCORE} (most of the way: a label the activity does not show is worse than none), and none below; the strength, every type's score and a sentence per type saying what was measured are stored with the record (signalEvidence). Every published record that carries a signal type carries its label beside it: signalStrength (strong, weak or none) and signalEvidence, one line giving the type, its strength and what was measured for it, or, for none, "No clear signal this week"; and signalFinding, the type when its evidence is strong or weak and "No clear signal this week" otherwise. The signal type field always holds one of the interface's four values; with no evidence it is the tie order's placeholder, so every surface (the site, answers, tools, Deep Signal's thesis) shows the finding instead, and such a record is never ranked across sectors. Weeks collected without the authors' look-back (rule ${EVIDENCE_V2_RULE}) keep the older reading of new contributors: anyone absent from the prior window, with contributor growth of at least +${HIRING_BURST_MIN_GROWTH_PCT}%. The label is in the JSON lines dataset and the CSV (as fields and the last two columns), in Deep Signal, in the agent tools' results (beside the Startup objects, whose fields stay those of the interface) and on the site, wherever the type is shown. What each label rests on, evidenceDetails, is beside it in the JSON lines dataset, Deep Signal, get_startup_signal and the startup page: the new, returning and one-off people and outside help by their public GitHub login (an author without a linked account is counted, never named; no name or e-mail address from commit metadata is published), the window's releases, tags and deployments, new repositories, the repositories carrying the window's work (up to 10, by human commits, with their commits in the prior window; the startup page lists them with the organisation's links), infrastructure files, files moved between languages and frameworks replaced, each with its link on GitHub. Weeks whose stored activity was collected before this evidence existed keep the rule they were published with (${LEGACY_SIGNAL_RULE}): the first of hiring burst (growth of at least +${LEGACY_RULE.hiringMinGrowthPct}% and at least ${LEGACY_RULE.hiringMinNewContributors} more people), infrastructure buildout (at least ${LEGACY_RULE.infraMinNewRepos} new repositories), framework migration (a new repository in a language no older repository uses) and otherwise deploy frequency spike; their records say so. Their label is read from the stored numbers: strong when the numbers show the type's rule holding; deploy frequency spike, the type left when no rule held, has nothing measured for it and is labelled none. The stage comes from the watchlist when it states one, ideally with the public page that says it; otherwise it is estimated from unique human authors over ${LOOKBACK_DAYS} days: ${stageBands}. A count of public committers says little about a company's funding (a large company with few open repositories reads as Pre-seed), so every record says how its stage is known, beside the Startup object: stageSource is "estimated", "watchlist" (stated without a source) or the https URL of the public page stating it, in the JSON lines dataset and the CSV (its last column), Deep Signal (and its comparables), the agent tools' labels and the startup page, where an estimate is marked as estimated and a sourced stage links to its source.`,
    formulas: [
      `usualDeployDays = Σ deploy days in the ${DEPLOY_BASELINE_WINDOWS} windows before the current one / ${DEPLOY_BASELINE_WINDOWS} (a prior window without commits left out)`,
      `deploySpike = min(deployDays / ${DEPLOY_SPIKE_MIN_DAYS}, (deployDays − usualDeployDays) / max(usualDeployDays, ${DEPLOY_DAYS_CHANGE_FLOOR}) × 100 / ${DEPLOY_SPIKE_MIN_CHANGE_PCT})`,
      `hiringBurst = min(newRegulars / ${HIRING_BURST_MIN_NEW_REGULARS}, newRegulars / max(priorPeople, ${CONTRIBUTOR_CHANGE_FLOOR}) × 100 / ${HIRING_BURST_MIN_NEW_SHARE_PCT})`,
      `infrastructureBuildout = max(newInfrastructureRepos / ${INFRA_BUILDOUT_MIN_NEW_REPOS}, min(infraCommits / ${INFRA_BUILDOUT_MIN_COMMITS}, (infraCommits − priorInfraCommits) / max(priorInfraCommits, ${INFRA_COMMIT_CHANGE_FLOOR}) × 100 / ${INFRA_BUILDOUT_MIN_CHANGE_PCT}), min(infraFiles / ${INFRA_PATHS_MIN_FILES}, infraLines / ${INFRA_PATHS_MIN_CHURN}, infraLineShare / ${INFRA_PATHS_MIN_SHARE_PCT}%, (infraFiles − priorInfraFiles) / max(priorInfraFiles, ${INFRA_PATHS_FILES_FLOOR}) × 100 / ${INFRA_PATHS_MIN_CHANGE_PCT}))`,
      `shift = ½ × Σ |share(x, current) − share(x, prior)| × 100, over languages x (and, separately, ecosystems)`,
      `frameworkMigration = max(0, (shift − ${FRAMEWORK_MIGRATION_NOISE_PCT}) / (${FRAMEWORK_MIGRATION_MIN_SHIFT_PCT} − ${FRAMEWORK_MIGRATION_NOISE_PCT}), filesMoved / ${MIGRATION_MIN_FILES_MOVED}, frameworkReplaced ? 1 : 0)`,
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
