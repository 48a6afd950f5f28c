/**
 * How cost grows with the number of startups. Per size (BENCH_SCALE_SIZES, "1000,10000,100000"; a size may carry its
 * own week count, "100000:2"), the demo generator makes that many startups over BENCH_SCALE_WEEKS weeks (30), stored
 * in a fresh embedded data directory the way the demo seed stores them (one publication per week). Then the service
 * is started as `npm start` starts it (`node dist/cli/main.js serve`, after `npm run build`) on that existing data
 * directory, and measured from outside:
 *
 * - start: spawn to the first 200 of `/api/signals.json`;
 * - resident memory (VmRSS of the serving process, and of the embedded database's host process beside it) after a
 *   warm-up pass over every measured route, once the per-period indexes are built, the snapshot's Brotli body is
 *   ready and the period's heap compaction is done, read once it has stopped falling (settledRss), and right after
 *   the compaction;
 * - lookup (`/api/signal?company=…`), search (`/api/llms-search?q=…`) and ask (`/api/ask?q=…`) latency: sequential
 *   requests over one keep-alive connection, BENCH_SCALE_QUERIES (2000) varied queries each, p50 and p99; and the
 *   same for `/healthz`, which reads nothing: the floor this process, client and machine set for any route;
 * - the snapshot read (`GET /api/signals.json`): bytes and time to the last byte without Accept-Encoding and with
 *   `Accept-Encoding: br` (median of BENCH_SCALE_READS, 20);
 * - a period swap: a week of the same startups is published by a second connection (as the pipeline's CLI does),
 *   then the time from its commit to the first response carrying the new period (the server polls every
 *   PERIOD_POLL_MS, set to BENCH_SCALE_POLL_MS, 100, here), and the longest any request waited meanwhile (a
 *   conditional snapshot read and a search, alternating) and in 50 rounds of search, ask and lookup right after.
 *
 * The table goes to stdout; the log-log chart of every figure against the number of startups to BENCH_SCALE_SVG
 * (docs/benchmarks-scale.svg).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { scaleLog } from 'd3-scale';
import { line } from 'd3-shape';
import { readFaq } from '../src/core/answers/faq.js';
import { SYNTHETIC_DATASET } from '../src/domain/datasets.js';
import { lastCompletePeriod, shiftPeriod, type PeriodRef } from '../src/domain/periods.js';
import { sectors } from '../src/domain/sectors.js';
import { DEMO_DATASET_NAME, generateDemoDataset } from '../src/pipeline/demo/generate.js';
import { demoPublishedAt } from '../src/pipeline/demo/seed.js';
import { openStore } from '../src/store/database.js';
import { publishPeriod } from '../src/store/periods.js';
import type { PreparedData } from './scale-prepare.js';
import { compactHeap } from '../src/runtime/heap.js';
import { firstLogged, logged, PERIOD_WORK_DONE } from './service-log.js';
import { commandLine, descendants, freePort, memoryMb, serveCommand } from './proc.js';
import { printTable, type BenchResult, type BenchTable } from './types.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WEEKS = Number(process.env.BENCH_SCALE_WEEKS ?? 30);
const SIZES = (process.env.BENCH_SCALE_SIZES ?? '1000,10000,100000')
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean)
  .map((s) => {
    const [startups, weeks] = s.split(':');
    return { startups: Number(startups), weeks: weeks ? Number(weeks) : WEEKS };
  });
const QUERIES = Number(process.env.BENCH_SCALE_QUERIES ?? 2000);
const WARMUP = Math.min(300, QUERIES);
const READS = Number(process.env.BENCH_SCALE_READS ?? 20);
const POLL_MS = Number(process.env.BENCH_SCALE_POLL_MS ?? 100);
const SVG_FILE = path.resolve(ROOT, process.env.BENCH_SCALE_SVG ?? 'docs/benchmarks-scale.svg');
/** The issue's goals, judged at 100,000 startups (reads and start), at 10,000 (resident memory) and at every size (memory per startup-week). */
const GOALS = {
  readP99Ms: 5,
  kbPerStartupWeek: 25,
  startMs: 10_000,
  atStartups: 100_000,
  rssMb: 350,
  rssAtStartups: 10_000,
};

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const round2 = (v: number) => Math.round(v * 100) / 100;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Prepared {
  names: string[];
  generateMs: number;
  storeMs: number;
  lastWeek: PeriodRef;
}

