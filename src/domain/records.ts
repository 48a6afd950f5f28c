import type { SectorSlug, SignalStrength, SignalType, Stage } from '../schemas/enums.js';
import type { Startup } from '../schemas/signals.js';
import type { StageSource } from './stage-source.js';

/** One tracked organisation as the watchlist (or the demo generator) describes it. */
export interface WatchlistEntry {
  login: string;
  displayName: string;
  sector: SectorSlug;
  stage?: Stage | undefined;
  /** The public page stating the stage, when the watchlist names one. */
  stageSource?: string | undefined;
  /** ISO 3166-1 alpha-2 code from the watchlist; the published geography is estimated from GitHub when absent. */
  country?: string | undefined;
  /** The public page stating the country, when the watchlist names one. */
  countrySource?: string | undefined;
  description?: string | undefined;
  website?: string | undefined;
  linkedin?: string | undefined;
  /** One public repository of the organisation (`owner/name`), recorded as evidence that it exists. */
  repository?: string | undefined;
  /**
   * Further public repositories of the organisation (`owner/name`) that the git source reads (cloned when missing
   * from the clones directory); the GitHub API source reads every public repository and ignores the list.
   */
  repositories?: string[] | undefined;
  /** Overrides the GitHub URL (the synthetic demo points at a reserved .example host). */
  github?: string | undefined;
}

export interface OrgProfile {
  login: string;
  name: string | null;
  description: string | null;
  location: string | null;
  blog: string | null;
}

export interface RepoRecord {
  name: string;
  fork: boolean;
  /** ISO date-time of creation. */
  createdAt: string;
  language: string | null;
  /*
   * Evidence, collected for repositories pushed inside the collect window (absent in activity stored before the
   * evidence was collected, and for repositories read without history).
   */
  /** Bytes of code by language, the largest first. */
  languages?: Record<string, number> | undefined;
  topics?: string[] | undefined;
  /** Root entries of the default branch that are dependency manifests or infrastructure files (see rules.ts). */
  markers?: string[] | undefined;
  /** Releases published inside the collect window: UTC day and tag. */
  releases?: { date: string; tag: string }[] | undefined;
  /** Tags dated inside the collect window (tagger date, or the tagged commit's date): UTC day and name. */
  tags?: { date: string; name: string }[] | undefined;
  /** Deployments created inside the collect window: UTC day and environment. */
  deployments?: { date: string; environment: string | null }[] | undefined;
  /** Set when a list of releases, tags or deployments could not be read back to the window's start: events before this day are unknown. */
  eventsFrom?: string | undefined;
  /**
   * The first day the releases, tags and deployments were read from (the deploy baseline's start); absent in activity
   * collected before the baseline, whose events start with the commits' collected days.
   */
  eventsSince?: string | undefined;
  /** The repository's first release, tag or deployment ever, when it falls after eventsSince (every list read to its end). */
  firstEventDay?: string | undefined;
  /** The default branch's name (version 3). */
  defaultBranch?: string | undefined;
  /**
   * The default branch's tip at the period's end that the commits were read from (version 3), and how it was known:
   * `activity` from the repository's list of pushes, `history` the newest commit dated before the end (when the list
   * of pushes does not reach back that far), `first-parent` (git source) the newest commit of the branch's first-parent
   * chain committed at or before the end.
   */
  tip?: { oid: string; source: 'activity' | 'history' | 'first-parent' } | undefined;
  /**
   * Version 3: the files that changed on the default branch in each of the period's two windows (prior, current),
   * from the branch's tips at the windows' bounds: what the window's work changed, as GitHub compares the two tips.
   */
  changes?: WindowChanges[] | undefined;
}

/** One changed file between two tips of a branch. */
export interface FileChange {
  path: string;
  status: 'added' | 'removed' | 'modified' | 'renamed' | 'copied' | 'changed';
  /** The path before a rename or copy. */
  previousPath?: string | undefined;
  additions: number;
  deletions: number;
}

/** The files a window changed: from the tip at `from` (00:00 UTC) to the tip at `until` (00:00 UTC, excluded). */
export interface WindowChanges {
  from: string;
  until: string;
  files: FileChange[];
  /** GitHub lists at most 300 files of a comparison: more changed than are listed. */
  truncated: boolean;
}

