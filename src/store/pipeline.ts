import { SYNTHETIC_DATASET } from '../domain/datasets.js';
import { createHash } from 'node:crypto';
import { sql, type ColumnType, type Generated, type Kysely, type Selectable } from 'kysely';
import type { PipelineFigures } from '../metrics.js';
import type { RawOrgActivity, WatchlistEntry } from '../domain/records.js';
import { inTransaction } from './periods.js';
import type { Database } from './schema.js';

/**
 * Data access for the GitHub pipeline (tables of migration 0002). Everything a run needs to resume after a crash
 * lives here: the run, one row per organisation (its outcome is written once, when its job finishes), the raw
 * activity behind every outcome, and the ETag cache of conditional requests.
 */

/** A run moves collecting → published (or complete, for a dry run) or incomplete (something must be fixed first). */
export type RunStatus = 'collecting' | 'complete' | 'published' | 'incomplete';

/**
 * Per-organisation outcome.
 * - pending: not collected yet (a job is queued or will be).
 * - collected: fetched from GitHub in this run. partial: fetched, but GitHub's answer left something out (null
 *   nodes beside errors) or a repository was too busy to read commit by commit (see message); published, its records
 *   saying `collection: partial` with the message. unchanged: GitHub answered 304, the stored activity is still current.
 * - carried: outside the sectors this run collects; its stored activity covers the period.
 * - not_found: GitHub has no such organisation (404); left out of the period.
 * - failed: a transient error (GitHub down, limits exhausted); retried, and blocks publication while it lasts.
 * - uncovered: outside the sectors this run collects, and no stored activity covers the period; blocks publication.
 */
export type OrgStatus =
  'pending' | 'collected' | 'partial' | 'unchanged' | 'carried' | 'not_found' | 'failed' | 'uncovered';

export const PUBLISHABLE: readonly OrgStatus[] = ['collected', 'partial', 'unchanged', 'carried'];

export interface PipelineRunsTable {
  id: Generated<number>;
  period_slug: string;
  status: RunStatus;
  dry_run: boolean;
  full_refresh: boolean;
  /** First UTC day (YYYY-MM-DD) of the commit history this run collects. */
  collect_from: string;
  total_orgs: number;
  attempt: Generated<number>;
  requests: Generated<number>;
  not_modified: Generated<number>;
  rate_remaining: number | null;
  message: string | null;
  created_at: Generated<Date>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
  finished_at: Date | null;
}

