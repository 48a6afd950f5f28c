import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import { CONFIG_VARIABLES } from '../src/config.js';
import { TABLE_END, TABLE_START, configurationTable, withConfigurationTable } from '../src/config-doc.js';

const README = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'README.md');

describe('configuration table of the README', () => {
  test('is the table the declaration generates (run `npm run docs:config` after changing a variable)', () => {
    const readme = readFileSync(README, 'utf8');
    assert.equal(readme, withConfigurationTable(readme));
  });

  test('has one row per declared variable', () => {
    const rows = configurationTable().split('\n').slice(2);
    assert.deepEqual(
      rows.map((row) => /^\| `([A-Z0-9_]+)` \|/.exec(row)?.[1]),
      Object.keys(CONFIG_VARIABLES),
    );
  });

  test('replaces only what lies between the markers', () => {
    const readme = `# Title\n\nbefore\n${TABLE_START}\nold table\n${TABLE_END}\nafter\n`;
    assert.equal(
      withConfigurationTable(readme),
      `# Title\n\nbefore\n${TABLE_START}\n${configurationTable()}\n${TABLE_END}\nafter\n`,
    );
    assert.throws(() => withConfigurationTable('no markers'), /configuration-table:start/);
  });
});
