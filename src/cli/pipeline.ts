import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import cliProgress from 'cli-progress';
import { Command, InvalidArgumentError, Option } from 'commander';
import lockfile from 'proper-lockfile';
import { loadConfig, type DatabaseConfig } from '../config.js';
import { SECTOR_SLUGS, type SectorSlug } from '../schemas/enums.js';
import { discoverCandidates } from '../pipeline/collect/discover.js';
import { GitHubAuthError, type GitHubClient } from '../github/client.js';
import { executeRun, PgBossQueue } from '../pipeline/queue/index.js';
import {
  createGitHubClient,
  openPipelineStore,
  pipelinePoolSize,
  PipelineError,
  prepareRun,
  rebuildPeriod,
  resolvePeriod,
  type PipelineContext,
  type PublishSummary,
  type SettleResult,
} from '../pipeline/run.js';
import { chooseWatchlist, readWatchlist, watchlistYaml, WatchlistError } from '../pipeline/watchlist.js';
import type { Startup } from '../schemas/signals.js';
import { shiftPeriod, type PeriodRef } from '../domain/periods.js';
import type { WatchlistEntry } from '../domain/records.js';
import { latestPeriod, listPeriods, periodStartups } from '../store/periods.js';
import { withMigratedStore } from '../app.js';
import { migrateToLatest, type Store } from '../store/database.js';
import { getRun, listRuns, runProblems, statusCounts, type OrgStatus, type RunRow } from '../store/pipeline.js';

/**
 * `signal-service pipeline …`: run (collect and publish a week), rebuild (recompute a week from stored activity),
 * status, worker (PostgreSQL: share runs across machines) and discover (candidate organisations per sector).
 * Command output goes to stdout; progress and notes go to stderr.
 */

const out = (line = '') => process.stdout.write(`${line}\n`);
const note = (line: string) => process.stderr.write(`${line}\n`);

function parseSectors(value: string, previous: SectorSlug[] = []): SectorSlug[] {
  const slugs = value
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  for (const slug of slugs) {
    if (!(SECTOR_SLUGS as readonly string[]).includes(slug)) {
      throw new InvalidArgumentError(`unknown sector "${slug}"; one of: ${SECTOR_SLUGS.join(', ')}`);
    }
  }
  return [...new Set([...previous, ...(slugs as SectorSlug[])])];
}

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('must be a positive integer');
  return n;
}

function backfillWeeks(value: string): number {
  const n = positiveInt(value);
  if (n > MAX_BACKFILL_WEEKS) throw new InvalidArgumentError(`at most ${MAX_BACKFILL_WEEKS} weeks`);
  return n;
}

function withStore<T>(database: DatabaseConfig, work: (store: Store) => Promise<T>): Promise<T> {
  return withMigratedStore(database, pipelinePoolSize(database), work);
}

const fmt = new Intl.NumberFormat('en-US');

function countsText(counts: Record<OrgStatus, number>): string {
  return (
    (Object.entries(counts) as [OrgStatus, number][])
      .filter(([, n]) => n > 0)
      .map(([status, n]) => `${fmt.format(n)} ${status.replace('_', ' ')}`)
      .join(', ') || 'none'
  );
}

