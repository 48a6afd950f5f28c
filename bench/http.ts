/**
 * HTTP benchmark: what a client pays, measured from outside. The service (started exactly as `npm start` starts it)
 * and a bare node:http server (bench/bare-server.mjs: plain `node` with the service's runtime settings, prepared
 * headers and bytes, no per-request work) answering the same recorded bytes and headers are pinned to the same core
 * with the same CPU quota (bench/confine.ts, 100 ms quota period), then loaded in alternating rounds by autocannon
 * running on the other core(s).
 *
 * Per route, coding (no Accept-Encoding, and `Accept-Encoding: br`) and pipelining depth: bytes per response, req/s,
 * p50/p99 latency and CPU time per request (from /proc/<pid>/stat) for both servers and their ratios; the median round
 * (by req/s ratio) is reported, with every round's ratio and their spread beside it. Per dataset: resident memory
 * after start, after warm-up and at peak, and the time from `npm start` to the first 200 on a fresh and on an existing
 * data directory, with the start phases the service logs at debug level.
 *
 * Variables: BENCH_DURATION (seconds per measurement, 10), BENCH_ROUNDS (7), BENCH_SCALE (startups in the scale
 * dataset, 10000; 0 skips it), BENCH_CORE (the core the servers share, the last one), BENCH_QUOTA (CPU share, 0.5),
 * BENCH_PIPELINING (depths, "1,10"; the first is the headline), BENCH_ROUTES (the routes measured, of "signals",
 * "lookup", "home", "page"; all by default), BENCH_BARE_IMPORT (an experiment: a module the bare server imports before
 * it listens, e.g. bench/emitter-shapes.mjs; the report then says the baseline is not bare), BENCH_INSTRUCTIONS ("1":
 * also count each server's instructions per request under valgrind's callgrind, bench/instructions.ts;
 * BENCH_INSTRUCTION_REQUESTS per row, 5000; BENCH_CACHE_SIM "1" adds the simulated L1 misses), BENCH_CONTROL ("1":
 * an A/A control, a second bare server measured in every round, whose ratio to the first shows the noise floor).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { lastCompletePeriod } from '../src/domain/periods.js';
import { DEMO_DATASET_NAME, generateDemoDataset } from '../src/pipeline/demo/generate.js';
import { migrateToLatest, openStore } from '../src/store/database.js';
import { publishPeriod } from '../src/store/periods.js';
import { SERVING_V8_FLAGS } from '../src/runtime/heap.js';
import { cpuShare, hasTaskset, pin, type CpuShare } from './confine.js';
import { callgrind, hasCallgrind, type Counted } from './instructions.js';
import { commandLine, cpuMs, descendants, memoryMb, freePort, serveCommand } from './proc.js';
import { firstLogged, PERIOD_WORK_DONE } from './service-log.js';
import { printTable, type BenchResult, type BenchTable } from './types.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP = Math.max(3, Math.round(DURATION / 2));
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 7));
const CORE = Number(process.env.BENCH_CORE ?? os.cpus().length - 1);
const QUOTA = Number(process.env.BENCH_QUOTA ?? 0.5);
const PIPELINING = (process.env.BENCH_PIPELINING ?? '1,10').split(',').map(Number);
const CONNECTIONS = 50;
const BARE_IMPORT = process.env.BENCH_BARE_IMPORT ?? '';
const INSTRUCTIONS = process.env.BENCH_INSTRUCTIONS === '1';
/**
 * BENCH_CONTROL=1: a second bare server, identical to the first, is measured in every round beside the two (an A/A
 * control). Its ratio to the bare server is what the same server scores against itself on this machine in this run:
 * the noise floor of the service's ratio.
 */
