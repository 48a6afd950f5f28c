import type { Kysely } from 'kysely';
import type { Config, DatabaseConfig, GitHubConfig } from '../config.js';
import { addDays, isoDay, lastCompletePeriod, parsePeriodSlug, periodEnd, type PeriodRef } from '../domain/periods.js';
import type { SectorSlug } from '../schemas/enums.js';
import { openStore, type Store } from '../store/database.js';
import { inTransaction, publishPeriod } from '../store/periods.js';
import {
  createRun,
  deleteDemoPeriods,
  findResumableRun,
  getRun,
  iterateRunActivity,
  loadOrgCache,
  lockRun,
  partialActivities,
  pendingEntries,
  reopenRun,
  retryFailed,
  runCoverage,
  runsWithActivity,
  saveOutcomes,
  setRunStatus,
  statusCounts,
  type NewRunOrg,
  type OrgCacheRow,
  type OrgStatus,
  type RunRow,
  type RunStatus,
} from '../store/pipeline.js';
import type { Database } from '../store/schema.js';
import { collectOrgs, type CachedOrg } from './collect/collect.js';
import { collectOrgsFromGit, type GitCollectOptions } from './collect/git/collect.js';
import { GitHubAuthError, GitHubClient } from '../github/client.js';
import { rank } from './rank.js';
import { type RankedPeriod } from '../domain/records.js';
import { LOOKBACK_DAYS } from '../domain/rules.js';
import { scoreOrg } from './stages.js';
import type { ScoredOrg, WatchlistEntry } from '../domain/records.js';

/**
 * Orchestration of a weekly run: collect (stage 1, the only I/O) into stored raw activity, then the five pure stages
 * over that stored activity, then one atomic publication. A run is a set of per-organisation units of work whose
 * outcomes are written once each, so a run that was killed resumes with exactly the organisations still pending,
 * and no organisation is counted twice.
 */

/** Days of commit history a run collects: the 28-day look-back plus one week, so a run can also rebuild the week before. */
export const COLLECT_DAYS = LOOKBACK_DAYS + 7;
/**
 * Largest share of a watchlist that may still be failing after the last collection pass for the week to be published
 * without it. A few organisations that keep failing (a repository GitHub cannot serve) do not hold back everyone
 * else's week; more than this looks like an outage, and a week published from what is left would rank a different
 * population, so the run stops incomplete and resumes later.
 */
export const MAX_FAILED_SHARE = 0.1;

/** Collection passes over transiently failed organisations before a run stops as incomplete. */
export const MAX_ATTEMPTS = 3;

/** A problem the user must act on, with a message that says what to do. */
export class PipelineError extends Error {
  override name = 'PipelineError';
}

export interface PipelineContext {
  db: Kysely<Database>;
  /** The sections the pipeline reads: GitHub (batch size, pages, backoff), its own, and the database's. */
  config: Pick<Config, 'github' | 'pipeline' | 'database'>;
  /** Needed to collect; rebuilding and status work without it. */
  client?: GitHubClient | undefined;
  /** Set: collect from these git clones instead of GitHub (collect/git, docs/pipeline.md "The git source"). */
  git?: GitCollectOptions | undefined;
  now?: () => Date;
}

/**
 * The store as the pipeline opens it: a small pool. (The embedded database keeps each connection's protocol
 * exchanges apart, see store/embedded.ts, but it runs one statement at a time, so more connections buy nothing.)
 */
export function openPipelineStore(database: DatabaseConfig): Promise<Store> {
  return openStore({ dataDir: database.dataDir, databaseUrl: database.url, poolSize: pipelinePoolSize(database) });
}

/** Connections a pipeline process holds: a few on PostgreSQL, two on the embedded database. */
export function pipelinePoolSize(database: DatabaseConfig): number {
  return database.url ? 8 : 2;
}

