/**
 * Pipeline benchmark: a full refresh and a no-change re-run of 1,000 and 10,000 organisations against the fake
 * GitHub API (test/helpers/fake-github.ts) running in a child process, so the measured process holds only the
 * collector and its store. Reports requests per organisation (the goal: at most 2 on a full refresh, only 304s on a
 * re-run), wall time and peak memory (resident set size of this process, sampled every 50 ms; in embedded mode it
 * includes the PGlite database engine this process hosts).
 *
 * The organisations are synthetic: mostly small teams with a few active repositories, 3% with a repository busy
 * enough to need several pages of commits, 2% with more than 100 repositories; active repositories carry the evidence
 * the collector reads in the same queries (releases, tags, deployments, languages, topics, root files). Also reported:
 * GitHub's price of the GraphQL queries (points of the hourly 5,000, computed by the fake as GitHub documents it), and
 * the signal-type mix and team figures of the demo dataset.
 */
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../src/config.js';
import { addDays, DAY_MS, parsePeriodSlug, shiftPeriod } from '../src/domain/periods.js';
import { DEMO_DATASET_NAME, generateDemoDataset } from '../src/pipeline/demo/generate.js';
import { DEMO_PERIODS, DEMO_STARTUPS } from '../src/pipeline/demo/seed.js';
import { Random } from '../src/pipeline/demo/random.js';
import { executeRun } from '../src/pipeline/queue/index.js';
import {
  COLLECT_DAYS,
  createGitHubClient,
  openPipelineStore,
  prepareRun,
  type PipelineContext,
} from '../src/pipeline/run.js';
import type { WatchlistEntry } from '../src/domain/records.js';
import { SECTOR_SLUGS, SIGNAL_TYPES } from '../src/schemas/enums.js';
import { migrateToLatest } from '../src/store/database.js';
import { getRun } from '../src/store/pipeline.js';
import { createTestStorage } from '../test/helpers/database.js';
import { FakeGitHub, type FakeCommit, type FakeOrg, type FakeRepo } from '../test/helpers/fake-github.js';
import { printTable, type BenchResult } from './types.js';

const PERIOD = parsePeriodSlug('2026-w10');
const NOW = new Date('2026-03-09T06:00:00Z');
const FIRST_DAY = '2026-02-02';
const SIZES = (process.env.BENCH_PIPELINE_SIZES ?? '1000,10000').split(',').map(Number);
/** With BENCH_PIPELINE_BACKFILL=N, also a backfill of N weeks per size (orgs/s there counts organisation-weeks). */
const BACKFILL_WEEKS = Number(process.env.BENCH_PIPELINE_BACKFILL ?? 0);
const LANGUAGES = ['TypeScript', 'Go', 'Python', 'Rust', 'Java', 'Kotlin'];

function login(i: number): string {
  return `bench-org-${String(i).padStart(5, '0')}`;
}

/**
 * One synthetic organisation, the same for the same index: activity on the `spanDays` days from `firstDay`, as
 * dense whatever the span (a backfill's longer span gets proportionally more commits, releases and deployments).
 */