/**
 * Commits by one author to one repository on one UTC day (the commit's committer date, see methodology). Authors are
 * logins, `email:<hash>` when unlinked, or `automation:<agent>` for an AI agent's own address.
 */
export interface DailyCommits {
  date: string;
  repo: string;
  author: string;
  commits: number;
  /** How many of `commits` are merge commits (more than one parent); absent: none, or not recorded (version < 3). */
  merges?: number | undefined;
}

/**
 * Who had committed to the organisation before the collected days (version 3): for each author of the collected
 * commits, the latest day with a commit of theirs in the look-back before `from`, or null when none. Read on the
 * branch tips of the period's end, so it is point-in-time too.
 */
export interface AuthorLookback {
  /** First day of the look-back (inclusive). */
  since: string;
  /** First collected day: the look-back ends the day before. */
  until: string;
  lastSeen: Record<string, string | null>;
  /**
   * Who joined lately (evidence-v5): for each author, the latest day with a commit in the look-back year before
   * `joinSince` (the first day of the NEW_CONTRIBUTOR_JOIN_DAYS ending at the period's end), or null when none: null
   * means their first commit in the organisation came on or after `joinSince`. Absent in activity collected before.
   */
  joinSince?: string | undefined;
  seenBeforeJoin?: Record<string, string | null> | undefined;
}

/** What the collect stage gathers for one organisation (raw: forks and bots still in). */
export interface RawOrgActivity {
  profile: OrgProfile;
  repos: RepoRecord[];
  commits: DailyCommits[];
  /**
   * 2: the repositories carry evidence (releases, tags, deployments, languages, topics, markers). 3: also read at the
   * period's end (branch tips then), with merge commits and the authors' look-back. Absent: older.
   */
  version?: 2 | 3 | undefined;
  /** Version 3: the authors' earlier commits in the organisation. */
  lookback?: AuthorLookback | undefined;
  /**
   * Evidence-v6: the kinds of address each person of the collected commits committed from, by author key (lower
   * case): `noreply` (GitHub's no-reply address), `consumer` (a public mail provider) or `domain:<hash>` (any other
   * domain, hashed: see pipeline/collect/addresses.ts). No address and no domain is stored. Absent: collected before.
   */
  addresses?: Record<string, string[]> | undefined;
  /**
   * Which collector built the record: `github` (the API; also when absent) or `git` (local clones, see
   * docs/pipeline.md, "The git source").
   */
  source?: 'github' | 'git' | undefined;
  /** What the source could not see, in words (git: releases, deployments, topics, the profile, …); absent: nothing. */
  unseen?: string[] | undefined;
}

/**
 * After filter: only public non-fork repositories, people (no automation), commits that are not merges, days inside
 * the 28-day window.
 */
export interface FilteredActivity {
  profile: OrgProfile;
  repos: RepoRecord[];
  commits: DailyCommits[];
  version?: 2 | 3 | undefined;
  lookback?: AuthorLookback | undefined;
  /** Evidence-v6: the kinds of address of each person (see RawOrgActivity). */
  addresses?: Record<string, string[]> | undefined;
  /** The latest day of each person (lower-case key) in the collected days before the windows (version 3). */
  earlierLastSeen?: Record<string, string> | undefined;
  /** Commits of the current window left out as automation or AI agents, and as merges (version 3). */
  automationCommitsCurrent?: number | undefined;
  mergeCommitsCurrent?: number | undefined;
}

/** What a person did in the current window, as a label's evidence shows it (never a name or an e-mail address). */
export interface ContributorEvidence {
  /** The public GitHub login; null for an author whose commits are not linked to an account. */
  login: string | null;
  /**
   * new: no commit in the organisation in the look-back and the prior window; returning: committed in the look-back
   * but not in the prior window; the rest are not listed.
   */
  kind: 'new' | 'returning';
  /** A new person contributing repeatedly (NEW_REGULAR_MIN_COMMITS on NEW_REGULAR_MIN_DAYS), or once or twice. */
  regular: boolean;
  /** First day with a commit in the current window. */
  firstCommit: string;
  commits: number;
  activeDays: number;
  /** The latest earlier day with a commit in the organisation (returning people), in the look-back. */
  lastSeenBefore: string | null;
  /**
   * Evidence-v6, new people: `organisation` when they committed from the organisation's own domain, `outside` when
   * from elsewhere while its team commits from its own (outside help, not counted as a hire), null when not known.
   * Absent: the week's activity holds no address kinds, or the organisation has no domain of its own.
   */
  address?: 'organisation' | 'outside' | null | undefined;
}