/** The heap the data-making process gets: 3 million ranked records in memory at 100,000 startups × 30 weeks. */
const PREPARE_HEAP_MB = Math.min(16_384, Math.floor((os.totalmem() / 2 ** 20) * 0.6));

/**
 * Generates `startups` × `weeks` with the demo generator and stores every week, as the demo seed does, in a process
 * of its own (scale-prepare.ts).
 */
async function prepare(dataDir: string, startups: number, weeks: number, seed: string): Promise<Prepared> {
  // The newest stored week is the one before the last complete week: the swap publishes the last complete week.
  const lastWeek = shiftPeriod(lastCompletePeriod(new Date()), -1);
  const child = spawn(
    process.execPath,
    [
      `--max-old-space-size=${PREPARE_HEAP_MB}`,
      '--import',
      'tsx',
      path.join(ROOT, 'bench', 'scale-prepare.ts'),
      dataDir,
      String(startups),
      String(weeks),
      seed,
      lastWeek.slug,
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout!.on('data', (data: Buffer) => (out += data.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`scale-prepare.ts exited with ${code}`);
  const prepared = JSON.parse(out.trim().split('\n').at(-1)!) as PreparedData;
  return { ...prepared, lastWeek };
}

interface Running {
  child: ChildProcess;
  pid: number;
  /** performance.now() when the server was spawned. */
  startedAt: number;
  startMs: number;
  log: string[];
  stop(): Promise<void>;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function startService(dataDir: string, port: number): Promise<Running> {
  const serve = serveCommand(ROOT);
  const env = {
    ...process.env,
    ...serve.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'debug',
    DATABASE_URL: '',
    REDIS_URL: '',
    BASE_URL: '',
    DEMO_DATA: 'off',
    PERIOD_POLL_MS: String(POLL_MS),
    // One client sends every request; the limiter's cost is measured by `npm run bench operations`.
    RATE_LIMIT: 'off',
  };
  const started = performance.now();
  const child = spawn(process.execPath, serve.args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const log: string[] = [];
  const collect = (data: Buffer) => log.push(...data.toString().split('\n').filter(Boolean));
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    const all = [child.pid!, ...descendants(child.pid!)];
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
    const deadline = Date.now() + 30_000;
    while (all.some(alive) && Date.now() < deadline) await sleep(50);
  };
  const deadline = Date.now() + 600_000;
  for (;;) {
    if (child.exitCode !== null) {
      process.stderr.write(log.slice(-20).join('\n') + '\n');
      throw new Error(`server exited with ${child.exitCode} before its first 200`);
    }
    const status = await get(port, '/api/signals.json', { 'accept-encoding': 'br' }).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error('no 200 within 600 s');
    }
    await sleep(20);
  }
  return { child, pid: child.pid!, startedAt: started, startMs: Math.round(performance.now() - started), log, stop };
}

interface Response {
  status: number;
  headers: http.IncomingHttpHeaders;
  bytes: number;
  body: Buffer;
  ms: number;
}

/** One GET with node:http (the body stays coded, so `bytes` is what went over the wire). */
function get(
  port: number,
  target: string,
  headers: Record<string, string> = {},
  agent?: http.Agent,
): Promise<Response> {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    http
      .get({ host: '127.0.0.1', port, path: target, headers, agent: agent ?? false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            bytes: body.length,
            body,
            ms: performance.now() - t,
          });
        });
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/** Sequential GETs over one keep-alive connection (after a warm-up pass); sorted latencies in ms. */
async function latencies(port: number, targets: readonly string[], ok: (status: number) => boolean): Promise<number[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    for (let i = 0; i < WARMUP; i++) await get(port, targets[i % targets.length]!, {}, agent);
    const out: number[] = [];
    for (const target of targets) {
      const res = await get(port, target, {}, agent);
      if (!ok(res.status)) throw new Error(`${target}: ${res.status}`);
      out.push(res.ms);
    }
    return out.sort((a, b) => a - b);
  } finally {
    agent.destroy();
  }
}

function typo(name: string, i: number): string {
  const at = 1 + (i % Math.max(1, name.length - 2));
  return name.slice(0, at) + name.slice(at + 1);
}

/** Lookups: exact names, lower case, slug-like, one-letter typos. */
function lookupTargets(names: readonly string[]): string[] {
  return Array.from({ length: QUERIES }, (_, i) => {
    const n = names[(i * 7919) % names.length]!;
    const q = [n, n.toLowerCase(), n.replace(/\s+/g, '-'), typo(n, i)][i % 4]!;
    return `/api/signal?company=${encodeURIComponent(q)}`;
  });
}

function searchTargets(names: readonly string[]): string[] {
  return Array.from({ length: QUERIES }, (_, i) => {
    const n = names[(i * 104_729) % names.length]!;
    const sector = sectors[i % sectors.length]!.name;
    const q = [n, `${sector} startups`, 'commit velocity change', typo(n, i), 'startups', 'how do I cite the data'][
      i % 6
    ]!;
    return `/api/llms-search?q=${encodeURIComponent(q)}`;
  });
}

function askTargets(names: readonly string[]): string[] {
  const faq = readFaq().map((f) => f.question);
  return Array.from({ length: QUERIES }, (_, i) => {
    const n = names[(i * 7919) % names.length]!;
    const sector = sectors[i % sectors.length]!.name;
    const q = [
      `What is the engineering signal for ${n}?`,
      typo(n, i),
      `fastest accelerating ${sector} startups`,
      faq[i % faq.length]!,
      `top ${sector} startups this week`,
      'which startups show an engineering hiring burst',
      `how does ${n} compare`,
      `zzqx${i} unknown thing ${i}`,
    ][i % 8]!;
    return `/api/ask?q=${encodeURIComponent(q)}`;
  });
}

/** Waits until `count()` has not changed for `quietMs` (background work has settled). */
async function settle(count: () => number, quietMs: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = count();
  let since = Date.now();
  while (Date.now() < deadline) {
    await sleep(100);
    const now = count();
    if (now !== last) {
      last = now;
      since = Date.now();
    } else if (Date.now() - since >= quietMs) return;
  }
}

/** Waits until the snapshot is sent Brotli-coded (it is compressed in the background after a start or a swap). */
async function brotliReady(port: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const res = await get(port, '/api/signals.json', { 'accept-encoding': 'br' });
    if (res.headers['content-encoding'] === 'br') return true;
    await sleep(200);
  }
  return false;
}

