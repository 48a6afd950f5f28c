/**
 * Answers and site search at scale: /api/ask over a generated answer corpus of 50,000+ entries and /api/llms-search
 * over a generated site corpus of 50,000+ documents. Reports the corpus build (generating the text), the index build
 * (goal ≤ 2 s), the in-process query latency and the HTTP latency through the real server (goal p99 ≤ 5 ms),
 * sequential requests over one keep-alive connection with varied queries.
 *
 * The corpora come from the synthetic demo generator run through the real pipeline stages: 50,000 startups give one
 * agent query each (plus sectors, comparisons, research and the FAQ); 25,000 startups give a site corpus of a
 * startup page, an answer and more per startup.
 */
import http from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { loadConfig } from '../src/config.js';
import { buildAgentQueries } from '../src/core/answers/agent-queries.js';
import { AnswerIndex } from '../src/core/answers/answer-index.js';
import { answerCorpus } from '../src/core/answers/corpus.js';
import { readFaq } from '../src/core/answers/faq.js';
import { parsePeriodSlug } from '../src/domain/periods.js';
import { sectors } from '../src/domain/sectors.js';
import { searchDocuments, siteSearch } from '../src/core/search/documents.js';
import { SiteSearch } from '../src/core/search/site-search.js';
import { buildServer } from '../src/http/server.js';
import { generateDemoDataset } from '../src/pipeline/demo/generate.js';
import { datasetSnapshot } from '../src/snapshot/generated.js';
import { SEARCH_TYPES } from '../src/schemas/answers.js';
import type { Snapshot } from '../src/snapshot/snapshot.js';
import { createApp } from '../src/app.js';
import { migrateToLatest, openStore, type Store } from '../src/store/database.js';
import { printTable, type BenchResult } from './types.js';

const QUERIES = Number(process.env.BENCH_QUERIES ?? 3000);
const WARMUP = 300;
const GOAL_P99_MS = 5;
const GOAL_BUILD_MS = 2000;

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const ms = (value: number) => Math.round(value * 100) / 100;

function generatedSnapshot(startups: number, baseUrl: string): Snapshot {
  const dataset = generateDemoDataset({
    seed: `bench-search-${startups}`,
    startups,
    periods: 1,
    endPeriod: parsePeriodSlug('2026-w46'),
  });
  return datasetSnapshot(dataset, { baseUrl, hashPrefix: `bench-${startups}` }).snapshot;
}

function typo(name: string, i: number): string {
  const at = 1 + (i % Math.max(1, name.length - 2));
  return name.slice(0, at) + name.slice(at + 1);
}

/** Varied questions: startups by name (exact and with a typo), sectors, FAQ, signal types, misses. */
function askQueries(snapshot: Snapshot, count: number): string[] {
  const faq = readFaq().map((f) => f.question);
  return Array.from({ length: count }, (_, i) => {
    const s = snapshot.startups[(i * 7919) % snapshot.startups.length]!.startup.name;
    const sector = sectors[i % sectors.length]!.name;
    switch (i % 8) {
      case 0:
        return `What is the engineering signal for ${s}?`;
      case 1:
        return typo(s, i);
      case 2:
        return `fastest accelerating ${sector} startups`;
      case 3:
        return faq[i % faq.length]!;
      case 4:
        return `top ${sector} startups this week`;
      case 5:
        return 'which startups show an engineering hiring burst';
      case 6:
        return `how does ${s} compare`;
      default:
        return `zzqx${i} unknown thing ${i}`;
    }
  });
}

function searchQueries(snapshot: Snapshot, count: number): string[] {
  return Array.from({ length: count }, (_, i) => {
    const s = snapshot.startups[(i * 104_729) % snapshot.startups.length]!.startup.name;
    const sector = sectors[i % sectors.length]!.name;
    const type = SEARCH_TYPES[i % SEARCH_TYPES.length]!;
    switch (i % 6) {
      case 0:
        return `q=${encodeURIComponent(s)}`;
      case 1:
        return `q=${encodeURIComponent(`${sector} startups`)}`;
      case 2:
        return `q=${encodeURIComponent('commit velocity change')}&type=${type}`;
      case 3:
        return `q=${encodeURIComponent(typo(s, i))}&limit=20`;
      case 4:
        return `q=${encodeURIComponent('startups')}`;
      default:
        return `q=${encodeURIComponent('how do I cite the data licence')}&type=faq`;
    }
  });
}

function timeIt(run: () => void, times: number): number[] {
  for (let i = 0; i < WARMUP; i++) run();
  const latencies: number[] = [];
  for (let i = 0; i < times; i++) {
    const t = performance.now();
    run();
    latencies.push(performance.now() - t);
  }
  return latencies.sort((a, b) => a - b);
}

async function serve(snapshot: Snapshot, store: Store, baseUrl: string) {
  // One client sends every request: the per-address limits would answer 429 (their cost is in `npm run bench operations`).
  const config = loadConfig({ LOG_LEVEL: 'silent', DEMO_DATA: 'off', BASE_URL: baseUrl, RATE_LIMIT: 'off' });
  const log = pino({ level: 'silent' });
  // The application over the in-memory period, on the benchmark's store (which the benchmark closes itself).
  const core = await createApp(config, log, { opening: { store, ready: Promise.resolve() }, snapshot });
  await core.open();
  const app = await buildServer(core, core);
  core.warmUp();
  // Measure the steady state: the period's indexes are built (in the background) before the first query.
  await core.holder.settled();
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { app, port };
}

