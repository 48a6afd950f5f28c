/**
 * Name matcher at scale, without HTTP: index build time and the cost of uncached lookups (every query distinct:
 * exact names, slugs, one-letter typos and misses) over 10,000 and 100,000 generated startups.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { NameMatcher } from '../src/domain/matcher.js';
import { parsePeriodSlug } from '../src/domain/periods.js';
import { generateDemoDataset } from '../src/pipeline/demo/generate.js';
import { printTable, type BenchResult } from './types.js';

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export async function run(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  for (const size of [10_000, 100_000]) {
    const dataset = generateDemoDataset({
      seed: 'bench-matcher',
      startups: size,
      periods: 1,
      endPeriod: parsePeriodSlug('2026-w46'),
    });
    const entries = dataset.entries;
    let t = performance.now();
    const matcher = new NameMatcher(entries, (e) => [e.displayName, e.login]);
    const buildMs = performance.now() - t;
    const queries = Array.from({ length: 5_000 }, (_, i) => {
      const e = entries[(i * 7919) % entries.length]!;
      return [e.displayName, e.login, e.displayName.slice(0, 2) + e.displayName.slice(3), `zz${i} unknown co`][i % 4]!;
    });
    const times: number[] = [];
    let hits = 0;
    for (const q of queries) {
      t = performance.now();
      if (matcher.best(q)) hits++;
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    results.push({
      name: `NameMatcher, ${size} startups, 5,000 distinct queries`,
      metrics: {
        'build ms': Math.round(buildMs),
        'p50 µs': Math.round(percentile(times, 50) * 1000),
        'p99 µs': Math.round(percentile(times, 99) * 1000),
        'hit rate': `${Math.round((100 * hits) / queries.length)}%`,
      },
    });
  }
  return results;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  printTable('Fuzzy name matcher (uncached)', await run());
}