interface SizeResult {
  startups: number;
  weeks: number;
  generateS: number;
  storeS: number;
  startMs: number;
  /** Seconds from spawning the server to the end of the period's background work (its heap compaction). */
  settledS: number;
  /** The pause of that compaction, or 'skipped' (the heap in use was above runtime/heap.ts's limit). */
  compactionPauseMs: number | 'skipped';
  loadSnapshotMs: number | undefined;
  /** Resident memory once it stopped falling after the compaction (see settledRss). */
  rssMb: number;
  /** Resident memory right after the compaction. */
  rssAtCompactionMb: number;
  hostRssMb: number | undefined;
  swapMs: number;
  swapLongestWaitMs: number;
  swapPeakMb: number;
  /** The start phases the service logs at debug level. */
  phases: string;
  publishMs: number;
  lookup: number[];
  search: number[];
  ask: number[];
  /** `/healthz`, which reads nothing, measured the same way: the floor of the three above. */
  floor: number[];
  identity: { bytes: number; ms: number };
  br: { bytes: number; ms: number };
}

/**
 * Resident memory once it has stopped falling: V8 returns the pages a full collection freed to the system on its own
 * schedule (its memory reducer, seconds after the collection), so VmRSS read right after the compaction still counts
 * memory the process no longer holds. Read every second until it has not fallen by more than 1 MB for 10 s, at most
 * 60 s.
 */
async function settledRss(pid: number): Promise<number> {
  let lowest = memoryMb(pid).rss;
  let since = Date.now();
  const deadline = Date.now() + 60_000;
  while (Date.now() - since < 10_000 && Date.now() < deadline) {
    await sleep(1000);
    const rss = memoryMb(pid).rss;
    if (rss < lowest - 1) since = Date.now();
    lowest = Math.min(lowest, rss);
  }
  return lowest;
}

