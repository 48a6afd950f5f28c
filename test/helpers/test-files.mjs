/**
 * The test files `npm test` runs: every `test/**\/*.test.ts`, the longest first, then the rest in name order. The
 * runner starts them in this order, a few at once: a long file started last would run alone at the end while the
 * other slots sit idle. LONGEST is the slowest files as measured (a full run, then files measured alone after they
 * changed), longest first; a file missing from it, or gone from the tree, changes nothing but the order.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const LONGEST = [
  'test/web/browser.test.ts',
  'test/evaluation/real-activity.test.ts',
  'test/web/reader.test.ts',
  'test/build.test.ts',
  'test/pipeline/cli.test.ts',
  'test/agents/mcp/inspector.test.ts',
  'test/cli/keys.test.ts',
  'test/service.faults.test.ts',
  'test/agents/mcp/modern.test.ts',
  'test/agents/mcp/stdio.test.ts',
  'test/service.test.ts',
  'test/http/routes/dataset.test.ts',
  'test/web/charts-browser.test.ts',
  'test/agents/mcp/x402.test.ts',
  'test/agents/alert-tools.test.ts',
  'test/store/embedded.test.ts',
  'test/snapshot/generated.test.ts',
  'test/pipeline/run.test.ts',
  'test/cli/backtest.test.ts',
  'test/http/fuzz.test.ts',
];

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The test files, as paths relative to the repository's root, longest first. */
export function testFiles() {
  const all = fs
    .readdirSync(path.join(root, 'test'), { recursive: true })
    .map((f) => path.posix.join('test', f.split(path.sep).join('/')))
    .filter((f) => f.endsWith('.test.ts'))
    .sort();
  const present = new Set(all);
  const first = LONGEST.filter((f) => present.has(f));
  return [...first, ...all.filter((f) => !first.includes(f))];
}