export function createGitHubClient(
  github: GitHubConfig,
  onWait?: ConstructorParameters<typeof GitHubClient>[0]['onWait'],
): GitHubClient {
  if (!github.token) {
    throw new PipelineError(
      'GITHUB_TOKEN is not set: create a personal access token at https://github.com/settings/tokens (public data needs no scopes) and export GITHUB_TOKEN=…',
    );
  }
  return new GitHubClient({
    token: github.token,
    apiUrl: github.apiUrl,
    concurrency: github.concurrency,
    queryIntervalMs: github.queryIntervalMs,
    retryBaseMs: github.retryBaseMs,
    onWait,
  });
}

export function resolvePeriod(slug: string | undefined, now: Date): PeriodRef {
  let period: PeriodRef;
  try {
    period = slug ? parsePeriodSlug(slug) : lastCompletePeriod(now);
  } catch (err) {
    throw new PipelineError((err as Error).message);
  }
  if (periodEnd(period) > now) {
    throw new PipelineError(
      `${period.slug} has not ended yet (it closes ${isoDay(periodEnd(period))} 00:00 UTC); the latest complete week is ${lastCompletePeriod(now).slug}`,
    );
  }
  return period;
}

function lookbackStart(period: PeriodRef): string {
  return addDays(isoDay(periodEnd(period)), -LOOKBACK_DAYS);
}

function covers(cache: OrgCacheRow | undefined, period: PeriodRef): boolean {
  return Boolean(
    cache && cache.covers_from <= lookbackStart(period) && new Date(cache.covers_until) >= periodEnd(period),
  );
}

export interface RunRequest {
  period: PeriodRef;
  entries: WatchlistEntry[];
  /** Collect only these sectors; the others are carried from stored activity. */
  sectors?: SectorSlug[] | undefined;
  dryRun: boolean;
  fullRefresh: boolean;
}

export interface PreparedRun {
  run: RunRow;
  resumed: boolean;
  notes: string[];
}

/** Creates the run of a period, or resumes the unfinished one. */
export async function prepareRun(ctx: PipelineContext, request: RunRequest): Promise<PreparedRun> {
  const { db } = ctx;
  const notes: string[] = [];
  const existing = await findResumableRun(db, request.period.slug);
  if (existing) {
    if (existing.status === 'incomplete') await reopenRun(db, existing.id);
    notes.push(
      `resuming run ${existing.id} for ${request.period.slug} (${existing.status === 'incomplete' ? 'it stopped incomplete' : 'it was interrupted'}); it keeps the watchlist and options it started with`,
    );
    return { run: (await getRun(db, existing.id))!, resumed: true, notes };
  }

  const selected = request.sectors?.length
    ? request.entries.filter((e) => request.sectors!.includes(e.sector))
    : request.entries;
  if (selected.length === 0)
    throw new PipelineError(`the watchlist has no organisation in ${request.sectors!.join(', ')}`);
  const orgs: NewRunOrg[] = selected.map((entry) => ({ entry, status: 'pending' }));

  if (request.sectors?.length && !request.dryRun) {
    const others = request.entries.filter((e) => !request.sectors!.includes(e.sector));
    const cache = await loadOrgCache(
      db,
      others.map((e) => e.login),
    );
    const uncovered: string[] = [];
    for (const entry of others) {
      const row = cache.get(entry.login.toLowerCase());
      if (covers(row, request.period)) orgs.push({ entry, status: 'carried', cache: row });
      else uncovered.push(entry.login);
    }
    if (uncovered.length > 0) {
      throw new PipelineError(
        `cannot publish ${request.period.slug} from sectors ${request.sectors.join(', ')} alone: ${uncovered.length} organisation(s) of other sectors have no stored activity covering the week (${uncovered.slice(0, 5).join(', ')}${uncovered.length > 5 ? ', …' : ''}); run without --sector, or add --dry-run`,
      );
    }
    if (others.length > 0)
      notes.push(`${others.length} organisation(s) of other sectors are carried from stored activity`);
  }

  const run = await createRun(db, {
    periodSlug: request.period.slug,
    dryRun: request.dryRun,
    fullRefresh: request.fullRefresh,
    collectFrom: addDays(isoDay(periodEnd(request.period)), -COLLECT_DAYS),
    orgs,
  });
  return { run, resumed: false, notes };
}

