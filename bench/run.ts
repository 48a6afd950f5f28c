/**
 * `npm run bench [case…]`: runs the benchmark cases (all by default) and prints one Markdown table per case, ready
 * for docs/benchmarks.md. Each case compares against its baseline inside the same run.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { printTable, type BenchResult, type BenchTable } from './types.js';

const CASES: Record<string, string> = {
  http: 'HTTP: service vs bare node:http (same bytes, same run)',
  matcher: 'Name matcher (uncached lookups)',
  matching: 'Name matching and answers against the labelled sets (data/eval)',
  pipeline: 'Pipeline against the fake GitHub API',
  search: 'Answers and search over a generated corpus',
  scale: 'How cost grows: 1,000 to 100,000 startups × 30 weeks',
  'deep-signal': 'Charged Deep Signal calls on PostgreSQL (100 clients)',
  operations: 'Two instances on PostgreSQL and Redis: rate limiter off / on',
  web: 'Website: Lighthouse 12 against npm start, Debian Chromium',
};

const here = path.dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
for (const name of wanted.length ? wanted : Object.keys(CASES)) {
  const file = path.join(here, `${name}.ts`);
  if (!CASES[name] || !fs.existsSync(file)) {
    process.stderr.write(`unknown benchmark case "${name}"; cases: ${Object.keys(CASES).join(', ')}\n`);
    process.exitCode = 2;
    continue;
  }
  const module = (await import(pathToFileURL(file).href)) as { run(): Promise<BenchResult[] | BenchTable[]> };
  const started = Date.now();
  const results = await module.run();
  const seconds = Math.round((Date.now() - started) / 1000);
  if (results.length > 0 && 'title' in results[0]!) {
    for (const table of results as BenchTable[]) printTable(`${CASES[name]}: ${table.title}`, table.results);
    process.stdout.write(`\n(${seconds} s)\n`);
  } else {
    printTable(`${CASES[name]} (${seconds} s)`, results as BenchResult[]);
  }
}
