/**
 * Operations benchmark: two instances (cluster module, round-robin on one port) on one PostgreSQL and one Redis.
 * Free reads (GET /api/signal over rotating names) and charged calls (POST /api/agent/deep-signal, one credit each)
 * with the rate limiter off, on with its counters in Redis (shared by the instances), and on in memory; each "on"
 * limit is set far above the load so every request is counted and none refused. Reports throughput, p99 and the
 * limiter's cost relative to "off", measured in alternating rounds (median round).
 * Needs DATABASE_URL (a server where it may create and drop a database) and REDIS_URL.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { Redis } from 'ioredis';
import { issueKey } from '../src/payments/keys.js';
import { seedDemoIfEmpty } from '../src/pipeline/demo/seed.js';
import { migrateToLatest, openStore } from '../src/store/database.js';
import { printTable, type BenchResult } from './types.js';
import { freePort } from './proc.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WORKERS = Number(process.env.BENCH_WORKERS ?? 2);
const HIGH = '100000000/100000000';

function startCluster(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--max-semi-space-size=64', '--import', 'tsx', 'bench/cluster-serve.ts'], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', DEMO_DATA: 'off', BENCH_WORKERS: String(WORKERS), ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      if (d.toString().includes('ready')) resolve(child);
    });
    child.on('exit', (code) => reject(new Error(`cluster exited with ${code}`)));
  });
}

interface Measure {
  rps: number;
  p99: number;
}

async function load(base: string, requests: autocannon.Request[], pipelining: number): Promise<Measure> {
  const result = await autocannon({ url: base, connections: 100, pipelining, duration: DURATION, requests });
  // A refused request (non-2xx) is a failed benchmark; a few client timeouts on an overloaded machine are reported.
  if (result.non2xx > 0 || result.errors > result.requests.total / 100)
    throw new Error(`${base}${requests[0]!.path}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: Math.round(result.requests.average), p99: result.latency.p99 };
}

export async function run(): Promise<BenchResult[]> {
  const databaseUrl = process.env.DATABASE_URL;
  const redisUrl = process.env.REDIS_URL;
  if (!databaseUrl || !redisUrl) {
    process.stderr.write('operations benchmark: set DATABASE_URL and REDIS_URL (PostgreSQL and Redis); skipped\n');
    return [];
  }
  const name = `signal_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  const prefix = `sigsvc-bench:${randomBytes(4).toString('hex')}`;
  const clusters: ChildProcess[] = [];
  try {
    // Migrate and seed once, before the instances start (they would race to seed an empty database).
    const store = await openStore({ dataDir: ROOT, databaseUrl: url.toString() });
    await migrateToLatest(store.db);
    await seedDemoIfEmpty(store.db, { seed: 'signal-service-demo' });
    const names = (await store.db.selectFrom('period_startups').select('startup').distinct().limit(1000).execute()).map(
      (r) => (r.startup as { name: string }).name,
    );

    const configs = [
      ['off', { RATE_LIMIT: 'off', REDIS_URL: redisUrl }],
      ['on, Redis', { RATE_LIMIT: 'on', REDIS_URL: redisUrl }],
      ['on, memory', { RATE_LIMIT: 'on', REDIS_URL: '' }],
    ] as const;
    const servers: { label: string; base: string; key: string }[] = [];
    for (const [label, env] of configs) {
      const port = await freePort();
      const { key } = await issueKey(store.db, { credits: 1_000_000, reason: 'benchmark' });
      clusters.push(
        await startCluster({
          ...env,
          PORT: String(port),
          DATABASE_URL: url.toString(),
          RATE_LIMIT_FREE: HIGH,
          RATE_LIMIT_SIGNAL: HIGH,
          RATE_LIMIT_PAID: HIGH,
          RATE_LIMIT_REDIS_PREFIX: prefix,
          DATABASE_POOL_MAX: '10',
        }),
      );
      servers.push({ label, base: `http://127.0.0.1:${port}`, key });
    }
    await store.close();

    const cases = [
      {
        name: 'GET /api/signal (free read)',
        pipelining: 10,
        requests: () =>
          names.map((n) => ({ method: 'GET' as const, path: `/api/signal?company=${encodeURIComponent(n)}` })),
      },
      {
        name: 'POST /api/agent/deep-signal (charged)',
        pipelining: 1,
        requests: (key: string) =>
          names.slice(0, 50).map((n) => ({
            method: 'POST' as const,
            path: '/api/agent/deep-signal',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
            body: JSON.stringify({ name: n }),
          })),
      },
    ];
    const results: BenchResult[] = [];
    for (const c of cases) {
      for (const s of servers) await load(s.base, c.requests(s.key), c.pipelining); // warm-up, not reported
      const rounds: Measure[][] = [];
      for (let r = 0; r < ROUNDS; r++) {
        const round: Measure[] = [];
        for (const s of servers) round.push(await load(s.base, c.requests(s.key), c.pipelining));
        rounds.push(round);
      }
      servers.forEach((s, i) => {
        const ratios = rounds.map((round) => round[i]!.rps / round[0]!.rps).sort((x, y) => x - y);
        const median = rounds.map((round) => round[i]!).sort((x, y) => x.rps - y.rps)[Math.floor(ROUNDS / 2)]!;
        const ratio = ratios[Math.floor(ROUNDS / 2)]!;
        results.push({
          name: `${c.name}, limiter ${s.label}`,
          metrics: {
            'req/s': median.rps,
            'p99 ms': median.p99,
            'vs off': ratio.toFixed(2),
            'limiter cost': i === 0 ? '' : `${Math.round((1 - ratio) * 100)}%`,
          },
        });
      });
    }
    return results;
  } finally {
    for (const child of clusters) child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 2500));
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
    const redis = new Redis(redisUrl);
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  printTable(`Operations: ${WORKERS} instances on PostgreSQL and Redis`, await run());
}