function seconds(ms: number): string {
  return ms < 60_000
    ? `${(ms / 1000).toFixed(1)} s`
    : `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** Live progress from the database (so it includes other workers' progress on PostgreSQL). */
function startProgress(ctx: PipelineContext, run: RunRow, client: GitHubClient | undefined): () => Promise<void> {
  const tty = Boolean(process.stderr.isTTY);
  const bar = new cliProgress.SingleBar(
    {
      format: `${run.period_slug} {bar} {value}/{total} orgs | {requests} requests ({notModified} × 304) | rate limit left {rate} | ETA {eta_formatted}`,
      stream: process.stderr,
      hideCursor: tty,
      etaBuffer: 50,
      fps: 5,
      noTTYOutput: !tty,
      notTTYSchedule: 5000,
      barsize: 24,
    },
    cliProgress.Presets.shades_classic,
  );
  const payload = (r: RunRow | undefined) => {
    const remaining = client?.remaining() ?? { core: null, graphql: null };
    const rate = [
      remaining.core !== null ? `REST ${fmt.format(remaining.core)}` : undefined,
      remaining.graphql !== null ? `GraphQL ${fmt.format(remaining.graphql)}` : undefined,
    ]
      .filter(Boolean)
      .join(' · ');
    return {
      requests: fmt.format(Number(r?.requests ?? 0)),
      notModified: fmt.format(Number(r?.not_modified ?? 0)),
      rate: rate || '?',
    };
  };
  let stopped = false;
  let ticking: Promise<void> = Promise.resolve();
  const tick = async () => {
    const [counts, current] = await Promise.all([statusCounts(ctx.db, run.id), getRun(ctx.db, run.id)]);
    const done = run.total_orgs - counts.pending;
    if (!stopped) bar.update(done, payload(current));
  };
  bar.start(run.total_orgs, 0, payload(run));
  const timer = setInterval(() => {
    ticking = tick().catch(() => {});
  }, 500);
  return async () => {
    clearInterval(timer);
    await ticking;
    await tick().catch(() => {});
    stopped = true;
    bar.stop();
  };
}

async function printSummary(
  ctx: PipelineContext,
  runId: number,
  result: SettleResult,
  startedAt: number,
): Promise<void> {
  const run = (await getRun(ctx.db, runId))!;
  const counts = await statusCounts(ctx.db, runId);
  const requests = Number(run.requests);
  const collected = run.total_orgs - counts.carried;
  out(`Run ${run.id} · ${run.period_slug} · ${run.status}${run.dry_run ? ' (dry run)' : ''}`);
  out(`  organisations  ${countsText(counts)} (${fmt.format(run.total_orgs)} in the run)`);
  out(
    `  requests       ${fmt.format(requests)} (${collected > 0 ? (requests / collected).toFixed(2) : '0'} per organisation), ${fmt.format(Number(run.not_modified))} answered 304 Not Modified`,
  );
  if (run.rate_remaining !== null) out(`  rate limit     ${fmt.format(run.rate_remaining)} REST requests left`);
  out(`  time           ${seconds(Date.now() - startedAt)}`);
  if (run.message) out(`  ${run.message}`);
  const published: PublishSummary | undefined = 'published' in result ? result.published : undefined;
  if (published && published.demoPeriodsRemoved > 0) {
    out(`  replaced the synthetic demo dataset (${published.demoPeriodsRemoved} periods) with real data`);
  }
  // Read back from the store: on PostgreSQL another worker may have been the one that published.
  const top =
    run.status === 'published'
      ? (await periodStartups(ctx.db, run.period_slug)).filter((r) => r.rank_overall !== null).slice(0, 5)
      : (published?.ranked.trending.slice(0, 5).map((s) => ({ sector: s.sector, startup: s.startup })) ?? []);
  if (top.length === 0 && run.status === 'published') {
    out('  trending       none: no startup above the activity floor has evidence for its signal type this week');
  }
  if (top.length > 0) {
    out('  trending');
    top.forEach((row, i) => {
      const s = row.startup as Startup;
      out(
        `    ${i + 1}. ${s.name} (${row.sector}) ${s.commitVelocity14d} commits, ${s.commitVelocityChange}, ${s.signalType}`,
      );
    });
  }
  const problems = await runProblems(ctx.db, runId, 20);
  if (problems.length > 0) {
    out('  needs attention');
    for (const p of problems)
      out(`    ${p.login.padEnd(24)} ${p.status.replace('_', ' ').padEnd(10)} ${p.message ?? ''}`);
  }
}

async function lockEmbeddedPipeline(database: DatabaseConfig): Promise<() => Promise<void>> {
  if (database.url) return async () => {};
  try {
    // A lock of its own (the embedded store already holds one on DATA_DIR itself).
    return await lockfile.lock(path.join(database.dataDir, 'pipeline'), {
      realpath: false,
      lockfilePath: path.join(database.dataDir, 'pipeline.lock'),
      // A killed run leaves its lock behind; it counts as abandoned once not refreshed for 10 s.
      stale: 10_000,
      update: 2_000,
      retries: { retries: 12, minTimeout: 1000, maxTimeout: 1000 },
    });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOCKED') {
      throw new PipelineError(
        `another \`signal-service pipeline\` process is collecting in ${database.dataDir}; wait for it, or stop it and run again to resume`,
      );
    }
    throw err;
  }
}