/** A release, tag or deployment of the current window. */
export interface DeployEventEvidence {
  repo: string;
  kind: 'release' | 'tag' | 'deployment';
  /** The tag, or the deployment's environment. */
  name: string;
  date: string;
}

/** The evidence behind each signal type, counted by normalise (rule evidence-v2). */
export interface EvidenceMetrics {
  /** Deploy days (repository × UTC day with a release, tag or deployment) in the current and prior window. */
  deployDaysCurrent: number;
  deployDaysPrior: number;
  /** Events in the current window, by kind (a tag that a release names counts as the release only). */
  releasesCurrent: number;
  tagsCurrent: number;
  deploymentsCurrent: number;
  /** Repositories left out of the deploy counts because their event lists did not reach back far enough. */
  deployIncompleteRepos: string[];
  /**
   * Version 4: the usual fortnight, the mean deploy days of the windows before the current one (up to
   * DEPLOY_BASELINE_WINDOWS, as far as the events were read), one decimal; and the repositories left out because
   * their first release or tag is too recent to have a rhythm (DEPLOY_RHYTHM_MIN_DAYS), with that first day.
   */
  deployDaysBaseline?: number | undefined;
  deployBaselineWindows?: number | undefined;
  /** Version 4: the prior window had no commit by a person (a pause), so the usual fortnight leaves it out. */
  deployBaselinePaused?: boolean | undefined;
  /** Version 4: pre-releases (release candidates, betas…) of the current window, not counted as deploys. */
  prereleasesCurrent?: number | undefined;
  deployNewRepos?: { repo: string; since: string }[] | undefined;
  /**
   * People of the current window with no commit in the prior window and none in the look-back (version 3; before it,
   * anyone absent from the prior window), and people of the prior window absent from the current one.
   */
  newContributors: number;
  departedContributors: number;
  /** Version 3: of the new people, those contributing repeatedly; people back after a pause; the look-back's length. */
  newRegularContributors?: number | undefined;
  returningContributors?: number | undefined;
  /** Evidence-v6: new people committing from outside the organisation's own addresses (outside help, not new regulars). */
  outsideContributors?: number | undefined;
  lookbackDays?: number | undefined;
  /** Evidence-v5: new people are those who joined in these last days (NEW_CONTRIBUTOR_JOIN_DAYS); absent: evidence-v4's two windows. */
  joinDays?: number | undefined;
  /** Version 3: commits of the current window by automation and AI agents, and merge commits (not counted above). */
  automationCommits?: number | undefined;
  mergeCommits?: number | undefined;
  /** Version 3: the people behind the counts above (new and returning), the window's deploy events, new repositories. */
  people?: ContributorEvidence[] | undefined;
  deployEvents?: DeployEventEvidence[] | undefined;
  newRepoNames?: string[] | undefined;
  /**
   * Version 3: the repositories carrying the current window's work, by its human commits (merges and automation left
   * out), most first, with their commits in the prior window.
   */
  activeRepos?: { repo: string; commits: number; commitsPrior: number }[] | undefined;
  /**
   * Version 3, from the files each window changed inside repositories (absent when they are not known for every
   * active repository): infrastructure files changed in each window and the lines changed in them, a sample of those
   * paths (`repo:path`), the largest move of files between two languages, and frameworks or build tools replaced.
   */
  infraFilesCurrent?: number | undefined;
  infraFilesPrior?: number | undefined;
  infraChurnCurrent?: number | undefined;
  churnCurrent?: number | undefined;
  infraPaths?: string[] | undefined;
  languageMove?: { from: string; to: string; files: number } | null | undefined;
  frameworkSwaps?: { kind: string; from: string; to: string }[] | undefined;
  /** Infrastructure repositories created in the last NEW_REPO_DAYS days, and commits to infrastructure repositories. */
  newInfraRepos: string[];
  infraCommitsCurrent: number;
  infraCommitsPrior: number;
  /** Percentage points of commits that moved between languages / dependency ecosystems (0–100); null: too few commits. */
  languageShiftPct: number | null;
  ecosystemShiftPct: number | null;
  /** The language and the ecosystem whose commit share grew the most. */
  risingLanguage: string | null;
  risingEcosystem: string | null;
}