async function snapshotRead(port: number, headers: Record<string, string>): Promise<{ bytes: number; ms: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    await get(port, '/api/signals.json', headers, agent);
    const times: number[] = [];
    let bytes = 0;
    for (let i = 0; i < READS; i++) {
      const res = await get(port, '/api/signals.json', headers, agent);
      if (res.status !== 200) throw new Error(`/api/signals.json: ${res.status}`);
      bytes = res.bytes;
      times.push(res.ms);
    }
    return {
      bytes,
      ms: round2(
        percentile(
          times.sort((a, b) => a - b),
          50,
        ),
      ),
    };
  } finally {
    agent.destroy();
  }
}

async function benchSize(startups: number, weeks: number): Promise<SizeResult> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'sigsvc-scale-'));
  const seed = `bench-scale-${startups}`;
  let service: Running | undefined;
  try {
    process.stderr.write(`scale: generating and storing ${startups} startups × ${weeks} weeks\n`);
    const prepared = await prepare(dataDir, startups, weeks, seed);
    process.stderr.write(
      `scale: generated in ${Math.round(prepared.generateMs / 1000)} s, stored in ${Math.round(prepared.storeMs / 1000)} s\n`,
    );
    // The generated dataset (gigabytes at 100,000 startups) is garbage now: collected before the server starts, so
    // the bench's own collector does not take a core from the start being measured.
    compactHeap(Number.POSITIVE_INFINITY);
    await sleep(1000);
    const port = await freePort();
    service = await startService(dataDir, port);
    const startPhases = logged(service.log, 'start phase');
    const phase = startPhases.find((e) => e.phase === 'load snapshot');
    const log = service.log;

    // Warm-up: every measured route once over, the background index builds finished, the Brotli body ready.
    const lookups = lookupTargets(prepared.names);
    const searches = searchTargets(prepared.names);
    const asks = askTargets(prepared.names);
    const lookupOk = (s: number) => s === 200 || s === 404;
    for (const targets of [lookups, searches, asks]) for (let i = 0; i < WARMUP; i++) await get(port, targets[i]!, {});
    await settle(() => logged(log, 'per-period index built').length, 3000, 300_000);
    await brotliReady(port, 600_000);
    // The rest of the period's work (the export, the series, the compressed bodies) ends with the heap compaction:
    // memory and reads are measured once the period is fully warm.
    const compaction = await firstLogged(log, PERIOD_WORK_DONE, 900_000);
    const settledS = Math.round((performance.now() - service.startedAt) / 100) / 10;
    await get(port, '/api/signals.json');
    const rssAtCompactionMb = memoryMb(service.pid).rss;
    const rssMb = await settledRss(service.pid);
    const host = descendants(service.pid).find((p) => commandLine(p).includes('embedded-host'));
    const hostRssMb = host ? memoryMb(host).rss : undefined;

    const lookup = await latencies(port, lookups, lookupOk);
    const search = await latencies(port, searches, (s) => s === 200);
    const ask = await latencies(port, asks, (s) => s === 200);
    const floor = await latencies(
      port,
      Array.from({ length: QUERIES }, () => '/healthz'),
      (s) => s === 200,
    );
    const identity = await snapshotRead(port, {});
    const br = await snapshotRead(port, { 'accept-encoding': 'br' });

    // The swap: the next week of the same startups, published by a second connection (the CLI's way).
    const nextWeek = shiftPeriod(prepared.lastWeek, 1);
    const next = generateDemoDataset({ seed, startups, periods: 1, endPeriod: nextWeek }).periods[0]!;
    const before = await get(port, '/api/signals.json', { 'accept-encoding': 'br' });
    const etag = String(before.headers.etag ?? '');
    const store = await openStore({ dataDir, databaseUrl: undefined, poolSize: 2 });
    let published: number;
    const t = performance.now();
    try {
      await publishPeriod(store.db, {
        period: next.period,
        ranked: next.ranked,
        dataset: SYNTHETIC_DATASET,
        datasetName: DEMO_DATASET_NAME,
        publishedAt: demoPublishedAt(next.period),
      });
      published = performance.now();
    } finally {
      await store.close();
    }
    const deadline = Date.now() + 600_000;
    let swapped: number | undefined;
    // The longest a request waited while the new period was loaded and swapped in (the serving thread is busy with
    // it): the conditional snapshot read, and a search, which needs the period's search index; after the swap, 50
    // more rounds of search, ask and lookup, which need the new period's indexes.
    let longestWait = 0;
    // And the serving process's resident memory at its highest meanwhile: it holds two periods while it builds one.
    let swapPeakMb = 0;
    let round = 0;
    const reads = () => [
      searches[round % searches.length]!,
      asks[round % asks.length]!,
      lookups[round % lookups.length]!,
    ];
    while (Date.now() < deadline) {
      const res = await get(port, '/api/signals.json', { 'accept-encoding': 'br', 'if-none-match': etag });
      longestWait = Math.max(longestWait, res.ms);
      if (res.status === 200 && res.headers.etag !== etag) {
        swapped = performance.now();
        break;
      }
      longestWait = Math.max(longestWait, (await get(port, reads()[0]!, {})).ms);
      swapPeakMb = Math.max(swapPeakMb, memoryMb(service.pid).rss);
      round++;
      await sleep(10);
    }
    if (swapped === undefined) throw new Error('the new period was not served within 600 s');
    for (let after = 0; after < 50; after++, round++) {
      for (const target of reads()) longestWait = Math.max(longestWait, (await get(port, target, {})).ms);
      swapPeakMb = Math.max(swapPeakMb, memoryMb(service.pid).rss);
      await sleep(10);
    }
    const served = await get(port, '/api/signals.json');
    const slug = (JSON.parse(served.body.toString()) as { meta: { period: { slug: string } } }).meta.period.slug;
    if (slug !== nextWeek.slug) throw new Error(`served ${slug} after the swap, expected ${nextWeek.slug}`);

    const result: SizeResult = {
      startups,
      weeks,
      generateS: Math.round(prepared.generateMs / 1000),
      storeS: Math.round(prepared.storeMs / 1000),
      startMs: service.startMs,
      settledS,
      compactionPauseMs: compaction?.skipped ? 'skipped' : Number(compaction?.pauseMs ?? NaN),
      loadSnapshotMs: typeof phase?.ms === 'number' ? phase.ms : undefined,
      phases: startPhases.map((e) => `${String(e.phase)} ${String(e.ms)} (CPU ${String(e.cpuMs)})`).join(', '),
      rssMb,
      rssAtCompactionMb,
      hostRssMb,
      swapMs: Math.round(swapped - published),
      swapLongestWaitMs: Math.round(longestWait),
      swapPeakMb,
      publishMs: Math.round(published - t),
      lookup,
      search,
      ask,
      floor,
      identity,
      br,
    };
    // Each size's figures as soon as they exist, so a run cut short still reports what it measured.
    process.stderr.write(`${JSON.stringify({ ...row(result).metrics, startups })}\n`);
    return result;
  } catch (err) {
    // Whether the server died (and of what) or only a request failed: its state and its last log lines.
    if (service) {
      const { exitCode, signalCode } = service.child;
      const state =
        exitCode === null && signalCode === null ? 'was still running' : `had exited (${exitCode ?? signalCode})`;
      process.stderr.write(`scale: the server ${state}; its last log lines:\n${service.log.slice(-20).join('\n')}\n`);
    }
    throw err;
  } finally {
    await service?.stop().catch(() => {});
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

const kbPerStartupWeek = (r: SizeResult) => (r.rssMb * 1024) / (r.startups * r.weeks);

function row(r: SizeResult): BenchResult {
  const p = (v: number[]) => `${round2(percentile(v, 50))} / ${round2(percentile(v, 99))}`;
  return {
    name: `${r.startups.toLocaleString('en')} startups × ${r.weeks} weeks`,
    metrics: {
      'generate / store s': `${r.generateS} / ${r.storeS}`,
      'start → 200 ms': r.startMs,
      'load snapshot ms': r.loadSnapshotMs ?? '',
      'period work done s (compaction pause ms)': `${r.settledS} (${r.compactionPauseMs})`,
      'RSS warm MB (at compaction)': `${r.rssMb} (${r.rssAtCompactionMb})`,
      'KB per startup-week': round2(kbPerStartupWeek(r)),
      'DB host RSS MB': r.hostRssMb ?? '',
      'swap ms (longest wait ms; publish ms; peak RSS MB)': `${r.swapMs} (${r.swapLongestWaitMs}; ${r.publishMs}; ${r.swapPeakMb})`,
      'lookup p50 / p99 ms': p(r.lookup),
      'search p50 / p99 ms': p(r.search),
      'ask p50 / p99 ms': p(r.ask),
      'floor (/healthz) p50 / p99 ms': p(r.floor),
      'signals.json bytes / ms': `${r.identity.bytes} / ${r.identity.ms}`,
      'signals.json br bytes / ms': `${r.br.bytes} / ${r.br.ms}`,
    },
  };
}

function goals(results: readonly SizeResult[]): BenchResult[] {
  const at = results.find((r) => r.startups === GOALS.atStartups);
  const where = `${GOALS.atStartups.toLocaleString('en')} startups`;
  const read = (name: string, pick: (r: SizeResult) => number[]): BenchResult => {
    const value = at ? round2(percentile(pick(at), 99)) : undefined;
    return {
      name: `${name} p99 at ${where}`,
      metrics: {
        latest: value ?? 'not measured',
        goal: `≤ ${GOALS.readP99Ms} ms`,
        met: value === undefined ? '—' : value <= GOALS.readP99Ms ? 'yes' : 'no',
      },
    };
  };
  const worstKb = Math.max(...results.map(kbPerStartupWeek));
  const memoryAt = results.find((r) => r.startups === GOALS.rssAtStartups);
  return [
    read('lookup', (r) => r.lookup),
    read('search', (r) => r.search),
    read('ask', (r) => r.ask),
    {
      name: 'RSS per startup-week held (worst size)',
      metrics: {
        latest: `${round2(worstKb)} KB`,
        goal: `≤ ${GOALS.kbPerStartupWeek} KB`,
        met: worstKb <= GOALS.kbPerStartupWeek ? 'yes' : 'no',
      },
    },
    {
      name: `RSS warm at ${GOALS.rssAtStartups.toLocaleString('en')} startups`,
      metrics: {
        latest: memoryAt ? `${memoryAt.rssMb} MB` : 'not measured',
        goal: `≤ ${GOALS.rssMb} MB`,
        met: memoryAt ? (memoryAt.rssMb <= GOALS.rssMb ? 'yes' : 'no') : '—',
      },
    },
    {
      name: `start on an existing data directory at ${where}`,
      metrics: {
        latest: at ? `${at.startMs} ms` : 'not measured',
        goal: `≤ ${GOALS.startMs} ms`,
        met: at ? (at.startMs <= GOALS.startMs ? 'yes' : 'no') : '—',
      },
    },
  ];
}

/** Text for SVG: the five characters XML gives meaning to, escaped. */
function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

interface Panel {
  title: string;
  unit: string;
  series: { label: string; values: (number | undefined)[] }[];
  goal?: (startups: number) => number;
}

const fmt = (v: number) =>
  v >= 1e6 ? `${+(v / 1e6).toPrecision(2)}M` : v >= 1e3 ? `${+(v / 1e3).toPrecision(2)}k` : `${+v.toPrecision(2)}`;

/** Small multiples: one log-log panel per figure, startups on x, that figure on y, goal dashed where there is one. */
function chart(results: readonly SizeResult[]): string {
  const xs = results.map((r) => r.startups);
  const panels: Panel[] = [
    {
      title: 'Start to first 200',
      unit: 'ms',
      series: [{ label: 'start', values: results.map((r) => r.startMs) }],
      goal: () => GOALS.startMs,
    },
    {
      title: 'Resident memory after warm-up',
      unit: 'MB',
      series: [
        { label: 'server', values: results.map((r) => r.rssMb) },
        { label: 'DB host', values: results.map((r) => r.hostRssMb) },
      ],
      goal: (n) => (GOALS.kbPerStartupWeek * n * (results.find((r) => r.startups === n)?.weeks ?? WEEKS)) / 1024,
    },
    {
      title: 'Period swap (commit to served) and the longest wait',
      unit: 'ms',
      series: [
        { label: 'swap', values: results.map((r) => r.swapMs) },
        { label: 'longest wait', values: results.map((r) => r.swapLongestWaitMs) },
      ],
    },
    { title: 'Lookup latency', unit: 'ms', series: p5099(results, (r) => r.lookup), goal: () => GOALS.readP99Ms },
    { title: 'Search latency', unit: 'ms', series: p5099(results, (r) => r.search), goal: () => GOALS.readP99Ms },
    { title: 'Ask latency', unit: 'ms', series: p5099(results, (r) => r.ask), goal: () => GOALS.readP99Ms },
    {
      title: 'Snapshot read time (median)',
      unit: 'ms',
      series: [
        { label: 'identity', values: results.map((r) => r.identity.ms) },
        { label: 'br', values: results.map((r) => r.br.ms) },
      ],
    },
    {
      title: 'Snapshot bytes',
      unit: 'bytes',
      series: [
        { label: 'identity', values: results.map((r) => r.identity.bytes) },
        { label: 'br', values: results.map((r) => r.br.bytes) },
      ],
    },
    {
      title: 'Memory per startup-week held',
      unit: 'KB',
      series: [{ label: 'server', values: results.map(kbPerStartupWeek) }],
      goal: () => GOALS.kbPerStartupWeek,
    },
  ];
  const colours = ['#1f5fbf', '#d1495b', '#2a9d8f'];
  const W = 300;
  const H = 220;
  const margin = { top: 34, right: 14, bottom: 40, left: 56 };
  const cols = 3;
  const rows = Math.ceil(panels.length / cols);
  const heading = 42;
  const width = cols * W;
  const height = heading + rows * H + 10;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif" font-size="11">`,
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    `<text x="${width / 2}" y="24" text-anchor="middle" font-size="15" font-weight="600">${esc(
      `How cost grows with the number of startups (log-log; ${results.map((r) => `${fmt(r.startups)} × ${r.weeks} wk`).join(', ')})`,
    )}</text>`,
  ];
  const xDomain: [number, number] = xs.length > 1 ? [Math.min(...xs), Math.max(...xs)] : [xs[0]! / 2, xs[0]! * 2];
  panels.forEach((panel, index) => {
    const ox = (index % cols) * W;
    const oy = heading + Math.floor(index / cols) * H;
    const x = scaleLog()
      .domain(xDomain)
      .range([ox + margin.left, ox + W - margin.right]);
    const values = panel.series.flatMap((s) => s.values.filter((v): v is number => v !== undefined && v > 0));
    // The goal at each measured size (or across the domain, for a single size).
    const goalXs = xs.length > 1 ? xs : xDomain;
    const goals = panel.goal ? goalXs.map(panel.goal) : [];
    const all = [...values, ...goals];
    const lo = Math.min(...all);
    const hi = Math.max(...all);
    const y = scaleLog()
      .domain(lo === hi ? [lo / 2, hi * 2] : [lo / 1.3, hi * 1.3])
      .range([oy + H - margin.bottom, oy + margin.top])
      .nice();
    out.push(`<g>`);
    out.push(
      `<text x="${ox + margin.left}" y="${oy + 18}" font-weight="600">${esc(`${panel.title} (${panel.unit})`)}</text>`,
    );
    // Axes: powers of ten where the domain has at least two, else d3's own log ticks.
    const decades = (ticks: number[]) => {
      const powers = ticks.filter((t) => Math.abs(Math.log10(t) - Math.round(Math.log10(t))) < 1e-9);
      return powers.length >= 2 ? powers : ticks.filter((_, i) => i % Math.ceil(ticks.length / 5) === 0);
    };
    for (const t of decades(y.ticks())) {
      out.push(
        `<line x1="${ox + margin.left}" x2="${ox + W - margin.right}" y1="${y(t).toFixed(1)}" y2="${y(t).toFixed(1)}" stroke="#e4e4e4"/>`,
        `<text x="${ox + margin.left - 4}" y="${(y(t) + 4).toFixed(1)}" text-anchor="end" fill="#444">${esc(fmt(t))}</text>`,
      );
    }
    for (const t of xs) {
      out.push(
        `<line x1="${x(t).toFixed(1)}" x2="${x(t).toFixed(1)}" y1="${oy + margin.top}" y2="${oy + H - margin.bottom}" stroke="#e4e4e4"/>`,
        `<text x="${x(t).toFixed(1)}" y="${oy + H - margin.bottom + 14}" text-anchor="middle" fill="#444">${esc(fmt(t))}</text>`,
      );
    }
    out.push(
      `<text x="${ox + (margin.left + W - margin.right) / 2}" y="${oy + H - 10}" text-anchor="middle" fill="#666">startups</text>`,
      `<rect x="${ox + margin.left}" y="${oy + margin.top}" width="${W - margin.left - margin.right}" height="${H - margin.top - margin.bottom}" fill="none" stroke="#999"/>`,
    );
    if (panel.goal) {
      const goalLine = line<number>()
        .x((n) => x(n))
        .y((n) => y(panel.goal!(n)));
      out.push(`<path d="${goalLine(goalXs)}" fill="none" stroke="#888" stroke-dasharray="5 4"/>`);
      out.push(
        `<text x="${ox + W - margin.right - 2}" y="${(y(panel.goal(goalXs.at(-1)!)) - 4).toFixed(1)}" text-anchor="end" fill="#666">goal</text>`,
      );
    }
    panel.series.forEach((series, si) => {
      const points = xs
        .map((n, i) => [n, series.values[i]] as const)
        .filter((p): p is readonly [number, number] => p[1] !== undefined && p[1] > 0);
      const path = line<readonly [number, number]>()
        .x((p) => x(p[0]))
        .y((p) => y(p[1]));
      const colour = colours[si % colours.length]!;
      out.push(`<path d="${path(points)}" fill="none" stroke="${colour}" stroke-width="2"/>`);
      for (const [n, v] of points)
        out.push(
          `<circle cx="${x(n).toFixed(1)}" cy="${y(v).toFixed(1)}" r="3" fill="${colour}"><title>${esc(`${series.label}: ${fmt(v)} ${panel.unit} at ${n} startups`)}</title></circle>`,
        );
      if (panel.series.length > 1)
        out.push(
          `<text x="${ox + W - margin.right - 4}" y="${oy + margin.top + 14 + si * 13}" text-anchor="end" fill="${colour}">${esc(series.label)}</text>`,
        );
    });
    out.push(`</g>`);
  });
  out.push('</svg>');
  return out.join('\n') + '\n';
}