export interface PipelineRunOrgsTable {
  run_id: number;
  /** Lower-case organisation login: GitHub logins are case-insensitive. */
  login: string;
  entry: ColumnType<WatchlistEntry, string, string>;
  status: OrgStatus;
  message: string | null;
  requests: Generated<number>;
  activity_digest: string | null;
  covers_from: string | null;
  covers_until: Date | null;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface GithubActivityTable {
  digest: string;
  login: string;
  activity: ColumnType<RawOrgActivity, string, string>;
  /**
   * What GitHub's answer left out when this activity was collected (the partial outcome's message, migration
   * 0010_collection); null when it was collected whole. Every week published from the activity says so.
   */
  collection_note: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Generated<Date>;
}

export interface GithubOrgCacheTable {
  login: string;
  probe_etag: string | null;
  activity_digest: string;
  covers_from: string;
  covers_until: ColumnType<Date, Date | string, Date | string>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export type PipelineTables = {
  pipeline_runs: PipelineRunsTable;
  pipeline_run_orgs: PipelineRunOrgsTable;
  github_activity: GithubActivityTable;
  github_org_cache: GithubOrgCacheTable;
};

export type PipelineDatabase = Database & PipelineTables;
export type RunRow = Selectable<PipelineRunsTable>;
export type RunOrgRow = Selectable<PipelineRunOrgsTable>;
export type OrgCacheRow = Selectable<GithubOrgCacheTable>;

const BATCH = 500;

export function pipelineDb(db: Kysely<Database>): Kysely<PipelineDatabase> {
  return db.withTables<PipelineTables>();
}

export function activityDigest(activity: RawOrgActivity): string {
  return createHash('sha256').update(JSON.stringify(activity)).digest('hex');
}

export interface NewRunOrg {
  entry: WatchlistEntry;
  status: Extract<OrgStatus, 'pending' | 'carried' | 'uncovered'>;
  message?: string;
  /** For carried organisations: the stored activity and what it covers. */
  cache?: OrgCacheRow;
}

export interface NewRun {
  periodSlug: string;
  dryRun: boolean;
  fullRefresh: boolean;
  collectFrom: string;
  orgs: NewRunOrg[];
}

export async function createRun(db: Kysely<Database>, input: NewRun): Promise<RunRow> {
  return inTransaction(db, async (trx) => {
    const p = pipelineDb(trx);
    const run = await p
      .insertInto('pipeline_runs')
      .values({
        period_slug: input.periodSlug,
        status: 'collecting',
        dry_run: input.dryRun,
        full_refresh: input.fullRefresh,
        collect_from: input.collectFrom,
        total_orgs: input.orgs.length,
        rate_remaining: null,
        message: null,
        finished_at: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    for (let i = 0; i < input.orgs.length; i += BATCH) {
      await p
        .insertInto('pipeline_run_orgs')
        .values(
          input.orgs.slice(i, i + BATCH).map((o) => ({
            run_id: run.id,
            login: o.entry.login.toLowerCase(),
            entry: JSON.stringify(o.entry),
            status: o.status,
            message: o.message ?? null,
            activity_digest: o.cache?.activity_digest ?? null,
            covers_from: o.cache?.covers_from ?? null,
            covers_until: o.cache?.covers_until ?? null,
          })),
        )
        .execute();
    }
    return run;
  });
}

export async function getRun(db: Kysely<Database>, id: number): Promise<RunRow | undefined> {
  return pipelineDb(db).selectFrom('pipeline_runs').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The newest run of a period that has not reached a final state (collecting, or incomplete and resumable). */
export async function findResumableRun(db: Kysely<Database>, periodSlug: string): Promise<RunRow | undefined> {
  const newest = await pipelineDb(db)
    .selectFrom('pipeline_runs')
    .selectAll()
    .where('period_slug', '=', periodSlug)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return newest && (newest.status === 'collecting' || newest.status === 'incomplete') ? newest : undefined;
}

export async function listRuns(db: Kysely<Database>, limit = 10): Promise<RunRow[]> {
  return pipelineDb(db).selectFrom('pipeline_runs').selectAll().orderBy('id', 'desc').limit(limit).execute();
}

/** Runs whose stored activity may serve `periodSlug`: that period's own runs first, then the newest others. */
export async function runsWithActivity(db: Kysely<Database>, periodSlug: string): Promise<RunRow[]> {
  const rows = await pipelineDb(db)
    .selectFrom('pipeline_runs')
    .selectAll()
    .where('status', 'in', ['published', 'complete'])
    .orderBy('id', 'desc')
    .execute();
  return [...rows.filter((r) => r.period_slug === periodSlug), ...rows.filter((r) => r.period_slug !== periodSlug)];
}

export async function setRunStatus(
  db: Kysely<Database>,
  id: number,
  status: RunStatus,
  message: string | null,
): Promise<void> {
  const final = status !== 'collecting';
  await pipelineDb(db)
    .updateTable('pipeline_runs')
    .set({ status, message, updated_at: new Date(), ...(final ? { finished_at: new Date() } : {}) })
    .where('id', '=', id)
    .execute();
}

/** Reopens a stopped run: failed organisations go back to pending and the attempt count restarts. */
export async function reopenRun(db: Kysely<Database>, id: number): Promise<void> {
  await inTransaction(db, async (trx) => {
    const p = pipelineDb(trx);
    await p
      .updateTable('pipeline_run_orgs')
      .set({ status: 'pending', updated_at: new Date() })
      .where('run_id', '=', id)
      .where('status', '=', 'failed')
      .execute();
    await p
      .updateTable('pipeline_runs')
      .set({ status: 'collecting', attempt: 1, message: null, finished_at: null, updated_at: new Date() })
      .where('id', '=', id)
      .execute();
  });
}

/** Failed organisations back to pending for one more attempt; returns their logins. */
export async function retryFailed(db: Kysely<Database>, id: number): Promise<string[]> {
  return inTransaction(db, async (trx) => {
    const p = pipelineDb(trx);
    const rows = await p
      .updateTable('pipeline_run_orgs')
      .set({ status: 'pending', updated_at: new Date() })
      .where('run_id', '=', id)
      .where('status', '=', 'failed')
      .returning('login')
      .execute();
    await p
      .updateTable('pipeline_runs')
      .set((eb) => ({ attempt: eb('attempt', '+', 1), updated_at: new Date() }))
      .where('id', '=', id)
      .execute();
    return rows.map((r) => r.login);
  });
}

export async function pendingLogins(db: Kysely<Database>, runId: number): Promise<string[]> {
  const rows = await pipelineDb(db)
    .selectFrom('pipeline_run_orgs')
    .select('login')
    .where('run_id', '=', runId)
    .where('status', '=', 'pending')
    .orderBy('login')
    .execute();
  return rows.map((r) => r.login);
}

/** The still-pending organisations among `logins` (a job whose organisations are done has nothing left to do). */
export async function pendingEntries(db: Kysely<Database>, runId: number, logins: string[]): Promise<WatchlistEntry[]> {
  if (logins.length === 0) return [];
  const rows = await pipelineDb(db)
    .selectFrom('pipeline_run_orgs')
    .select('entry')
    .where('run_id', '=', runId)
    .where('login', 'in', logins)
    .where('status', '=', 'pending')
    .orderBy('login')
    .execute();
  return rows.map((r) => r.entry);
}

export async function statusCounts(db: Kysely<Database>, runId: number): Promise<Record<OrgStatus, number>> {
  const rows = await pipelineDb(db)
    .selectFrom('pipeline_run_orgs')
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .where('run_id', '=', runId)
    .groupBy('status')
    .execute();
  const counts: Record<OrgStatus, number> = {
    pending: 0,
    collected: 0,
    partial: 0,
    unchanged: 0,
    carried: 0,
    not_found: 0,
    failed: 0,
    uncovered: 0,
  };
  for (const r of rows) counts[r.status] = Number(r.n);
  return counts;
}

/** Organisations of a run with a status worth showing (everything but a clean collect), with their messages. */
export async function runProblems(db: Kysely<Database>, runId: number, limit = 50): Promise<RunOrgRow[]> {
  return pipelineDb(db)
    .selectFrom('pipeline_run_orgs')
    .selectAll()
    .where('run_id', '=', runId)
    .where('status', 'in', ['partial', 'not_found', 'failed', 'uncovered'])
    .orderBy('status')
    .orderBy('login')
    .limit(limit)
    .execute();
}

export async function loadOrgCache(db: Kysely<Database>, logins: string[]): Promise<Map<string, OrgCacheRow>> {
  const map = new Map<string, OrgCacheRow>();
  for (let i = 0; i < logins.length; i += BATCH) {
    const slice = logins.slice(i, i + BATCH).map((l) => l.toLowerCase());
    if (slice.length === 0) continue;
    const rows = await pipelineDb(db).selectFrom('github_org_cache').selectAll().where('login', 'in', slice).execute();
    for (const row of rows) map.set(row.login, row);
  }
  return map;
}

/** Which of these stored activities were collected from a partial answer (they carry a collection note). */
export async function partialActivities(db: Kysely<Database>, digests: string[]): Promise<Set<string>> {
  const partial = new Set<string>();
  for (let i = 0; i < digests.length; i += BATCH) {
    const slice = digests.slice(i, i + BATCH);
    if (slice.length === 0) continue;
    const rows = await pipelineDb(db)
      .selectFrom('github_activity')
      .select('digest')
      .where('digest', 'in', slice)
      .where('collection_note', 'is not', null)
      .execute();
    for (const row of rows) partial.add(row.digest);
  }
  return partial;
}

/** What one finished job learnt about one organisation. */
export interface OrgOutcome {
  login: string;
  status: Exclude<OrgStatus, 'pending' | 'carried' | 'uncovered'>;
  message?: string | undefined;
  requests: number;
  /** The activity to store (fresh), or the digest of the stored activity that is still current (unchanged). */
  activity?: RawOrgActivity | undefined;
  digest?: string | undefined;
  coversFrom?: string | undefined;
  coversUntil?: Date | undefined;
  /** The ETag of the organisation's change probe, kept for the next run's conditional request. */
  probeEtag?: string | null | undefined;
}

/**
 * Records outcomes in one transaction. Only rows still pending are written, so when two workers happen to collect
 * the same organisation the first outcome stands and the organisation is counted once.
 */
export async function saveOutcomes(
  db: Kysely<Database>,
  runId: number,
  outcomes: OrgOutcome[],
  counters: { requests: number; notModified: number; rateRemaining: number | null },
): Promise<number> {
  return inTransaction(db, async (trx) => {
    const p = pipelineDb(trx);
    let written = 0;
    for (const outcome of outcomes) {
      const login = outcome.login.toLowerCase();
      let digest = outcome.digest ?? null;
      if (outcome.activity) {
        digest = activityDigest(outcome.activity);
        // The latest collection that gave this very activity says whether it is whole.
        const collectionNote = outcome.status === 'partial' ? (outcome.message ?? 'partial') : null;
        await p
          .insertInto('github_activity')
          .values({ digest, login, activity: JSON.stringify(outcome.activity), collection_note: collectionNote })
          .onConflict((oc) => oc.column('digest').doUpdateSet({ collection_note: collectionNote }))
          .execute();
      }
      const updated = await p
        .updateTable('pipeline_run_orgs')
        .set({
          status: outcome.status,
          message: outcome.message ?? null,
          requests: outcome.requests,
          activity_digest: digest,
          covers_from: outcome.coversFrom ?? null,
          covers_until: outcome.coversUntil ?? null,
          updated_at: new Date(),
        })
        .where('run_id', '=', runId)
        .where('login', '=', login)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) continue;
      written++;
      if (digest && outcome.coversFrom && outcome.coversUntil) {
        const row = {
          login,
          probe_etag: outcome.probeEtag ?? null,
          activity_digest: digest,
          covers_from: outcome.coversFrom,
          covers_until: outcome.coversUntil,
          updated_at: new Date(),
        };
        await p
          .insertInto('github_org_cache')
          .values(row)
          .onConflict((oc) =>
            oc.column('login').doUpdateSet({
              probe_etag: row.probe_etag,
              activity_digest: row.activity_digest,
              covers_from: row.covers_from,
              covers_until: row.covers_until,
              updated_at: row.updated_at,
            }),
          )
          .execute();
      } else if (outcome.status === 'not_found') {
        await p.deleteFrom('github_org_cache').where('login', '=', login).execute();
      }
    }
    await p
      .updateTable('pipeline_runs')
      .set((eb) => ({
        requests: eb('requests', '+', counters.requests),
        not_modified: eb('not_modified', '+', counters.notModified),
        ...(counters.rateRemaining !== null ? { rate_remaining: counters.rateRemaining } : {}),
        updated_at: new Date(),
      }))
      .where('id', '=', runId)
      .execute();
    return written;
  });
}

/** Locks a run row for the rest of the transaction (the one place that decides and publishes). */
export async function lockRun(trx: Kysely<Database>, id: number): Promise<RunRow | undefined> {
  return pipelineDb(trx).selectFrom('pipeline_runs').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export interface StoredOrgActivity {
  entry: WatchlistEntry;
  status: OrgStatus;
  coversFrom: string | null;
  coversUntil: Date | null;
  activity: RawOrgActivity;
  /** What GitHub's answer left out when the activity was collected (by this run or an earlier one); null: whole. */
  collectionNote: string | null;
}

/** The publishable organisations of a run with their activity, in pages, so large runs are never held at once. */
export async function* iterateRunActivity(
  db: Kysely<Database>,
  runId: number,
  pageSize = 200,
): AsyncGenerator<StoredOrgActivity[]> {
  let after = '';
  for (;;) {
    const rows = await pipelineDb(db)
      .selectFrom('pipeline_run_orgs as o')
      .innerJoin('github_activity as a', 'a.digest', 'o.activity_digest')
      .select(['o.login', 'o.entry', 'o.status', 'o.covers_from', 'o.covers_until', 'a.activity', 'a.collection_note'])
      .where('o.run_id', '=', runId)
      .where('o.status', 'in', PUBLISHABLE)
      .where('o.login', '>', after)
      .orderBy('o.login')
      .limit(pageSize)
      .execute();
    if (rows.length === 0) return;
    yield rows.map((r) => ({
      entry: r.entry,
      status: r.status,
      coversFrom: r.covers_from,
      coversUntil: r.covers_until,
      activity: r.activity,
      collectionNote: r.collection_note,
    }));
    after = rows[rows.length - 1]!.login;
    if (rows.length < pageSize) return;
  }
}

/** The narrowest coverage among a run's publishable organisations: what periods its stored activity can serve. */
export async function runCoverage(
  db: Kysely<Database>,
  runId: number,
): Promise<{ from: string | null; until: Date | null; orgs: number }> {
  const row = await pipelineDb(db)
    .selectFrom('pipeline_run_orgs')
    .select((eb) => [
      eb.fn.max('covers_from').as('from'),
      eb.fn.min('covers_until').as('until'),
      eb.fn.countAll<number>().as('orgs'),
    ])
    .where('run_id', '=', runId)
    .where('status', 'in', PUBLISHABLE)
    .executeTakeFirstOrThrow();
  return {
    from: (row.from as string | null) ?? null,
    until: row.until ? new Date(row.until as Date) : null,
    orgs: Number(row.orgs),
  };
}

/** Deletes the synthetic demo periods (used when the first real period is published, in the same transaction). */
export async function deleteDemoPeriods(trx: Kysely<Database>): Promise<number> {
  const result = await trx.deleteFrom('periods').where('dataset', '=', SYNTHETIC_DATASET).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** What /metrics reports of the pipeline: runs by status and the GitHub requests they spent (one query). */
export async function pipelineFigures(db: Kysely<Database>): Promise<PipelineFigures> {
  const rows = await pipelineDb(db)
    .selectFrom('pipeline_runs')
    .select([
      'status',
      sql<number>`count(*)::int`.as('runs'),
      sql<number>`coalesce(sum(requests), 0)::bigint`.as('requests'),
      sql<number>`coalesce(sum(not_modified), 0)::bigint`.as('not_modified'),
    ])
    .groupBy('status')
    .execute();
  return {
    runsByStatus: Object.fromEntries(rows.map((r) => [r.status, Number(r.runs)])),
    githubRequests: rows.reduce((sum, r) => sum + Number(r.requests), 0),
    githubNotModified: rows.reduce((sum, r) => sum + Number(r.not_modified), 0),
  };
}
