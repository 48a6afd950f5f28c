/**
 * `npm run bench [case…]`: runs the benchmark cases (all by default) and prints one Markdown table per case, ready
 * for the README. Each case compares against its baseline inside the same run.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { printTable, type BenchResult } from './types.js';

const CASES: Record<string, string> = {
  http: 'HTTP: service vs bare node:http (same bytes, same run)',
  matcher: 'Name matcher (uncached lookups)',
  matching: 'Name matching and answers against the labelled sets (data/eval)',
  pipeline: 'Pipeline against the fake GitHub API',
  search: 'Answers and search over a generated corpus',
  'deep-signal': 'Charged Deep Signal calls on PostgreSQL (100 clients)',
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
  const module = (await import(pathToFileURL(file).href)) as { run(): Promise<BenchResult[]> };
  const started = Date.now();
  const results = await module.run();
  printTable(`${CASES[name]} (${Math.round((Date.now() - started) / 1000)} s)`, results);
}
