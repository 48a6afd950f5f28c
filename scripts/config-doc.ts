/**
 * Writes the configuration table of README.md (between `<!-- configuration-table:start -->` and
 * `<!-- configuration-table:end -->`) from the one declaration of the configuration (src/config.ts). Run after
 * adding or changing a variable:
 *
 *   npm run docs:config             # rewrite the table in README.md
 *   npm run docs:config -- --check  # exit 1 when the README's table is out of date
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { withConfigurationTable } from '../src/config-doc.js';

const README = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'README.md');

const current = readFileSync(README, 'utf8');
const expected = withConfigurationTable(current);
if (process.argv.includes('--check')) {
  if (current !== expected) {
    console.error('the configuration table of README.md is out of date: run `npm run docs:config`');
    process.exit(1);
  }
  console.log('the configuration table of README.md is up to date');
} else if (current === expected) {
  console.log('README.md: the configuration table is already up to date');
} else {
  writeFileSync(README, expected);
  console.log(`wrote the configuration table of ${path.relative(process.cwd(), README)}`);
}