/** The watchlist a command reads (see chooseWatchlist), with a note when it is the shipped one. */
function watchlistFor(flag: string | undefined, defaultFile: string): string {
  const choice = chooseWatchlist({
    flag,
    configured: process.env.PIPELINE_WATCHLIST,
    defaultFile,
    exists: existsSync,
  });
  if (choice.shipped) {
    note(
      `no ${path.relative(process.cwd(), defaultFile) || defaultFile} here: using the curated watchlist shipped with the service (${choice.file}); copy watchlist.example.yaml to watchlist.yaml, or pass --watchlist FILE, to track your own`,
    );
  }
  return choice.file;
}

interface RunFlags {
  period?: string;
  watchlist?: string;
  sector?: SectorSlug[];
  dryRun?: boolean;
  fullRefresh?: boolean;
  backfill?: number;
  source?: 'github' | 'git';
  clones?: string;
  cloneMissing?: boolean;
  fetch?: boolean;
}

/** At most this many weeks in one backfill: a year. */
export const MAX_BACKFILL_WEEKS = 52;

/**
 * The weeks a run publishes, oldest first: the one week asked for, or with `--backfill N` the N weeks ending with it
 * (each collected as it stood at its own end, like any past week).
 */
export function runPeriods(last: PeriodRef, backfill: number | undefined): PeriodRef[] {
  const weeks = backfill ?? 1;
  return Array.from({ length: weeks }, (_, i) => shiftPeriod(last, i - (weeks - 1)));
}

async function runCommand(flags: RunFlags): Promise<number> {
  const config = loadConfig();
  const last = resolvePeriod(flags.period, new Date());
  if (flags.backfill !== undefined && flags.sector?.length) {
    throw new PipelineError('--backfill collects every sector of each week; run it without --sector');
  }
  const periods = runPeriods(last, flags.backfill);
  const watchlistFile = watchlistFor(flags.watchlist, config.pipeline.watchlist);
  const entries = await readWatchlist(watchlistFile);
  let waitNote = 0;
  const fromGit = (flags.source ?? config.pipeline.source) === 'git';
  const git = fromGit
    ? {
        dir: flags.clones ? path.resolve(flags.clones) : config.pipeline.clones,
        clone: flags.cloneMissing ?? config.pipeline.cloneMissing,
        fetch: Boolean(flags.fetch),
      }
    : undefined;
  if (git && !existsSync(git.dir) && !git.clone) {
    throw new PipelineError(
      `the clones directory ${git.dir} does not exist: clone the organisations' repositories into it as <org>/<repo> (docs/pipeline.md, "The git source"), or add --clone-missing`,
    );
  }
  const client = fromGit
    ? undefined
    : createGitHubClient(config.github, (wait) => {
        if (Date.now() - waitNote > 5000) {
          waitNote = Date.now();
          note(
            `GitHub ${wait.kind === 'rate-limit' ? 'rate limit reached' : 'secondary rate limit'}: waiting ${wait.seconds} s before retrying`,
          );
        }
      });
  return withStore(config.database, async (store) => {
    const ctx: PipelineContext = { db: store.db, config, client, git };
    const unlock = await lockEmbeddedPipeline(config.database);
    try {
      if (periods.length === 1)
        return (await runWeek(ctx, periods[0]!, entries, flags, watchlistFile, store.mode)).code;
      const startedAt = Date.now();
      const published = new Map((await listPeriods(store.db)).map((p) => [p.slug, p]));
      note(
        `backfill: ${periods.length} weeks, ${periods[0]!.slug} to ${last.slug}, oldest first, each as it stood at its own end`,
      );
      let done = 0;
      let skipped = 0;
      let requests = 0;
      for (const period of periods) {
        const existing = published.get(period.slug);
        if (existing?.dataset === 'github' && !flags.fullRefresh && !flags.dryRun) {
          note(
            `${period.slug} is already published from GitHub activity (${new Date(existing.published_at).toISOString()}): kept (--full-refresh collects it again)`,
          );
          skipped++;
          continue;
        }
        const week = await runWeek(ctx, period, entries, flags, watchlistFile, store.mode);
        requests += week.requests;
        const code = week.code;
        if (code !== 0) {
          note(
            `backfill stopped at ${period.slug}; ${done} week(s) published before it. Run the same command again: published weeks are kept and the unfinished one resumes`,
          );
          return code;
        }
        done++;
      }
      out(
        `Backfill ${periods[0]!.slug} – ${last.slug}: ${done} week(s) ${flags.dryRun ? 'computed (dry run)' : 'published'}, ${skipped} already published; ${fmt.format(requests)} requests in ${seconds(Date.now() - startedAt)}`,
      );
      return 0;
    } finally {
      await unlock();
    }
  });
}