export function syntheticOrg(i: number, firstDay = FIRST_DAY, spanDays = 34): FakeOrg {
  const scale = spanDays / 34;
  const random = new Random(`bench-pipeline:${i}`);
  const team = Array.from({ length: random.int(2, 12) }, (_, a) => `dev-${i}-${a}`);
  const busy = random.chance(0.03);
  const manyRepos = random.chance(0.02);
  const repoCount = manyRepos ? random.int(110, 160) : random.int(2, 8);
  const active = Math.min(repoCount, random.int(1, 3));
  const repos: FakeRepo[] = [];
  for (let r = 0; r < repoCount; r++) {
    const commits: FakeCommit[] = [];
    if (r < active) {
      const total = Math.round((busy && r === 0 ? random.int(220, 320) : random.int(10, 90)) * scale);
      for (let c = 0; c < total; c++) {
        const day = addDays(firstDay, random.int(0, spanDays));
        commits.push({
          committedDate: `${day}T${String(random.int(0, 23)).padStart(2, '0')}:00:00Z`,
          login: random.pick(team),
        });
      }
      for (let c = Math.round(random.int(0, 4) * scale); c > 0; c--) {
        commits.push({
          committedDate: `${addDays(firstDay, random.int(0, spanDays))}T05:00:00Z`,
          name: 'dependabot[bot]',
          email: '49699333+dependabot[bot]@users.noreply.github.com',
        });
      }
    }
    const language = random.pick(LANGUAGES);
    const evidence: Partial<FakeRepo> = {};
    if (r < active) {
      const day = () => `${addDays(firstDay, random.int(0, spanDays))}T12:00:00Z`;
      evidence.releases = Array.from({ length: Math.round(random.int(0, 4) * scale) }, (_, k) => ({
        tagName: `v1.${k}.0`,
        createdAt: day(),
      }));
      evidence.tags = evidence.releases.map((rel) => ({ name: rel.tagName, date: rel.createdAt }));
      evidence.deployments = random.chance(0.3)
        ? Array.from({ length: Math.round(random.int(3, 25) * scale) }, () => ({
            createdAt: day(),
            environment: 'production',
          }))
        : [];
      evidence.languages = { [language]: random.int(10_000, 500_000), Shell: random.int(100, 5_000) };
      evidence.topics = random.chance(0.5) ? ['saas', 'api'] : [];
      evidence.rootFiles = [
        'README.md',
        'Dockerfile',
        random.pick(['package.json', 'go.mod', 'Cargo.toml', 'pyproject.toml']),
      ];
    }
    repos.push({
      name: `repo-${r}`,
      language,
      ...evidence,
      createdAt: r === active - 1 && random.chance(0.2) ? '2026-02-20T10:00:00Z' : '2023-06-01T10:00:00Z',
      pushedAt: commits.length ? undefined : '2024-01-01T00:00:00Z',
      fork: r > 0 && random.chance(0.05),
      commits,
    });
  }
  return {
    login: login(i),
    name: `Bench Org ${i}`,
    location: random.pick(['Berlin', 'Austin, TX', 'Remote', '']),
    repos,
  };
}

/** Child-process mode: serve `count` synthetic organisations and answer counter queries over IPC. */
async function serveFake(count: number, firstDay = FIRST_DAY, spanDays = 34): Promise<void> {
  const cache = new Map<string, FakeOrg>();
  const fake = await FakeGitHub.start({
    keepLog: false,
    rateLimit: 1_000_000,
    resolve: (key) => {
      const hit = cache.get(key);
      if (hit) return hit;
      const match = /^bench-org-(\d{5})$/.exec(key);
      if (!match || Number(match[1]) >= count) return undefined;
      const org = syntheticOrg(Number(match[1]), firstDay, spanDays);
      cache.set(key, org);
      if (cache.size > 2000) cache.delete(cache.keys().next().value!);
      return org;
    },
  });
  process.on('message', (msg: string) => {
    if (msg === 'counts')
      process.send!({ total: fake.counts.total, notModified: fake.counts.notModified, points: fake.counts.points });
    if (msg === 'reset') {
      fake.resetCounts();
      process.send!({ reset: true });
    }
  });
  // Never outlive the benchmark that started it.
  process.on('disconnect', () => process.exit(0));
  process.send!({ url: fake.url, token: fake.token });
}

function ask<T>(child: ChildProcess, message: string): Promise<T> {
  return new Promise((resolve) => {
    child.once('message', (m) => resolve(m as T));
    child.send(message);
  });
}

async function measure<T>(work: () => Promise<T>): Promise<{ value: T; ms: number; peakMb: number }> {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  const started = performance.now();
  try {
    const value = await work();
    return {
      value,
      ms: performance.now() - started,
      peakMb: Math.round(Math.max(peak, process.memoryUsage().rss) / 2 ** 20),
    };
  } finally {
    clearInterval(timer);
  }
}

