import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

/** Table shapes as Kysely sees them. One source for both PostgreSQL and the embedded PGlite engine. */
export interface PeriodsTable {
  slug: string;
  iso_year: number;
  iso_week: number;
  name: string;
  starts_on: string;
  ends_on: string;
  /** `synthetic-demo` for the generated dataset, `github` for pipeline output. */
  dataset: string;
  dataset_name: string;
  startups_tracked: number;
  content_hash: string;
  published_at: ColumnType<Date, Date | string, Date | string>;
}

export interface PeriodStartupsTable {
  period_slug: string;
  org_login: string;
  /** 1-based position in the overall ordering (eligible by rank, then the rest). */
  position: number;
  sector: string;
  rank_overall: number | null;
  rank_in_sector: number;
  eligible: boolean;
  score_velocity: number;
  score_growth: number;
  score_novelty: number;
  score_composite: number;
  /** The published Startup record, exactly the interface shape. */
  startup: ColumnType<unknown, string, string>;
  /** Window counts and changes behind it (OrgMetrics and Acceleration). */
  metrics: ColumnType<unknown, string, string>;
}

export interface ServiceStateTable {
  key: string;
  value: ColumnType<unknown, string, string>;
  updated_at: Generated<Date>;
}

export interface Database {
  periods: PeriodsTable;
  period_startups: PeriodStartupsTable;
  service_state: ServiceStateTable;
  scout_star_cache: ScoutStarCacheTable;
}

export type PeriodRow = Selectable<PeriodsTable>;
export type PeriodStartupRow = Selectable<PeriodStartupsTable>;
export type NewPeriodStartupRow = Insertable<PeriodStartupsTable>;

/** Scout Score: a user's star history as last read from GitHub (migration 0005_scout). */
export interface ScoutStarCacheTable {
  /** Lower-case GitHub login. */
  login_key: string;
  /** False when GitHub answered 404 for the user. */
  found: boolean;
  /** The pages read, oldest stars first: `{etag, stars}[]`. */
  pages: ColumnType<unknown, string, string>;
  truncated: boolean;
  fetched_at: ColumnType<Date, Date | string, Date | string>;
}