/** After normalise: the window counts a period is judged on. */
export interface OrgMetrics {
  commitsCurrent: number;
  commitsPrior: number;
  contributorsCurrent: number;
  contributorsPrior: number;
  /** Unique human authors over both windows (28 days): the team-size proxy used to estimate stage. */
  contributors28d: number;
  newRepos30d: number;
  /** Languages of repositories created in the last 30 days that no older repository of the org uses. */
  newLanguages: string[];
  geography: string;
  /** Present when the activity carries evidence (version 2); absent for older stored activity. */
  evidence?: EvidenceMetrics | undefined;
}

/** After accelerate: changes versus the prior window, with the floor applied. */
export interface Acceleration {
  commitChangePct: number;
  contributorChangePct: number;
  commitVelocityChange: string;
  contributorGrowth: string;
}

/** How strongly the evidence supports the assigned type. */
export type { SignalStrength };

/**
 * Why a record got its type: stored with the record's metrics as `signalEvidence`, for Deep Signal and the
 * startup's page. Records of the legacy rule carry only `rule`.
 */
export interface SignalEvidence {
  rule: string;
  strength?: SignalStrength | undefined;
  /** Each type's evidence as a fraction of its threshold (1 = the rule holds; below 0 = against), 2 decimals. */
  scores?: Record<SignalType, number> | undefined;
  /** One sentence per type, in the order of the scores, saying what was measured. */
  reasons?: Record<SignalType, string> | undefined;
  /** The sentence shown beside the type: the type, its strength and its evidence. */
  summary?: string | undefined;
}

export interface Classification {
  signalType: SignalType;
  stage: Stage;
  /** How the stage is known (see stage-source.ts): estimated, the watchlist's word, or its public source's URL. */
  stageSource: StageSource;
  evidence: SignalEvidence;
}

/** One organisation through classify, ready to rank. */
export interface ScoredOrg {
  entry: WatchlistEntry;
  profile: OrgProfile;
  metrics: OrgMetrics;
  acceleration: Acceleration;
  classification: Classification;
  /** What GitHub's answer left out of the organisation's collection (the collector's note); absent: complete. */
  collectionNote?: string | null | undefined;
}

export interface Scores {
  velocity: number;
  growth: number;
  novelty: number;
  composite: number;
}

/** One organisation after rank: its published Startup record and where it stands. */
export interface RankedStartup {
  login: string;
  sector: SectorSlug;
  startup: Startup;
  scores: Scores;
  /**
   * Ranked across sectors, and so eligible for trending: above the minimum-activity floor and with evidence for its
   * signal type (RANKED_STRENGTHS).
   */
  eligible: boolean;
  /** Position across all sectors among eligible startups; null below the floor or without evidence for its type. */
  rankOverall: number | null;
  /** Position within the sector (above the activity floor first, then the rest, by the same order). */
  rankInSector: number;
  metrics: OrgMetrics;
  acceleration: Acceleration;
  /** Why the record got its signal type (stored with the metrics as `signalEvidence`). */
  signalEvidence: SignalEvidence;
  /** How its stage is known (stored with the metrics as `stageSource`; see stage-source.ts). */
  stageSource?: StageSource | undefined;
  /** What GitHub's answer left out of the organisation's collection that week; absent or null: complete. */
  collectionNote?: string | null | undefined;
}

/**
 * The metrics a published record keeps beside its Startup: window counts, changes and the evidence behind its type.
 * The store writes exactly this; in-memory snapshots built without a store (tests, evaluation, benchmarks) use it
 * too, so they hold what a loaded period holds.
 */
export function recordMetrics(s: RankedStartup): Record<string, unknown> {
  return {
    ...s.metrics,
    ...s.acceleration,
    signalEvidence: s.signalEvidence,
    ...(s.stageSource ? { stageSource: s.stageSource } : {}),
  };
}

/** One period after the rank stage: what is published. */
export interface RankedPeriod {
  /** Every startup, in overall order (eligible by rank, then the rest). */
  startups: RankedStartup[];
  trending: RankedStartup[];
  bySector: Map<SectorSlug, RankedStartup[]>;
}