async function startFake(args: string[]): Promise<{ child: ChildProcess; url: string; token: string }> {
  const child = fork(fileURLToPath(import.meta.url), ['--fake-server', ...args], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const { url, token } = await new Promise<{ url: string; token: string }>((resolve) =>
    child.once('message', (m) => resolve(m as never)),
  );
  return { child, url, token };
}

async function benchSize(count: number): Promise<BenchResult[]> {
  const { child, url, token } = await startFake([String(count)]);
  const storage = await createTestStorage();
  const config = loadConfig({
    DATA_DIR: storage.dataDir,
    ...(storage.databaseUrl ? { DATABASE_URL: storage.databaseUrl } : {}),
    GITHUB_TOKEN: token,
    GITHUB_API_URL: url,
    GITHUB_QUERY_INTERVAL_MS: '0',
    GITHUB_CONCURRENCY: '32',
    PIPELINE_CONCURRENCY: '8',
    LOG_LEVEL: 'silent',
  });
  const store = await openPipelineStore(config.database);
  await migrateToLatest(store.db);
  const entries: WatchlistEntry[] = Array.from({ length: count }, (_, i) => ({
    login: login(i),
    displayName: `Bench Org ${i}`,
    sector: SECTOR_SLUGS[i % SECTOR_SLUGS.length]!,
  }));
  const results: BenchResult[] = [];
  try {
    for (const kind of ['full refresh', 'no-change re-run'] as const) {
      const ctx: PipelineContext = { db: store.db, config, client: createGitHubClient(config.github), now: () => NOW };
      await ask(child, 'reset');
      const { value, ms, peakMb } = await measure(async () => {
        const prepared = await prepareRun(ctx, { period: PERIOD, entries, dryRun: false, fullRefresh: false });
        const settled = await executeRun(ctx, prepared.run.id);
        return { run: (await getRun(store.db, prepared.run.id))!, state: settled.state };
      });
      const served = await ask<{ total: number; notModified: number; points: number }>(child, 'counts');
      if (value.state !== 'published') throw new Error(`bench run ended ${value.state}: ${value.run.message}`);
      results.push({
        name: `${count.toLocaleString('en-US')} orgs, ${kind} (${store.mode})`,
        metrics: {
          'requests/org': (served.total / count).toFixed(2),
          'GraphQL points/org': (served.points / count).toFixed(2),
          '304 share': `${Math.round((100 * served.notModified) / Math.max(served.total, 1))}%`,
          'wall s': (ms / 1000).toFixed(1),
          'orgs/s': Math.round(count / (ms / 1000)),
          'peak RSS MB': peakMb,
        },
      });
    }
  } finally {
    await store.close();
    await storage.cleanup();
    child.kill();
  }
  return results;
}

/**
 * A backfill of `weeks` weeks ending with PERIOD (what `pipeline run --backfill` does: one point-in-time run per
 * week, oldest first), over synthetic organisations active through the whole span, as dense as in benchSize.
 */
async function benchBackfill(count: number, weeks: number): Promise<BenchResult> {
  const first = shiftPeriod(PERIOD, -(weeks - 1));
  // Each week reads its windows and the look-back's days: activity from COLLECT_DAYS before the first week's end.
  const firstDay = addDays(first.endsOn, -COLLECT_DAYS);
  const spanDays = Math.round(
    (Date.parse(`${PERIOD.endsOn}T00:00:00Z`) - Date.parse(`${firstDay}T00:00:00Z`)) / DAY_MS,
  );
  const { child, url, token } = await startFake([String(count), firstDay, String(spanDays)]);
  const storage = await createTestStorage();
  const config = loadConfig({
    DATA_DIR: storage.dataDir,
    ...(storage.databaseUrl ? { DATABASE_URL: storage.databaseUrl } : {}),
    GITHUB_TOKEN: token,
    GITHUB_API_URL: url,
    GITHUB_QUERY_INTERVAL_MS: '0',
    GITHUB_CONCURRENCY: '32',
    PIPELINE_CONCURRENCY: '8',
    LOG_LEVEL: 'silent',
  });
  const store = await openPipelineStore(config.database);
  await migrateToLatest(store.db);
  const entries: WatchlistEntry[] = Array.from({ length: count }, (_, i) => ({
    login: login(i),
    displayName: `Bench Org ${i}`,
    sector: SECTOR_SLUGS[i % SECTOR_SLUGS.length]!,
  }));
  try {
    const ctx: PipelineContext = { db: store.db, config, client: createGitHubClient(config.github), now: () => NOW };
    await ask(child, 'reset');
    const { ms, peakMb } = await measure(async () => {
      for (let w = 0; w < weeks; w++) {
        const period = shiftPeriod(first, w);
        const prepared = await prepareRun(ctx, { period, entries, dryRun: false, fullRefresh: false });
        const settled = await executeRun(ctx, prepared.run.id);
        if (settled.state !== 'published') throw new Error(`backfill week ${period.slug} ended ${settled.state}`);
      }
    });
    const served = await ask<{ total: number; notModified: number; points: number }>(child, 'counts');
    return {
      name: `${count.toLocaleString('en-US')} orgs, backfill of ${weeks} weeks (${store.mode})`,
      metrics: {
        'requests/org': (served.total / count).toFixed(2),
        'GraphQL points/org': (served.points / count).toFixed(2),
        '304 share': `${Math.round((100 * served.notModified) / Math.max(served.total, 1))}%`,
        'wall s': (ms / 1000).toFixed(1),
        'orgs/s': Math.round((count * weeks) / (ms / 1000)),
        'peak RSS MB': peakMb,
      },
    };
  } finally {
    await store.close();
    await storage.cleanup();
    child.kill();
  }
}

/** The demo dataset as the service loads it by default: signal-type mix per week and the shape of its teams. */
export function demoMix(): { types: BenchResult[]; teams: BenchResult[]; title: string } {
  const seed = 'signal-service-demo';
  const dataset = generateDemoDataset({
    seed,
    startups: DEMO_STARTUPS,
    periods: DEMO_PERIODS,
    endPeriod: parsePeriodSlug('2026-w47'),
  });
  const last = dataset.periods.at(-1)!;
  const pct = (n: number, of: number) => `${Math.round((100 * n) / of)}%`;
  const types: BenchResult[] = SIGNAL_TYPES.map((type) => {
    const of = last.ranked.startups.filter((s) => s.startup.signalType === type);
    const strength = (w: string) => of.filter((s) => s.signalEvidence.strength === w).length;
    const largest = Math.max(
      ...dataset.periods.map(
        (p) => p.ranked.startups.filter((s) => s.startup.signalType === type).length / p.ranked.startups.length,
      ),
    );
    return {
      name: type,
      metrics: {
        [`${last.period.slug} startups`]: of.length,
        share: pct(of.length, last.ranked.startups.length),
        strong: strength('strong'),
        weak: strength('weak'),
        none: strength('none'),
        [`largest share in ${dataset.periods.length} weeks`]: `${Math.round(100 * largest)}%`,
      },
    };
  });
  const quarter = dataset.periods.slice(-13).flatMap((p) => p.ranked.startups);
  const ratios = dataset.periods
    .flatMap((p) => p.ranked.startups)
    .filter((s) => s.startup.contributors > 0)
    .map((s) => s.startup.commitVelocity14d / s.startup.contributors)
    .sort((a, b) => a - b);
  const at = (q: number) => ratios[Math.floor(q * (ratios.length - 1))]!.toFixed(1);
  const moving = new Set(quarter.filter((s) => s.startup.contributorGrowth !== '+0%').map((s) => s.login));
  const teams: BenchResult[] = [
    {
      name: 'commits per contributor per 14 days (all startup-weeks)',
      metrics: { value: `p5 ${at(0.05)}, median ${at(0.5)}, p95 ${at(0.95)}, max ${at(1)}` },
    },
    {
      name: 'records with contributor growth +0% (last 13 weeks)',
      metrics: { value: pct(quarter.filter((s) => s.startup.contributorGrowth === '+0%').length, quarter.length) },
    },
    {
      name: 'startups with non-zero contributor growth in some week of the last 13',
      metrics: { value: `${moving.size} of ${dataset.entries.length}` },
    },
  ];
  return {
    types,
    teams,
    title: `${DEMO_DATASET_NAME}: ${DEMO_STARTUPS} startups, ${DEMO_PERIODS} weeks to 2026-w47, seed ${seed}`,
  };
}

export async function run(): Promise<BenchResult[]> {
  const demo = demoMix();
  printTable(`Signal types of the demo (${demo.title})`, demo.types);
  printTable('Teams of the demo', demo.teams);
  const results: BenchResult[] = [];
  for (const size of SIZES) results.push(...(await benchSize(size)));
  if (BACKFILL_WEEKS > 0) for (const size of SIZES) results.push(await benchBackfill(size, BACKFILL_WEEKS));
  return results;
}

const self = fileURLToPath(import.meta.url);
if (process.argv[1] && path.resolve(process.argv[1]) === self) {
  const at = process.argv.indexOf('--fake-server');
  if (at >= 0)
    await serveFake(
      Number(process.argv[at + 1]),
      process.argv[at + 2] ?? FIRST_DAY,
      process.argv[at + 3] ? Number(process.argv[at + 3]) : 34,
    );
  else printTable('Pipeline against the fake GitHub API', await run());
}