/**
 * One unit of work: collects the still-pending organisations among `logins` and records their outcomes. Safe to
 * repeat: organisations already done are skipped, and an outcome is written only over a pending row.
 */
export async function processBatch(ctx: PipelineContext, runId: number, logins: string[]): Promise<number> {
  const run = await getRun(ctx.db, runId);
  if (!run || run.status !== 'collecting') return 0;
  const entries = await pendingEntries(ctx.db, runId, logins);
  if (entries.length === 0) return 0;
  if (ctx.git) {
    // Point in time from the clones: each default branch as it stood at the period's end; no request is sent.
    const period = parsePeriodSlug(run.period_slug);
    const window = { from: run.collect_from, until: collectUntil(period, ctx.now?.() ?? new Date()) };
    const result = await collectOrgsFromGit(entries, window, ctx.git);
    return saveOutcomes(ctx.db, runId, result.outcomes, { requests: 0, notModified: 0, rateRemaining: null });
  }
  if (!ctx.client) throw new PipelineError('no GitHub client configured');
  const cacheRows = await loadOrgCache(
    ctx.db,
    entries.map((e) => e.login),
  );
  const partial = await partialActivities(
    ctx.db,
    [...cacheRows.values()].map((row) => row.activity_digest),
  );
  const cache = new Map<string, CachedOrg>();
  for (const [login, row] of cacheRows) {
    cache.set(login, {
      etag: row.probe_etag,
      digest: row.activity_digest,
      coversFrom: row.covers_from,
      coversUntil: new Date(row.covers_until),
      partial: partial.has(row.activity_digest),
    });
  }
  const now = ctx.now?.() ?? new Date();
  try {
    const result = await collectOrgs(entries, cache, {
      client: ctx.client,
      // Point in time: what could be seen at the period's end, whenever the run happens.
      window: { from: run.collect_from, until: collectUntil(parsePeriodSlug(run.period_slug), now), collectedAt: now },
      fullRefresh: run.full_refresh,
      orgsPerQuery: ctx.config.github.orgsPerQuery,
      maxCommitPages: ctx.config.github.maxCommitPages,
    });
    return await saveOutcomes(ctx.db, runId, result.outcomes, {
      requests: result.meter.requests,
      notModified: result.meter.notModified,
      rateRemaining: ctx.client.remaining().core,
    });
  } catch (err) {
    if (err instanceof GitHubAuthError) await setRunStatus(ctx.db, runId, 'incomplete', err.message);
    throw err;
  }
}

/** The instant a run reads up to: the period's end (or now, for a period not yet over). */
export function collectUntil(period: PeriodRef, now: Date): Date {
  const end = periodEnd(period);
  return end < now ? end : now;
}

export type SettleResult =
  | { state: 'collecting' }
  | { state: 'retry'; logins: string[]; attempt: number }
  | { state: Exclude<RunStatus, 'collecting'>; run: RunRow; published?: PublishSummary | undefined };

export interface PublishSummary {
  period: PeriodRef;
  ranked: RankedPeriod;
  startups: number;
  demoPeriodsRemoved: number;
  published: boolean;
}

export function githubDatasetName(startups: number): string {
  return `Public GitHub activity of ${startups} tracked organisation${startups === 1 ? '' : 's'}`;
}

/** Scores every publishable organisation of a run for `period` and publishes (unless dry), inside `trx`. */
async function computeAndPublish(
  trx: Kysely<Database>,
  runId: number,
  period: PeriodRef,
  dryRun: boolean,
  now: Date,
): Promise<PublishSummary> {
  const scored: ScoredOrg[] = [];
  for await (const page of iterateRunActivity(trx, runId)) {
    for (const row of page)
      scored.push(scoreOrg({ entry: row.entry, raw: row.activity, collectionNote: row.collectionNote }, period));
  }
  if (scored.length === 0) throw new PipelineError(`run ${runId} has no organisation with activity to publish`);
  const ranked = rank(scored);
  let demoPeriodsRemoved = 0;
  if (!dryRun) {
    // Real and synthetic data never share a history: the first real period replaces the demo dataset.
    demoPeriodsRemoved = await deleteDemoPeriods(trx);
    await publishPeriod(trx, {
      period,
      dataset: 'github',
      datasetName: githubDatasetName(scored.length),
      ranked,
      publishedAt: now,
    });
  }
  return { period, ranked, startups: scored.length, demoPeriodsRemoved, published: !dryRun };
}

