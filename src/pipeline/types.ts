import type { SectorSlug, SignalType, Stage } from '../schemas/enums.js';
import type { Startup } from '../schemas/signals.js';

/** One tracked organisation as the watchlist (or the demo generator) describes it. */
export interface WatchlistEntry {
  login: string;
  displayName: string;
  sector: SectorSlug;
  stage?: Stage | undefined;
  description?: string | undefined;
  website?: string | undefined;
  linkedin?: string | undefined;
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
}

/** Commits by one author to one repository on one UTC day. Authors are logins, or `email:<hash>` when unlinked. */
export interface DailyCommits {
  date: string;
  repo: string;
  author: string;
  commits: number;
}

/** What the collect stage gathers for one organisation (raw: forks and bots still in). */
export interface RawOrgActivity {
  profile: OrgProfile;
  repos: RepoRecord[];
  commits: DailyCommits[];
}

/** After filter: only public non-fork repositories, human authors, days inside the 28-day window. */
export interface FilteredActivity {
  profile: OrgProfile;
  repos: RepoRecord[];
  commits: DailyCommits[];
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
}

/** After accelerate: changes versus the prior window, with the floor applied. */
export interface Acceleration {
  commitChangePct: number;
  contributorChangePct: number;
  commitVelocityChange: string;
  contributorGrowth: string;
}

export interface Classification {
  signalType: SignalType;
  stage: Stage;
  stageSource: 'watchlist' | 'estimated';
}

/** One organisation through classify, ready to rank. */
export interface ScoredOrg {
  entry: WatchlistEntry;
  profile: OrgProfile;
  metrics: OrgMetrics;
  acceleration: Acceleration;
  classification: Classification;
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
  /** Above the minimum-activity floor, and so eligible for trending. */
  eligible: boolean;
  /** Position across all sectors among eligible startups; null below the floor. */
  rankOverall: number | null;
  /** Position within the sector (eligible first, then the rest, by the same order). */
  rankInSector: number;
  metrics: OrgMetrics;
  acceleration: Acceleration;
}