/** Sequential GETs over one keep-alive connection; every response must be 200. */
async function httpLatencies(port: number, paths: readonly string[]): Promise<number[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const get = (p: string) =>
    new Promise<number>((resolve, reject) => {
      const t = performance.now();
      http
        .get({ host: '127.0.0.1', port, path: p, agent }, (res) => {
          res.resume();
          res.on('end', () =>
            res.statusCode === 200 ? resolve(performance.now() - t) : reject(new Error(`${p}: ${res.statusCode}`)),
          );
        })
        .on('error', reject);
    });
  for (let i = 0; i < WARMUP; i++) await get(paths[i % paths.length]!);
  const latencies: number[] = [];
  for (const p of paths) latencies.push(await get(p));
  agent.destroy();
  return latencies.sort((a, b) => a - b);
}

function goal(buildMs: number, httpP99: number): string {
  const met = buildMs <= GOAL_BUILD_MS && httpP99 <= GOAL_P99_MS;
  return `build ≤ ${GOAL_BUILD_MS} ms, p99 ≤ ${GOAL_P99_MS} ms: ${met ? 'met' : 'MISSED'}`;
}

/** /api/ask over an answer corpus of 50,000+ entries. Its own scope, so its data is garbage before the next case. */
async function benchAsk(store: Store, baseUrl: string): Promise<BenchResult> {
  const snapshot = generatedSnapshot(50_000, baseUrl);
  let t = performance.now();
  const entries = buildAgentQueries(snapshot, baseUrl);
  const corpusMs = performance.now() - t;
  t = performance.now();
  const standalone = new AnswerIndex(entries);
  const indexMs = performance.now() - t;
  const corpus = answerCorpus(snapshot, baseUrl); // what the server answers from (built once, memoised)
  const asks = askQueries(snapshot, QUERIES);
  let i = 0;
  const core = timeIt(() => standalone.ask(asks[i++ % asks.length]!, 5), QUERIES);
  const server = await serve(snapshot, store, baseUrl);
  const overHttp = await httpLatencies(
    server.port,
    asks.map((q) => `/api/ask?q=${encodeURIComponent(q)}`),
  );
  await server.app.close();
  return {
    name: `/api/ask, ${corpus.entries.length.toLocaleString('en')} answers`,
    metrics: {
      'corpus build ms': Math.round(corpusMs),
      'index build ms': Math.round(indexMs),
      'core p50 ms': ms(percentile(core, 50)),
      'core p99 ms': ms(percentile(core, 99)),
      'HTTP p50 ms': ms(percentile(overHttp, 50)),
      'HTTP p99 ms': ms(percentile(overHttp, 99)),
      goal: goal(indexMs, percentile(overHttp, 99)),
    },
  };
}

/** /api/llms-search over a site corpus of 50,000+ documents. */
async function benchSearch(store: Store, baseUrl: string): Promise<BenchResult> {
  const snapshot = generatedSnapshot(25_000, baseUrl);
  let t = performance.now();
  const documents = searchDocuments(snapshot, baseUrl);
  const corpusMs = performance.now() - t;
  t = performance.now();
  const index = new SiteSearch(documents);
  const indexMs = performance.now() - t;
  siteSearch(snapshot, baseUrl); // the server's memoised index
  const searches = searchQueries(snapshot, QUERIES);
  let i = 0;
  const core = timeIt(() => {
    const params = new URLSearchParams(searches[i++ % searches.length]!);
    const type = params.get('type') as (typeof SEARCH_TYPES)[number] | null;
    index.search(params.get('q')!, { type: type ?? undefined, limit: Number(params.get('limit') ?? 10) });
  }, QUERIES);
  const server = await serve(snapshot, store, baseUrl);
  const overHttp = await httpLatencies(
    server.port,
    searches.map((q) => `/api/llms-search?${q}`),
  );
  await server.app.close();
  return {
    name: `/api/llms-search, ${documents.length.toLocaleString('en')} documents`,
    metrics: {
      'corpus build ms': Math.round(corpusMs),
      'index build ms': Math.round(indexMs),
      'core p50 ms': ms(percentile(core, 50)),
      'core p99 ms': ms(percentile(core, 99)),
      'HTTP p50 ms': ms(percentile(overHttp, 50)),
      'HTTP p99 ms': ms(percentile(overHttp, 99)),
      goal: goal(indexMs, percentile(overHttp, 99)),
    },
  };
}

export async function run(): Promise<BenchResult[]> {
  const baseUrl = 'http://bench.test';
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bench-search-'));
  const store = await openStore({ dataDir, databaseUrl: undefined });
  try {
    await migrateToLatest(store.db);
    const search = await benchSearch(store, baseUrl);
    const ask = await benchAsk(store, baseUrl);
    return [ask, search];
  } finally {
    await store.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  printTable('Answers and search over a generated corpus', await run());
}