/**
 * Collects one week (or resumes its unfinished run) and publishes it: the command's exit code and the requests its
 * run spent.
 */
async function runWeek(
  ctx: PipelineContext,
  period: PeriodRef,
  entries: WatchlistEntry[],
  flags: RunFlags,
  watchlistFile: string,
  mode: Store['mode'],
): Promise<{ code: number; requests: number }> {
  const startedAt = Date.now();
  const client = ctx.client;
  const prepared = await prepareRun(ctx, {
    period,
    entries,
    sectors: flags.sector,
    dryRun: Boolean(flags.dryRun),
    fullRefresh: Boolean(flags.fullRefresh),
  });
  for (const line of prepared.notes) note(line);
  note(
    `collecting ${period.slug} (${period.name}) for ${fmt.format(prepared.run.total_orgs)} organisations from ${watchlistFile} (${mode} store)${ctx.git ? `, from the git clones in ${ctx.git.dir}` : ''}`,
  );
  const stopProgress = startProgress(ctx, prepared.run, client);
  const controller = new AbortController();
  const onSignal = () => {
    note('stopping: finishing the batches in flight; run the same command again to resume');
    controller.abort();
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  let result: SettleResult;
  try {
    result = await executeRun(ctx, prepared.run.id, { signal: controller.signal });
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await stopProgress();
  }
  await printSummary(ctx, prepared.run.id, result, startedAt);
  const requests = Number((await getRun(ctx.db, prepared.run.id))?.requests ?? 0);
  if (result.state === 'collecting') {
    note(`run ${prepared.run.id} stopped before the end; run the same command again to resume it`);
    return { code: 130, requests };
  }
  return { code: result.state === 'published' || result.state === 'complete' ? 0 : 1, requests };
}

async function rebuildCommand(flags: { period?: string; dryRun?: boolean }): Promise<number> {
  const config = loadConfig();
  const period = resolvePeriod(flags.period, new Date());
  return withStore(config.database, async (store) => {
    const { sourceRun, summary } = await rebuildPeriod({ db: store.db, config }, period, Boolean(flags.dryRun));
    out(
      `${summary.published ? 'Rebuilt and published' : 'Recomputed (dry run, not published)'} ${period.slug} from the activity stored by run ${sourceRun.id} (${sourceRun.period_slug}): ${summary.startups} startups, no GitHub request`,
    );
    if (summary.demoPeriodsRemoved > 0)
      out(`  replaced the synthetic demo dataset (${summary.demoPeriodsRemoved} periods)`);
    summary.ranked.trending
      .slice(0, 5)
      .forEach((s, i) =>
        out(
          `    ${i + 1}. ${s.startup.name} ${s.startup.commitVelocity14d} commits, ${s.startup.commitVelocityChange}`,
        ),
      );
    return 0;
  });
}

async function statusCommand(flags: { limit: number }): Promise<number> {
  const config = loadConfig();
  return withStore(config.database, async (store) => {
    const latest = await latestPeriod(store.db);
    out(
      latest
        ? `Serving ${latest.slug} (${latest.dataset_name}; ${latest.startups_tracked} startups; published ${new Date(latest.published_at).toISOString()})`
        : 'No period is published yet.',
    );
    const runs = await listRuns(store.db, flags.limit);
    if (runs.length === 0) {
      out('No pipeline run yet: `signal-service pipeline run --watchlist FILE`.');
      return 0;
    }
    out('Runs (newest first):');
    for (const run of runs) {
      const counts = await statusCounts(store.db, run.id);
      out(
        `  #${run.id}  ${run.period_slug}  ${run.status.padEnd(10)} ${countsText(counts)}; ${fmt.format(Number(run.requests))} requests (${fmt.format(Number(run.not_modified))} × 304); started ${run.created_at.toISOString()}${run.finished_at ? `, finished ${run.finished_at.toISOString()}` : ''}`,
      );
      if (run.message) out(`        ${run.message}`);
    }
    const problems = await runProblems(store.db, runs[0]!.id, 50);
    if (problems.length > 0) {
      out(`Organisations needing attention in run #${runs[0]!.id}:`);
      for (const p of problems)
        out(`  ${p.login.padEnd(24)} ${p.status.replace('_', ' ').padEnd(10)} ${p.message ?? ''}`);
    }
    return 0;
  });
}

async function workerCommand(): Promise<number> {
  const config = loadConfig();
  if (!config.database.url) {
    throw new PipelineError(
      '`pipeline worker` shares runs through PostgreSQL: set DATABASE_URL. With the embedded store, `pipeline run` does the work in its own process.',
    );
  }
  // A worker reads the source its own configuration names: every worker of a run needs the same PIPELINE_SOURCE.
  const git =
    config.pipeline.source === 'git'
      ? { dir: config.pipeline.clones, clone: config.pipeline.cloneMissing, fetch: false }
      : undefined;
  const client = git ? undefined : createGitHubClient(config.github);
  const store = await openPipelineStore(config.database);
  await migrateToLatest(store.db);
  const ctx: PipelineContext = { db: store.db, config, client, git };
  const queue = await PgBossQueue.start(ctx, (err) => note(`queue error: ${(err as Error).message}`));
  await queue.work(config.pipeline.concurrency, {
    onBatch: ({ runId, orgs, written }) => note(`run ${runId}: ${written}/${orgs} organisations collected`),
    onError: (err) => note(`run stopped: ${(err as Error).message}`),
  });
  note(`worker ready: ${config.pipeline.concurrency} batch(es) at a time; Ctrl-C to stop`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  note('stopping: finishing the batches in flight');
  await queue.stop();
  await store.close();
  return 0;
}

async function discoverCommand(flags: {
  sector: SectorSlug[];
  watchlist?: string;
  out?: string;
  pages: number;
  limit: number;
}): Promise<number> {
  const config = loadConfig();
  const client = createGitHubClient(config.github);
  const watchlistFile = path.resolve(flags.watchlist ?? config.pipeline.watchlist);
  let tracked = new Set<string>();
  try {
    tracked = new Set((await readWatchlist(watchlistFile)).map((e) => e.login.toLowerCase()));
  } catch (err) {
    if (flags.watchlist) throw err;
  }
  const result = await discoverCandidates(client, {
    sectors: flags.sector,
    tracked,
    pagesPerTopic: flags.pages,
    perSector: flags.limit,
    orgsPerQuery: config.github.orgsPerQuery,
  });
  const comments = new Map(
    result.candidates.map((c) => [
      c.entry.login.toLowerCase(),
      `${c.matchedRepos} repositories tagged ${c.topics.join(', ')}; ${c.publicRepos} public repositories. Candidate: review before tracking.`,
    ]),
  );
  const yaml =
    `# Candidate organisations found by \`signal-service pipeline discover\` from GitHub topics.\n` +
    `# Review each one (is it a startup? is the sector right?) and copy the ones to track into your watchlist.\n` +
    (result.candidates.length > 0
      ? watchlistYaml(
          result.candidates.map((c) => c.entry),
          comments,
        )
      : 'orgs: []\n');
  if (flags.out) {
    await fs.writeFile(flags.out, yaml);
    note(`wrote ${result.candidates.length} candidate(s) to ${flags.out}`);
  } else {
    out(yaml.trimEnd());
  }
  const byReason = new Map<string, number>();
  for (const e of result.excluded) byReason.set(e.reason, (byReason.get(e.reason) ?? 0) + 1);
  note(
    `excluded: ${[...byReason].map(([r, n]) => `${n} ${r}`).join(', ') || 'none'}; ${result.meter.requests} GitHub requests`,
  );
  return 0;
}

function exitWith(code: number): never {
  process.exit(code);
}

async function guarded(work: () => Promise<number>): Promise<void> {
  try {
    exitWith(await work());
  } catch (err) {
    if (err instanceof PipelineError || err instanceof WatchlistError || err instanceof GitHubAuthError) {
      process.stderr.write(`signal-service pipeline: ${err.message}\n`);
      exitWith(err instanceof GitHubAuthError ? 3 : 2);
    }
    throw err;
  }
}

export function registerPipelineCommands(program: Command): void {
  const pipeline = program
    .command('pipeline')
    .description('Collect public GitHub activity for the watchlist and publish weekly periods.');

  pipeline
    .command('run')
    .description(
      'Collect a week (default: the last complete ISO week) and publish it atomically; resumes an interrupted run.',
    )
    .option('--period <YYYY-wNN>', 'the ISO week to publish, e.g. 2026-w47')
    .option('--watchlist <file>', 'watchlist file (YAML or JSON); default PIPELINE_WATCHLIST')
    .addOption(
      new Option(
        '--sector <slugs...>',
        'collect only these sectors (others are carried from stored activity)',
      ).argParser((value: string, previous: SectorSlug[] | undefined) => parseSectors(value, previous)),
    )
    .option('--dry-run', 'collect and compute, print the result, publish nothing')
    .option('--full-refresh', 'ignore stored ETags and read every organisation again')
    .option(
      '--backfill <weeks>',
      `publish the N weeks ending with --period (default: the last complete week), oldest first, each as it stood at its own end; weeks already published from GitHub are kept (at most ${MAX_BACKFILL_WEEKS})`,
      backfillWeeks,
    )
    .addOption(
      new Option('--source <source>', 'where to read activity: the GitHub API, or local git clones (no token)').choices(
        ['github', 'git'],
      ),
    )
    .option('--clones <dir>', 'git source: the directory of clones, <org>/<repo>; default PIPELINE_CLONES')
    .option('--clone-missing', 'git source: clone listed repositories that have no clone (--filter=blob:none)')
    .option('--fetch', 'git source: fetch every clone before reading it')
    .action((flags: RunFlags) => guarded(() => runCommand(flags)));

  pipeline
    .command('rebuild')
    .description('Recompute a week from stored activity, without asking GitHub, and publish it again.')
    .option('--period <YYYY-wNN>', 'the ISO week to rebuild (default: the last complete week)')
    .option('--dry-run', 'compute and print, publish nothing')
    .action((flags: { period?: string; dryRun?: boolean }) => guarded(() => rebuildCommand(flags)));

  pipeline
    .command('status')
    .description('Show the published period, recent runs and organisations that need attention.')
    .option('--limit <n>', 'runs to list', positiveInt, 10)
    .action((flags: { limit: number }) => guarded(() => statusCommand(flags)));

  pipeline
    .command('worker')
    .description('Work on queued collection jobs of any run (PostgreSQL only); run one per machine.')
    .action(() => guarded(() => workerCommand()));

  pipeline
    .command('discover')
    .description('Propose candidate organisations per sector from GitHub topics (writes a watchlist fragment).')
    .requiredOption('--sector <slugs...>', 'sectors to search', (value: string, previous: SectorSlug[] | undefined) =>
      parseSectors(value, previous),
    )
    .option('--watchlist <file>', 'watchlist whose organisations are skipped; default PIPELINE_WATCHLIST')
    .option('--out <file>', 'write the candidates here instead of stdout')
    .option('--pages <n>', 'search pages (100 repositories each) per topic', positiveInt, 2)
    .option('--limit <n>', 'candidates per sector', positiveInt, 25)
    .action((flags: { sector: SectorSlug[]; watchlist?: string; out?: string; pages: number; limit: number }) =>
      guarded(() => discoverCommand(flags)),
    );
}
