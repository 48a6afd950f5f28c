/**
 * HTTP benchmark: the service against a bare node:http server answering the same bytes, measured in the same run.
 * Cases: GET /api/signals.json (goal ≥ 0.9× bare) and GET /api/signal?company=… over rotating names and typos
 * (goal ≥ 0.7× bare), on the demo dataset and on a generated scale dataset.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { lastCompletePeriod } from '../src/core/periods.js';
import { DEMO_DATASET_NAME, generateDemoDataset } from '../src/pipeline/demo/generate.js';
import { migrateToLatest, openStore } from '../src/store/database.js';
import { publishPeriod } from '../src/store/periods.js';
import { printTable, type BenchResult } from './types.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 100;
const PIPELINING = 10;
const HEADERS_KEPT = [
  'content-type',
  'etag',
  'cache-control',
  'link',
  'access-control-allow-origin',
  'access-control-expose-headers',
  'x-content-type-options',
  'x-frame-options',
  'referrer-policy',
  'cross-origin-resource-policy',
  'content-security-policy',
];

function startChild(
  args: string[],
  env: Record<string, string>,
  ready: (line: string) => boolean,
): Promise<ChildProcess> {
  // The same V8 flag `npm start` and the installed command use (a larger young generation: fewer scavenges).
  const child = spawn(process.execPath, ['--max-semi-space-size=64', '--import', 'tsx', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    const onData = (data: Buffer) => {
      if (data.toString().split('\n').some(ready)) resolve(child);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
  });
}

async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

async function load(base: string, paths: string[]): Promise<{ rps: number; p50: number; p99: number }> {
  const result = await autocannon({
    url: base,
    connections: CONNECTIONS,
    pipelining: PIPELINING,
    duration: DURATION,
    requests: paths.map((p) => ({ method: 'GET', path: p })),
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${base}${paths[0]}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: Math.round(result.requests.average), p50: result.latency.p50, p99: result.latency.p99 };
}

async function recordAnswers(
  base: string,
  paths: Record<string, string>,
): Promise<Record<string, { headers: Record<string, string>; body: string }>> {
  const out: Record<string, { headers: Record<string, string>; body: string }> = {};
  for (const [key, p] of Object.entries(paths)) {
    const res = await fetch(`${base}${p}`);
    const headers: Record<string, string> = {};
    for (const h of HEADERS_KEPT) if (res.headers.get(h)) headers[h] = res.headers.get(h)!;
    out[key] = { headers, body: Buffer.from(await res.arrayBuffer()).toString('base64') };
  }
  return out;
}

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

async function benchDataset(label: string, scaleStartups: number | undefined): Promise<BenchResult[]> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'sigsvc-bench-'));
  const children: ChildProcess[] = [];
  try {
    if (scaleStartups) {
      // The scale generator: the demo generator at N startups and one period, published before the server starts.
      const store = await openStore({ dataDir, databaseUrl: undefined });
      await migrateToLatest(store.db);
      const dataset = generateDemoDataset({
        seed: 'bench-scale',
        startups: scaleStartups,
        periods: 1,
        endPeriod: lastCompletePeriod(new Date()),
      });
      await publishPeriod(store.db, {
        ...dataset.periods[0]!,
        dataset: 'synthetic-demo',
        datasetName: DEMO_DATASET_NAME,
        publishedAt: new Date(),
      });
      await store.close();
    }
    const port = await freePort();
    children.push(
      await startChild(
        ['src/cli/main.ts', 'serve'],
        { PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'info', DATABASE_URL: '', REDIS_URL: '' },
        (l) => l.includes('"msg":"serving"'),
      ),
    );
    const base = `http://127.0.0.1:${port}`;
    const signals = (await (await fetch(`${base}/api/signals.json`)).json()) as {
      sectors: { startups: { name: string }[] }[];
    };
    const names = signals.sectors.flatMap((s) => s.startups.map((x) => x.name));
    const queries = lookupQueries(names, 1000);
    const recordingFile = path.join(dataDir, 'recording.json');
    const recorded = await recordAnswers(base, {
      '/api/signals.json': '/api/signals.json',
      '/api/signal': queries[0]!,
    });
    await fs.writeFile(recordingFile, JSON.stringify(recorded));
    const barePort = await freePort();
    children.push(
      await startChild(['bench/bare-server.ts', String(barePort), recordingFile], {}, (l) => l.includes('ready')),
    );
    const bare = `http://127.0.0.1:${barePort}`;

    const results: BenchResult[] = [];
    for (const [name, paths, goal] of [
      ['GET /api/signals.json', ['/api/signals.json'], 0.9],
      ['GET /api/signal', queries, 0.7],
    ] as const) {
      await load(base, [...paths]); // warm-up pass, not reported
      // Alternate the two servers over several rounds and keep the median round: the machine's other load then
      // weighs on both sides alike.
      const rounds: { ours: Awaited<ReturnType<typeof load>>; baseline: Awaited<ReturnType<typeof load>> }[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        rounds.push({ ours: await load(base, [...paths]), baseline: await load(bare, [paths[0]!]) });
      }
      rounds.sort((a, b) => a.ours.rps / a.baseline.rps - b.ours.rps / b.baseline.rps);
      const { ours, baseline } = rounds[Math.floor(ROUNDS / 2)]!;
      const ratio = ours.rps / baseline.rps;
      results.push({
        name: `${name} (${label})`,
        metrics: {
          'req/s': ours.rps,
          'p50 ms': ours.p50,
          'p99 ms': ours.p99,
          'bare req/s': baseline.rps,
          'bare p99 ms': baseline.p99,
          ratio: ratio.toFixed(2),
          goal: `≥ ${goal}`,
          met: ratio >= goal ? 'yes' : 'no',
        },
      });
    }
    return results;
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

export async function run(): Promise<BenchResult[]> {
  const scale = Number(process.env.BENCH_SCALE ?? 10_000);
  return [
    ...(await benchDataset('demo, 315 startups', undefined)),
    ...(await benchDataset(`scale, ${scale} startups`, scale)),
  ];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  printTable('HTTP: service vs bare node:http', await run());
}