const CONTROL = process.env.BENCH_CONTROL === '1';
const INSTRUCTION_REQUESTS = Number(process.env.BENCH_INSTRUCTION_REQUESTS ?? 5000);
const ROUTES = new Set((process.env.BENCH_ROUTES ?? 'signals,lookup,home,page').split(',').map((r) => r.trim()));
/** Headers the bare server does not replay: node:http writes its own (the date, the connection, the length). */
const HEADERS_NOT_REPLAYED = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);
/** The codings measured: none asked for, and Brotli asked for (what browsers and most clients get). */
const CODINGS = [
  { name: 'identity', headers: {} as Record<string, string> },
  { name: 'br', headers: { 'accept-encoding': 'br' } as Record<string, string> },
] as const;
const GOALS = { signals: 0.95, lookup: 0.95, page: 0.95, rssWarmDemo: 160, rssPeakDemo: 300, rssWarmScale: 350 };
const START_GOALS = { fresh: 6000, existing: 2000 };

interface Running {
  child: ChildProcess;
  /** The node process that serves (for npm start, a descendant of the npm process). */
  pid: number;
  startMs: number;
  log: string[];
  stop(): Promise<void>;
}

async function until200(url: string, timeoutMs: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode} before answering ${url}`);
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`no 200 from ${url} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Starts the service (`npm start`, or its node command directly) and waits for the first 200 on the signals. */
async function startService(
  dataDir: string,
  port: number,
  via: 'npm' | 'node',
  logLevel: string,
  prefix: readonly string[] = [],
): Promise<Running> {
  const serve = serveCommand(ROOT);
  const env = {
    ...process.env,
    // `npm start` assigns these itself; run directly, the node command gets them here.
    ...(via === 'node' ? serve.env : {}),
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: logLevel,
    DATABASE_URL: '',
    REDIS_URL: '',
    BASE_URL: '',
    // One client sends every request here: with the per-address limits on, nearly all would be 429s. The limiter's
    // own cost is measured by `npm run bench operations`.
    RATE_LIMIT: 'off',
  };
  const started = performance.now();
  // This process is pinned to the load generator's core(s), and children inherit that: a start is run on every core,
  // as a user's `npm start` is (the serving process and the embedded database's host work side by side at start).
  const [command, args] = via === 'npm' ? ['npm', ['start', '--silent']] : [process.execPath, serve.args];
  const wrapped = [...prefix, command, ...args];
  const [program, argv] = (await hasTaskset())
    ? ['taskset', ['-c', `0-${os.cpus().length - 1}`, ...wrapped]]
    : [wrapped[0]!, wrapped.slice(1)];
  const child = spawn(program, argv, { cwd: ROOT, env, detached: via === 'npm', stdio: ['ignore', 'pipe', 'pipe'] });
  const log: string[] = [];
  const collect = (data: Buffer) => log.push(...data.toString().split('\n').filter(Boolean));
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await until200(`http://127.0.0.1:${port}/api/signals.json`, 120_000, child);
  } catch (err) {
    process.stderr.write(log.slice(-20).join('\n') + '\n');
    throw err;
  }
  const startMs = Math.round(performance.now() - started);
  const pid =
    via === 'npm'
      ? descendants(child.pid!).find((p) => /^\S*node\s.*dist\/cli\/main\.js/.test(commandLine(p)))!
      : child.pid!;
  return {
    child,
    pid,
    startMs,
    log,
    async stop() {
      // The serving process and its embedded database host must be gone (port and data directory free) before the
      // next start is timed; npm itself exits before them.
      const all = [pid, ...descendants(pid)];
      if (child.exitCode === null) {
        if (via === 'npm') process.kill(-child.pid!, 'SIGTERM');
        else child.kill('SIGTERM');
      }
      await exited;
      await waitGone(all);
    },
  };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitGone(pids: number[]): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (pids.some(alive)) {
    if (Date.now() > deadline) throw new Error(`processes ${pids.filter(alive).join(', ')} did not stop`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * The runtime settings the service runs with: the environment `npm start` assigns (glibc's malloc arenas), the flags
 * it passes to node and those the serving process sets itself (runtime/heap.ts). The bare server gets them too, so
 * the two differ only in the work done per request.
 */
function serviceRuntime(): { env: Record<string, string>; flags: string[] } {
  const { env, args } = serveCommand(ROOT);
  const script = args.findIndex((a) => !a.startsWith('--'));
  return { env, flags: [...args.slice(0, script), ...SERVING_V8_FLAGS] };
}

async function startBare(port: number, recordingFile: string, prefix: readonly string[] = []): Promise<Running> {
  // Plain node, no loader, with the service's runtime settings: the baseline must be the physical limit, or the ratio
  // flatters (and a runtime setting that makes both cheaper must not count as the service's own saving).
  const runtime = serviceRuntime();
  const preload = BARE_IMPORT === '' ? [] : ['--import', `./${path.relative(ROOT, path.resolve(BARE_IMPORT))}`];
  const wrapped = [
    ...prefix,
    process.execPath,
    ...runtime.flags,
    ...preload,
    'bench/bare-server.mjs',
    String(port),
    recordingFile,
  ];
  const child = spawn(wrapped[0]!, wrapped.slice(1), {
    cwd: ROOT,
    env: { ...process.env, ...runtime.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // Under callgrind (BENCH_INSTRUCTIONS) a start takes several times longer.
  await until200(`http://127.0.0.1:${port}/api/signals.json`, 120_000, child);
  return {
    child,
    pid: child.pid!,
    startMs: 0,
    log: [],
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

interface Measure {
  rps: number;
  p50: number;
  p99: number;
  /** CPU time the server used per request, in microseconds. */
  cpuUs: number;
}

async function load(
  base: string,
  pid: number,
  paths: readonly string[],
  pipelining: number,
  duration: number,
  headers: Record<string, string> = {},
): Promise<Measure> {
  const cpuBefore = cpuMs(pid);
  const result = await autocannon({
    url: base,
    connections: CONNECTIONS,
    pipelining,
    duration,
    // A 5 MB body on 50 connections to half a core takes seconds per response; only a stuck server times out.
    timeout: 60,
    requests: paths.map((p) => ({ method: 'GET', path: p, headers })),
  });
  const cpu = cpuMs(pid) - cpuBefore;
  if (result.non2xx > 0 || result.errors > result.requests.total / 100)
    throw new Error(`${base}${paths[0]}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  const requests = result.requests.total;
  return {
    rps: Math.round(requests / (result.duration || duration)),
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuUs: Math.round((cpu * 1000) / Math.max(1, requests)),
  };
}

interface Recorded {
  headers: Record<string, string>;
  body: string;
}

/** One response as the service sent it, bytes and headers (node:http, so the body stays coded). */
function recordOne(url: string, headers: Record<string, string>): Promise<Recorded> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const kept: Record<string, string> = {};
          for (const [name, value] of Object.entries(res.headers)) {
            if (value !== undefined && !HEADERS_NOT_REPLAYED.has(name)) kept[name] = String(value);
          }
          resolve({ headers: kept, body: Buffer.concat(chunks).toString('base64') });
        });
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/**
 * A response once its coded body is ready: a compressible body (one whose response varies on Accept-Encoding) asked
 * for in a coding is sent uncoded while the service compresses it in the background (at most 250 ms a request), so it
 * is asked again until it comes coded (30 s at most; on a slow machine the snapshot's Brotli takes seconds).
 */
async function recordReady(url: string, headers: Record<string, string>): Promise<Recorded> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const recorded = await recordOne(url, headers);
    const wanted = headers['accept-encoding'];
    const varies = /accept-encoding/i.test(recorded.headers.vary ?? '');
    if (wanted === undefined || !varies || recorded.headers['content-encoding'] !== undefined) return recorded;
    if (Date.now() > deadline) throw new Error(`${url}: still not coded (${wanted}) after 30 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * The recording the bare server replays: each request target's own response in each coding (a coded body once it is
 * ready, recordReady), so the bare server sends, for every request, the very bytes the service sent for it (a
 * lookup's answer differs from one name to the next).
 */
async function recordAnswers(
  base: string,
  targets: readonly string[],
): Promise<{ answers: Record<string, Record<string, Recorded>>; targets: Record<string, string> }> {
  const answers: Record<string, Record<string, Recorded>> = {};
  for (const target of new Set(targets)) {
    answers[target] = {};
    for (const coding of CODINGS) {
      answers[target][coding.name] = await recordReady(`${base}${target}`, coding.headers);
    }
  }
  return { answers, targets: Object.fromEntries(Object.keys(answers).map((t) => [t, t])) };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
/** A column of ratios: the median, then the lowest and highest, as `1.02 (0.97–1.08)`. */
const spread = (values: number[]) =>
  `${median(values).toFixed(2)} (${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)})`;

/** Queries the lookup case rotates through: exact names, lower-cased names, slugs, and one-letter typos. */
function lookupQueries(names: string[], count: number): string[] {
  const queries: string[] = [];
  for (let i = 0; queries.length < count && i < names.length; i++) {
    const n = names[(i * 7919) % names.length]!;
    const variant = i % 4;
    const q =
      variant === 0
        ? n
        : variant === 1
          ? n.toLowerCase()
          : variant === 2
            ? n.replace(/\s+/g, '-')
            : n.slice(0, 2) + n.slice(3);
    queries.push(`/api/signal?company=${encodeURIComponent(q)}`);
  }
  return queries;
}

/** The start phases the service logs at debug level ({"msg":"start phase","phase":…,"ms":…}). */
function startPhases(log: string[]): string {
  const phases: string[] = [];
  for (const line of log) {
    try {
      const entry = JSON.parse(line) as { msg?: string; phase?: string; ms?: number; cpuMs?: number };
      if (entry.msg === 'start phase') phases.push(`${entry.phase} ${entry.ms} (CPU ${entry.cpuMs})`);
    } catch {
      // not a log line
    }
  }
  return phases.join(', ');
}

interface DatasetResult {
  label: string;
  hot: Map<number, BenchResult[]>;
  memory: BenchResult;
  phases: BenchResult[];
  /** Instructions per request of each server (BENCH_INSTRUCTIONS), one line per route and coding. */
  instructions: BenchResult[];
}

/** Resolves once a process has used less than 2% of a core for 3 s in a row (10 min at most). */
async function quiet(pid: number): Promise<void> {
  const deadline = Date.now() + 600_000;
  let calm = 0;
  let before = cpuMs(pid);
  while (calm < 3 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 1000));
    const now = cpuMs(pid);
    calm = now - before < 20 ? calm + 1 : 0;
    before = now;
  }
}

async function publishScale(dataDir: string, startups: number): Promise<void> {
  const store = await openStore({ dataDir, databaseUrl: undefined });
  try {
    await migrateToLatest(store.db);
    const dataset = generateDemoDataset({
      seed: 'bench-scale',
      startups,
      periods: 1,
      endPeriod: lastCompletePeriod(new Date()),
    });
    await publishPeriod(store.db, {
      ...dataset.periods[0]!,
      dataset: 'synthetic-demo',
      datasetName: DEMO_DATASET_NAME,
      publishedAt: new Date(),
    });
  } finally {
    await store.close();
  }
}

async function benchDataset(share: CpuShare, label: string, scale: number | undefined): Promise<DatasetResult> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'sigsvc-bench-'));
  const running: Running[] = [];
  const isScale = scale !== undefined;
  try {
    if (isScale) await publishScale(dataDir, scale);
    const port = await freePort();
    // Cold starts, as a user runs them: `npm start` (its build step included) on a fresh data directory (which
    // creates the database and, for the demo, generates and stores the demo dataset), then again on the same one.
    const fresh = await startService(dataDir, port, 'npm', 'debug');
    const firstStartPeak = memoryMb(fresh.pid).peak;
    await fresh.stop();
    const existing = await startService(dataDir, port, 'npm', 'debug');
    await existing.stop();

    // The measured server: the same node command, started once more on the existing data directory.
    const service = await startService(dataDir, port, 'node', 'warn');
    running.push(service);
    const afterStart = memoryMb(service.pid).rss;
    const base = `http://127.0.0.1:${port}`;
    const signals = (await (await fetch(`${base}/api/signals.json`)).json()) as {
      trending: { githubUrl: string }[];
      sectors: { startups: { name: string }[] }[];
    };
    // The website's two pages with the most traffic: the home page and a startup page (the trending #1).
    const startupPage = `/startups/${new URL(signals.trending[0]!.githubUrl).pathname.split('/')[1]!.toLowerCase()}`;
    const names = signals.sectors.flatMap((s) => s.startups.map((x) => x.name));
    const queries = lookupQueries(names, 1000);
    const recordingFile = path.join(dataDir, 'recording.json');
    const recording = await recordAnswers(base, ['/api/signals.json', ...queries, '/', startupPage]);
    await fs.writeFile(recordingFile, JSON.stringify(recording));
    const barePort = await freePort();
    const bare = await startBare(barePort, recordingFile);
    running.push(bare);
    const bareBase = `http://127.0.0.1:${barePort}`;
    const controlPort = CONTROL ? await freePort() : 0;
    const control = CONTROL ? await startBare(controlPort, recordingFile) : undefined;
    if (control) running.push(control);
    // The servers measured, each in every round (and warmed up first), in this order in the first round.
    const contestants = [
      { key: 'service', url: base, pid: service.pid },
      { key: 'bare', url: bareBase, pid: bare.pid },
      ...(control ? [{ key: 'control', url: `http://127.0.0.1:${controlPort}`, pid: control.pid }] : []),
    ] as const;
    for (const { key, pid } of contestants) await share.confine(pid, `${isScale ? 'scale' : 'demo'}-${key}`);

    const routes = [
      { key: 'signals', name: 'GET /api/signals.json', paths: ['/api/signals.json'], goal: GOALS.signals },
      { key: 'lookup', name: 'GET /api/signal', paths: queries, goal: GOALS.lookup },
      { key: 'home', name: 'GET / (home page)', paths: ['/'], goal: GOALS.page },
      { key: 'page', name: 'GET /startups/{login} (page)', paths: [startupPage], goal: GOALS.page },
    ].filter((route) => ROUTES.has(route.key));
    for (const route of routes) {
      for (const coding of CODINGS) {
        for (const depth of PIPELINING) {
          for (const { url, pid } of contestants) await load(url, pid, route.paths, depth, WARMUP, coding.headers);
        }
      }
    }
    const warm = memoryMb(service.pid).rss;

    const hot = new Map<number, BenchResult[]>();
    for (const depth of PIPELINING) {
      const results: BenchResult[] = [];
      for (const route of routes) {
        for (const coding of CODINGS) {
          // Each server takes each place in the order in turn, so the machine's other load and the order weigh on all
          // alike: with two, the service goes first in one round and the bare server in the next.
          const rounds: { ours: Measure; baseline: Measure; control?: Measure }[] = [];
          for (let round = 0; round < ROUNDS; round++) {
            const measured = new Map<string, Measure>();
            for (let place = 0; place < contestants.length; place++) {
              const { key, url, pid } = contestants[(place + round) % contestants.length]!;
              measured.set(key, await load(url, pid, route.paths, depth, DURATION, coding.headers));
            }
            rounds.push({
              ours: measured.get('service')!,
              baseline: measured.get('bare')!,
              control: measured.get('control'),
            });
          }
          const ratios = rounds.map((r) => r.ours.rps / r.baseline.rps);
          const cpuRatios = rounds.map((r) => r.ours.cpuUs / Math.max(1, r.baseline.cpuUs));
          const controlRatios = rounds.flatMap((r) => (r.control ? [r.control.rps / r.baseline.rps] : []));
          const controlCpuRatios = rounds.flatMap((r) =>
            r.control ? [r.control.cpuUs / Math.max(1, r.baseline.cpuUs)] : [],
          );
          rounds.sort((a, b) => a.ours.rps / a.baseline.rps - b.ours.rps / b.baseline.rps);
          const { ours, baseline } = rounds[Math.floor(ROUNDS / 2)]!;
          const ratio = ours.rps / baseline.rps;
          // The mean body over the route's requests (a lookup's answer differs from one name to the next).
          const bodyBytes = Math.round(
            route.paths.reduce(
              (sum, p) => sum + Buffer.from(recording.answers[p]![coding.name]!.body, 'base64').length,
              0,
            ) / route.paths.length,
          );
          results.push({
            name: `${route.name}, ${coding.name === 'br' ? 'Accept-Encoding: br' : 'no Accept-Encoding'} (${label})`,
            metrics: {
              'body bytes': bodyBytes,
              'req/s': ours.rps,
              'p50 ms': ours.p50,
              'p99 ms': ours.p99,
              'CPU µs/req': ours.cpuUs,
              'bare req/s': baseline.rps,
              'bare p50 ms': baseline.p50,
              'bare p99 ms': baseline.p99,
              'bare CPU µs/req': baseline.cpuUs,
              // The median round is the one whose ratio is the median of the ratios.
              'req/s ratio (min–max)': spread(ratios),
              'CPU/req ratio (min–max)': spread(cpuRatios),
              'rounds (ratio)': ratios.map((r) => r.toFixed(2)).join(' '),
              ...(control
                ? {
                    'control req/s ratio (min–max)': spread(controlRatios),
                    'control CPU/req ratio (min–max)': spread(controlCpuRatios),
                  }
                : {}),
              ...(depth === PIPELINING[0] ? { goal: `≥ ${route.goal}`, met: ratio >= route.goal ? 'yes' : 'no' } : {}),
            },
          });
        }
      }
      hot.set(depth, results);
    }
    const end = memoryMb(service.pid);
    const warmGoal = isScale ? GOALS.rssWarmScale : GOALS.rssWarmDemo;
    const memory: BenchResult = {
      name: label,
      metrics: {
        'RSS after start MB': afterStart,
        'RSS warm MB': `${warm} (goal ≤ ${warmGoal})`,
        'RSS peak MB': `${Math.max(end.peak, firstStartPeak)}${isScale ? '' : ` (goal ≤ ${GOALS.rssPeakDemo})`}`,
        'peak under load MB': end.peak,
        'peak first start MB': firstStartPeak,
        'bare RSS MB': memoryMb(bare.pid).rss,
        'npm start → 200, fresh data dir ms': `${fresh.startMs}${isScale ? '' : ` (goal ≤ ${START_GOALS.fresh})`}`,
        'npm start → 200, existing data dir ms': `${existing.startMs} (goal ≤ ${START_GOALS.existing})`,
      },
    };
    const phases: BenchResult[] = [
      { name: `${label}, fresh data dir`, metrics: { 'phases: wall ms (CPU ms)': startPhases(fresh.log) } },
      { name: `${label}, existing data dir`, metrics: { 'phases: wall ms (CPU ms)': startPhases(existing.log) } },
    ];
    const instructions: BenchResult[] = [];
    if (INSTRUCTIONS) {
      // Each server once more, alone on the data directory, under callgrind; every route counted in turn.
      for (const r of running.splice(0)) await r.stop();
      const counted = { service: new Map<string, Counted>(), bare: new Map<string, Counted>() };
      const idle = { service: 0, bare: 0 };
      for (const who of ['service', 'bare'] as const) {
        // The service listens on HOST=127.0.0.1 (startService); the bare server gets the benchmark's environment.
        const counter = callgrind(dataDir, who, who === 'service' ? '127.0.0.1' : process.env.HOST);
        const server =
          who === 'service'
            ? await startService(dataDir, port, 'node', 'debug', counter.prefix)
            : await startBare(barePort, recordingFile, counter.prefix);
        running.push(server);
        const at = who === 'service' ? base : bareBase;
        // The period's background work (several times slower under valgrind; it ends with a full collection), a body
        // compressed on its first request in a coding: none of it may fall inside a counted window. So the service's
        // warm-up first, then every route in every coding once, then quiet.
        if (who === 'service' && !(await firstLogged(server.log, PERIOD_WORK_DONE, 900_000)))
          throw new Error('the service under callgrind did not end its period warm-up within 15 min');
        for (const route of routes) {
          for (const coding of CODINGS) await load(at, server.pid, route.paths, 1, 2, coding.headers);
        }
        await quiet(server.pid);
        idle[who] = await counter.idle(server.pid, 30);
        for (const route of routes) {
          for (const coding of CODINGS) {
            const count = await counter.perRequest(server.pid, at, route.paths, coding.headers, INSTRUCTION_REQUESTS);
            counted[who].set(`${route.key} ${coding.name}`, count);
          }
        }
        await running.pop()!.stop();
      }
      for (const route of routes) {
        for (const coding of CODINGS) {
          const ours = counted.service.get(`${route.key} ${coding.name}`)!;
          const baseline = counted.bare.get(`${route.key} ${coding.name}`)!;
          instructions.push({
            name: `${route.name}, ${coding.name === 'br' ? 'Accept-Encoding: br' : 'no Accept-Encoding'} (${label})`,
            metrics: {
              'instructions/req': ours.instructions,
              'bare instructions/req': baseline.instructions,
              ratio: (ours.instructions / baseline.instructions).toFixed(3),
              ...(ours.i1Misses !== undefined && baseline.i1Misses !== undefined
                ? {
                    'L1i misses/req (service / bare)': `${ours.i1Misses} / ${baseline.i1Misses}`,
                    'L1d misses/req (service / bare)': `${ours.d1Misses} / ${baseline.d1Misses}`,
                  }
                : {}),
              'idle instructions/s (service / bare, taken out)': `${idle.service} / ${idle.bare}`,
            },
          });
        }
      }
    }
    // Each dataset's figures as soon as they exist, so a run cut short still reports what it measured.
    process.stderr.write(`${JSON.stringify({ label, hot: [...hot], memory, phases, instructions })}\n`);
    return { label, hot, memory, phases, instructions };
  } finally {
    for (const r of running) await r.stop().catch(() => {});
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

export async function run(): Promise<BenchTable[]> {
  // What users run: the built service (`npm run build` bundles it in about a second).
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (INSTRUCTIONS && !(await hasCallgrind()))
    throw new Error('BENCH_INSTRUCTIONS=1 needs valgrind and callgrind_control on the PATH');
  const share = await cpuShare(CORE, QUOTA);
  const others = Array.from({ length: os.cpus().length }, (_, i) => i).filter((i) => i !== CORE);
  const loadGeneratorPinned = others.length > 0 && (await pin(process.pid, others.join(',')));
  const scale = Number(process.env.BENCH_SCALE ?? 10_000);
  const results: DatasetResult[] = [];
  try {
    results.push(await benchDataset(share, 'demo, 315 startups', undefined));
    if (scale > 0) results.push(await benchDataset(share, `scale, ${scale} startups`, scale));
  } finally {
    await share.close();
  }
  const setup = `${CONNECTIONS} connections, ${DURATION} s per measurement, ${ROUNDS} alternating rounds (median shown); servers ${share.describe}; load generator ${loadGeneratorPinned ? `on core(s) ${others.join(',')}` : 'not pinned'}${BARE_IMPORT === '' ? '' : `; EXPERIMENT, NOT THE BASELINE: the bare server imports ${BARE_IMPORT} first`}${CONTROL ? '; A/A control: a second bare server measured in every round (its ratio to the first is the noise floor)' : ''}`;
  return [
    ...PIPELINING.map((depth, i) => ({
      title: `Hot reads, pipelining ${depth}${i === 0 ? ' (headline)' : ''}: ${setup}`,
      results: results.flatMap((r) => r.hot.get(depth)!),
    })),
    { title: 'Memory (service process RSS) and start to first 200', results: results.map((r) => r.memory) },
    { title: 'Start phases (debug log)', results: results.flatMap((r) => r.phases) },
    ...(INSTRUCTIONS
      ? [
          {
            title: `Instructions per request (callgrind, ${INSTRUCTION_REQUESTS} requests per row on 10 connections, after twice as many uninstrumented; the fewest of five windows)`,
            results: results.flatMap((r) => r.instructions),
          },
        ]
      : []),
  ];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  for (const table of await run()) printTable(table.title, table.results);
}
