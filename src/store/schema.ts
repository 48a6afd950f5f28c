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
  x402_payments: X402PaymentsTable;
  solana_redemptions: SolanaRedemptionsTable;
}

export type PeriodRow = Selectable<PeriodsTable>;
export type PeriodStartupRow = Selectable<PeriodStartupsTable>;
export type NewPeriodStartupRow = Insertable<PeriodStartupsTable>;

/** x402 authorizations: reserved (`pending`) before settlement, `settled` with the transaction hash after. */
export interface X402PaymentsTable {
  id: Generated<number>;
  network: string;
  asset: string;
  /** Lower-case 0x address. */
  payer: string;
  /** Lower-case 0x + 64 hex digits. */
  nonce: string;
  /** Atomic units, as the decimal string PostgreSQL returns for numeric. */
  amount: string;
  /** Login of the startup the call answered. */
  startup: string;
  status: 'pending' | 'settled';
  tx_hash: string | null;
  created_at: Generated<Date>;
  settled_at: Date | null;
}

/** Redeemed Solana transaction signatures: the primary key makes each redeemable once. */
export interface SolanaRedemptionsTable {
  signature: string;
  cluster: string;
  mint: string;
  account_id: string;
  /** Raw token units (u64) as a decimal string. */
  amount: string;
  credits: number;
  slot: string;
  redeemed_at: Generated<Date>;
}