function countsText(counts: Record<OrgStatus, number>): string {
  return (Object.entries(counts) as [OrgStatus, number][])
    .filter(([, n]) => n > 0)
    .map(([status, n]) => `${n} ${status.replace('_', ' ')}`)
    .join(', ');
}

/**
 * Decides what a run needs next, under a lock on the run row so that exactly one worker acts: keep collecting,
 * retry failed organisations, stop incomplete (nothing is published: more than MAX_FAILED_SHARE still failing, or a
 * sector left uncovered), or compute and publish atomically (leaving out the few organisations still failing).
 */
export async function settleRun(ctx: PipelineContext, runId: number): Promise<SettleResult> {
  const now = ctx.now?.() ?? new Date();
  return inTransaction(ctx.db, async (trx) => {
    const run = await lockRun(trx, runId);
    if (!run) throw new PipelineError(`run ${runId} does not exist`);
    if (run.status !== 'collecting') return { state: run.status, run };
    const counts = await statusCounts(trx, runId);
    if (counts.pending > 0) return { state: 'collecting' };
    if (counts.failed > 0 && run.attempt < MAX_ATTEMPTS) {
      const logins = await retryFailed(trx, runId);
      return { state: 'retry', logins, attempt: run.attempt + 1 };
    }
    const total = Object.values(counts).reduce((sum, n) => sum + n, 0);
    if (counts.uncovered > 0 || counts.failed > MAX_FAILED_SHARE * total) {
      const message = `not published: ${counts.failed} organisation(s) failed after ${run.attempt} attempt(s) (${countsText(counts)}); see \`signal-service pipeline status\`, then run again to resume`;
      await setRunStatus(trx, runId, 'incomplete', message);
      return { state: 'incomplete', run: (await lockRun(trx, runId))! };
    }
    const period = parsePeriodSlug(run.period_slug);
    const published = await computeAndPublish(trx, runId, period, run.dry_run, now);
    const status: RunStatus = run.dry_run ? 'complete' : 'published';
    const leftOut =
      counts.failed > 0
        ? `; ${counts.failed} organisation(s) that failed after ${run.attempt} attempt(s) are left out of this week (see \`signal-service pipeline status\`)`
        : '';
    await setRunStatus(
      trx,
      runId,
      status,
      `${run.dry_run ? 'dry run, not published' : `published ${period.slug}`}: ${published.startups} startups (${countsText(counts)})${leftOut}`,
    );
    return { state: status, run: (await lockRun(trx, runId))!, published };
  });
}

export interface RebuildResult {
  sourceRun: RunRow;
  summary: PublishSummary;
}

/** Recomputes a period from stored activity (no GitHub request) and publishes it again, atomically. */
export async function rebuildPeriod(ctx: PipelineContext, period: PeriodRef, dryRun = false): Promise<RebuildResult> {
  const now = ctx.now?.() ?? new Date();
  for (const run of await runsWithActivity(ctx.db, period.slug)) {
    const coverage = await runCoverage(ctx.db, run.id);
    if (coverage.orgs === 0 || !coverage.from || !coverage.until) continue;
    if (coverage.from <= lookbackStart(period) && coverage.until >= periodEnd(period)) {
      const summary = await inTransaction(ctx.db, (trx) => computeAndPublish(trx, run.id, period, dryRun, now));
      return { sourceRun: run, summary };
    }
  }
  throw new PipelineError(
    `no stored activity covers ${period.slug} (its windows need commits from ${lookbackStart(period)} to ${isoDay(periodEnd(period))}): collect it with \`signal-service pipeline run --period ${period.slug}\``,
  );
}
