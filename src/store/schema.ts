import type { ColumnType, Generated, Insertable, Kysely, Selectable } from 'kysely';

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
  /**
   * Whether the organisation's collection was complete that week (migration 0010_collection): `complete` or
   * `partial`; null for real weeks published before the migration (read as unknown).
   */
  collection: ColumnType<'complete' | 'partial' | null, 'complete' | 'partial' | undefined, 'complete' | 'partial'>;
  /** When partial, what GitHub's answer left out (one line); null otherwise. */
  collection_note: ColumnType<string | null, string | null | undefined, string | null>;
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
// Paid access (migration 0003_accounts): accounts, keys, the credit ledger, idempotency, card checkout, mail outbox.
export interface AccountsTable {
  id: string;
  email: string | null;
  balance: Generated<number>;
  purchased: Generated<number>;
  consumed: Generated<number>;
  last_consumed_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  created_at: Generated<Date>;
}

export interface ApiKeysTable {
  id: string;
  account_id: string;
  /** SHA-256 of the key, hex. The key itself is never stored. */
  key_hash: string;
  fingerprint: string;
  label: string | null;
  created_at: Generated<Date>;
  revoked_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
}

export interface CreditLedgerTable {
  id: Generated<number>;
  account_id: string;
  kind: 'grant' | 'charge' | 'refund';
  delta: number;
  balance_after: number;
  reason: string;
  reference: string | null;
  created_at: Generated<Date>;
}

/** A charge held until its answer is delivered (see src/payments/ledger.ts). */
export interface CreditHoldsTable {
  ledger_id: number;
  account_id: string;
  reference: string | null;
  expires_at: Date;
}

export interface IdempotencyRequestsTable {
  account_id: string;
  key: string;
  request_hash: string;
  status_code: number;
  headers: ColumnType<Record<string, string>, string, string>;
  body: string;
  created_at: Generated<Date>;
}

export interface StripeEventsTable {
  id: string;
  type: string;
  handled_at: Generated<Date>;
}

export interface CheckoutDeliveriesTable {
  session_id: string;
  account_id: string;
  key_id: string;
  email: string | null;
  credits: number;
  reveal_ciphertext: string | null;
  revealed_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  created_at: Generated<Date>;
}

export interface MailOutboxTable {
  id: Generated<number>;
  kind: string;
  recipient: string;
  reference: string;
  secret_ciphertext: string | null;
  attempts: Generated<number>;
  next_attempt_at: ColumnType<Date, Date | string | undefined, Date | string>;
  sent_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  last_error: string | null;
  /** A ready-made message (alert digests, migration 0009_alerts); key e-mails are composed at sending. */
  subject: ColumnType<string | null, string | null | undefined, string | null>;
  body: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Generated<Date>;
}

export interface AccountsDatabase {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  credit_ledger: CreditLedgerTable;
  credit_holds: CreditHoldsTable;
  idempotency_requests: IdempotencyRequestsTable;
  stripe_events: StripeEventsTable;
  checkout_deliveries: CheckoutDeliveriesTable;
  mail_outbox: MailOutboxTable;
}

// Merged into Database so every Kysely<Database> (and its transactions) knows the paid-access tables.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Database extends AccountsDatabase {}

export type AccountRow = Selectable<AccountsTable>;

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
  /** pending: reserved, settlement outcome not known yet; settled: the transfer happened on-chain. */
  status: 'pending' | 'settled';
  /** Null when settled without a known transaction (found settled by the reconciler, its log not found). */
  tx_hash: string | null;
  created_at: Generated<Date>;
  settled_at: Date | null;
  /** EIP-3009 validBefore (Unix seconds, decimal string); null for rows from before migration 0007. */
  valid_before: string | null;
  x402_version: Generated<number>;
  /** SHA-256 (hex) of the lower-case signature; null for rows from before migration 0007. */
  signature_hash: string | null;
  reserved_at: Generated<Date>;
  /** When the paid answer was handed out; null while paid but not answered. */
  delivered_at: Date | null;
  /** When the reconciler last asked the token contract about a pending row. */
  checked_at: Date | null;
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

// Crypto payments (migration 0004_payments), merged into Database like the paid-access tables.
export interface PaymentsDatabase {
  x402_payments: X402PaymentsTable;
  solana_redemptions: SolanaRedemptionsTable;
}
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Database extends PaymentsDatabase {}

/** A database handle or an open transaction: what a function that may run inside a caller's transaction takes. */
export type Executor = Kysely<Database>;

// Alerts (migration 0009_alerts): subscriptions, their events, and the delivery queue and log.
export interface AlertSubscriptionsTable {
  id: string;
  account_id: string;
  label: string | null;
  /** What is watched (src/core/alerts/rules.ts `Watch`). */
  watch: ColumnType<unknown, string, string>;
  webhook_url: string | null;
  /** The `whsec_` secret sealed with the alerts secret box; never stored in clear. */
  webhook_secret_ciphertext: string | null;
  email: string | null;
  created_at: Generated<Date>;
}

export interface AlertEventsTable {
  /** `msg_…`: the Standard Webhooks `webhook-id`, the same for every attempt. */
  id: string;
  subscription_id: string;
  period_slug: string;
  kind: string;
  org_login: string;
  payload: ColumnType<unknown, string, string>;
  created_at: Generated<Date>;
}

export interface AlertDeliveriesTable {
  id: Generated<number>;
  subscription_id: string;
  channel: 'webhook' | 'email';
  event_id: string | null;
  period_slug: string;
  /** The webhook URL or e-mail address delivered to (as it was then). */
  target: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: Generated<number>;
  next_attempt_at: ColumnType<Date, Date | string | undefined, Date | string>;
  last_attempt_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  last_status: number | null;
  last_error: string | null;
  delivered_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** E-mail digests: the mail outbox row that carries the message. */
  mail_outbox_id: ColumnType<string | null, number | string | null | undefined, number | string | null>;
  created_at: Generated<Date>;
}

export interface AlertsDatabase {
  alert_subscriptions: AlertSubscriptionsTable;
  alert_events: AlertEventsTable;
  alert_deliveries: AlertDeliveriesTable;
}
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Database extends AlertsDatabase {}

/** A2A tasks (migration 0011_a2a_tasks): the whole task document, so tasks/get answers on any instance. */
export interface A2aTasksTable {
  id: string;
  task: ColumnType<unknown, string, string>;
  updated_at: ColumnType<Date, Date | string, Date | string>;
}

export interface A2aDatabase {
  a2a_tasks: A2aTasksTable;
}

export interface Database extends A2aDatabase {}
