/**
 * Writes docs/methodology.md from the methodology data (src/content/methodology.ts), the same source as
 * GET /api/v1/methodology.json. Run after changing a pipeline rule or the methodology text:
 *
 *   npx tsx scripts/methodology-doc.ts           # rewrite docs/methodology.md
 *   npx tsx scripts/methodology-doc.ts --check   # exit 1 when the committed file is out of date
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderMethodologyMarkdown } from '../src/core/documents/methodology.js';

export const METHODOLOGY_DOC = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  'docs',
  'methodology.md',
);

const expected = renderMethodologyMarkdown();
if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(METHODOLOGY_DOC, 'utf8');
  } catch {
    // missing counts as out of date
  }
  if (current !== expected) {
    console.error('docs/methodology.md is out of date: run `npx tsx scripts/methodology-doc.ts`');
    process.exit(1);
  }
  console.log('docs/methodology.md is up to date');
} else {
  writeFileSync(METHODOLOGY_DOC, expected);
  console.log(`wrote ${path.relative(process.cwd(), METHODOLOGY_DOC)}`);
}