function p5099(results: readonly SizeResult[], pick: (r: SizeResult) => number[]): Panel['series'] {
  return [
    { label: 'p99', values: results.map((r) => percentile(pick(r), 99)) },
    { label: 'p50', values: results.map((r) => percentile(pick(r), 50)) },
  ];
}

export async function run(): Promise<BenchTable[]> {
  // What users run: the built service.
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit' });
  const results: SizeResult[] = [];
  for (const { startups, weeks } of SIZES) {
    try {
      results.push(await benchSize(startups, weeks));
      // The chart of the sizes measured so far, so a run cut short still leaves one.
      writeFileSync(SVG_FILE, chart(results));
    } catch (err) {
      // A size that fails (out of memory, out of time) is reported, and the sizes measured still are.
      process.stderr.write(`scale: ${startups} startups not measured: ${(err as Error).stack ?? String(err)}\n`);
      process.exitCode = 1;
    }
  }
  if (results.length > 0) process.stderr.write(`scale: chart written to ${SVG_FILE}\n`);
  const setup = `sequential requests over one keep-alive connection, ${QUERIES} queries per route, snapshot read median of ${READS}, PERIOD_POLL_MS=${POLL_MS}`;
  return [
    { title: `by size (${setup})`, results: results.map(row) },
    { title: 'goals', results: results.length > 0 ? goals(results) : [] },
    {
      title: 'start phases on the existing data directory (debug log)',
      results: results.map((r) => ({
        name: `${r.startups.toLocaleString('en')} startups × ${r.weeks} weeks`,
        metrics: { 'phases: wall ms (CPU ms)': r.phases },
      })),
    },
  ];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  for (const table of await run()) printTable(table.title, table.results);
}
